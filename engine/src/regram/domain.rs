//! The query's domain and what it does to relation weights (ReGraM §3.1, Table 7).
//!
//! The paper asks an LLM for one of five domains (Prompt 1). Without one, the
//! classifier counts cue words of each domain in the question: the domain with the most
//! cues wins, a tie between domains or a question with none is INTEGRATED ("complex
//! questions spanning multiple categories", and the row of Table 7 with no weight below
//! 1.0, so it favours no relation). The cue lists paraphrase the prompt's category
//! descriptions.

use crate::graph::Relation;
use crate::text::lower_words;

/// The five high-level domains of Prompt 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Domain {
    GeneProtein,
    DrugTherapy,
    DiseaseSymptom,
    PathwayMetabolism,
    Integrated,
}

impl Domain {
    pub const ALL: [Domain; 5] = [
        Domain::GeneProtein,
        Domain::DrugTherapy,
        Domain::DiseaseSymptom,
        Domain::PathwayMetabolism,
        Domain::Integrated,
    ];

    /// The paper's label (`DRUG_THERAPY`, …).
    pub fn name(self) -> &'static str {
        match self {
            Domain::GeneProtein => "GENE_PROTEIN",
            Domain::DrugTherapy => "DRUG_THERAPY",
            Domain::DiseaseSymptom => "DISEASE_SYMPTOM",
            Domain::PathwayMetabolism => "PATHWAY_METABOLISM",
            Domain::Integrated => "INTEGRATED",
        }
    }

    fn column(self) -> usize {
        match self {
            Domain::GeneProtein => 0,
            Domain::DrugTherapy => 1,
            Domain::DiseaseSymptom => 2,
            Domain::PathwayMetabolism => 3,
            Domain::Integrated => 4,
        }
    }

    /// Word stems that point at the domain (a question word matches a cue it starts
    /// with: "treat" matches "treated", "treatment").
    fn cues(self) -> &'static [&'static str] {
        match self {
            Domain::GeneProtein => &[
                "gene",
                "protein",
                "mutation",
                "mutated",
                "variant",
                "allele",
                "genotyp",
                "polymorphism",
                "express",
                "receptor",
                "enzyme",
                "kinase",
                "dna",
                "rna",
                "transcript",
                "chromosom",
            ],
            Domain::DrugTherapy => &[
                "drug",
                "treat",
                "therap",
                "medication",
                "medicine",
                "antibiotic",
                "antiviral",
                "dose",
                "dosing",
                "prescri",
                "recommend",
                "first-line",
                "regimen",
                "contraindicat",
                "side",
                "adverse",
                "vaccin",
                "agent",
                "inhibitor",
                "management",
                "manage",
                "avoid",
                "safe",
            ],
            Domain::DiseaseSymptom => &[
                "disease",
                "symptom",
                "sign",
                "diagnos",
                "presentation",
                "present",
                "phenotyp",
                "syndrome",
                "imaging",
                "test",
                "screen",
                "prognos",
                "cause",
                "risk",
                "complication",
            ],
            Domain::PathwayMetabolism => &[
                "pathway",
                "metabol",
                "cytochrome",
                "cyp",
                "process",
                "synthes",
                "biosynthe",
                "cascade",
                "signaling",
                "signalling",
                "clearance",
                "oxidation",
            ],
            Domain::Integrated => &[],
        }
    }
}

/// The domain of `question`: the one with the most cue words; INTEGRATED on a tie or
/// when no cue is present.
pub fn classify(question: &str) -> Domain {
    let tokens = lower_words(question);
    let mut best = (Domain::Integrated, 0usize, false);
    for domain in Domain::ALL {
        let hits = tokens
            .iter()
            .filter(|t| domain.cues().iter().any(|c| t.starts_with(c)))
            .count();
        if hits > best.1 {
            best = (domain, hits, false);
        } else if hits == best.1 && hits > 0 {
            best.2 = true;
        }
    }
    match best {
        (_, 0, _) | (_, _, true) => Domain::Integrated,
        (domain, _, false) => domain,
    }
}

/// The relation rows of Table 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaperRelation {
    InteractsWith,
    Targets,
    Treats,
    Causes,
    ExpressedIn,
    AssociatedWith,
    Regulates,
    OccursIn,
}

/// Table 7: rows are relations, columns the domains in [`Domain::ALL`] order.
const WEIGHTS: [(PaperRelation, [f32; 5]); 8] = [
    (PaperRelation::InteractsWith, [1.5, 0.8, 0.6, 1.0, 1.2]),
    (PaperRelation::Targets, [0.8, 1.5, 0.8, 1.0, 1.3]),
    (PaperRelation::Treats, [0.6, 1.5, 1.2, 0.8, 1.1]),
    (PaperRelation::Causes, [0.5, 0.7, 1.5, 0.8, 1.0]),
    (PaperRelation::ExpressedIn, [1.3, 0.7, 0.5, 1.0, 1.1]),
    (PaperRelation::AssociatedWith, [1.0, 1.0, 1.3, 0.9, 1.2]),
    (PaperRelation::Regulates, [1.4, 0.8, 0.7, 1.5, 1.3]),
    (PaperRelation::OccursIn, [0.9, 0.8, 1.0, 1.2, 1.1]),
];

impl PaperRelation {
    /// The row of Table 7 an engine relation belongs to. Every therapeutic relation
    /// (recommended, option, alternative, replacement, and where a therapy is safe or
    /// contraindicated) is a kind of "treats"; tests and class membership are
    /// associations; risk factors are causes. A relation named in a document is matched
    /// by its name.
    pub fn of(relation: &Relation) -> PaperRelation {
        match relation {
            Relation::PreferredTreatment
            | Relation::TreatedBy
            | Relation::AlternativeTreatment
            | Relation::Replaces
            | Relation::SafeIn
            | Relation::ContraindicatedIn => PaperRelation::Treats,
            Relation::PreferredTest | Relation::DiagnosedBy | Relation::IsA => {
                PaperRelation::AssociatedWith
            }
            Relation::Causes | Relation::RiskFactor => PaperRelation::Causes,
            Relation::InteractsWith => PaperRelation::InteractsWith,
            Relation::Other(name) => {
                let n = name.to_lowercase();
                let has = |s: &str| n.contains(s);
                if has("express") {
                    PaperRelation::ExpressedIn
                } else if has("regulat") {
                    PaperRelation::Regulates
                } else if has("target") || has("bind") {
                    PaperRelation::Targets
                } else if has("interact") {
                    PaperRelation::InteractsWith
                } else if has("occur") || has("locat") {
                    PaperRelation::OccursIn
                } else if has("cause") || has("induce") {
                    PaperRelation::Causes
                } else if has("treat") {
                    PaperRelation::Treats
                } else {
                    PaperRelation::AssociatedWith
                }
            }
        }
    }
}

/// w_r: the weight of `relation` for a question of `domain` (Table 7).
pub fn relation_weight(relation: &Relation, domain: Domain) -> f32 {
    let row = PaperRelation::of(relation);
    WEIGHTS
        .iter()
        .find(|(r, _)| *r == row)
        .map_or(1.0, |(_, w)| w[domain.column()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_classified_by_their_cue_words() {
        let cases = [
            (
                "What antibiotic is recommended for Lyme disease in a pregnant patient?",
                Domain::DrugTherapy,
            ),
            (
                "Which gene mutation is associated with cystic fibrosis?",
                Domain::GeneProtein,
            ),
            (
                "What imaging test is preferred for suspected appendicitis in children?",
                Domain::DiseaseSymptom,
            ),
            (
                "How is acetaminophen metabolized in the liver?",
                Domain::PathwayMetabolism,
            ),
            ("Is aspirin taken with food?", Domain::Integrated),
            // One drug cue ("treat…") and one disease cue ("symptoms"): a tie.
            ("Which symptoms are treated first?", Domain::Integrated),
        ];
        for (question, domain) in cases {
            assert_eq!(classify(question), domain, "{question}");
        }
    }

    /// Rows and columns of Table 7, read back through the engine's relations.
    #[test]
    fn weights_are_table_7() {
        assert_eq!(
            relation_weight(&Relation::PreferredTreatment, Domain::DrugTherapy),
            1.5
        );
        assert_eq!(relation_weight(&Relation::SafeIn, Domain::GeneProtein), 0.6);
        assert_eq!(
            relation_weight(&Relation::Causes, Domain::DiseaseSymptom),
            1.5
        );
        assert_eq!(
            relation_weight(&Relation::RiskFactor, Domain::GeneProtein),
            0.5
        );
        assert_eq!(
            relation_weight(&Relation::InteractsWith, Domain::GeneProtein),
            1.5
        );
        assert_eq!(
            relation_weight(&Relation::DiagnosedBy, Domain::DiseaseSymptom),
            1.3
        );
        assert_eq!(
            relation_weight(
                &Relation::Other("regulates".into()),
                Domain::PathwayMetabolism
            ),
            1.5
        );
        assert_eq!(
            relation_weight(
                &Relation::Other("expressed_in".into()),
                Domain::DiseaseSymptom
            ),
            0.5
        );
        assert_eq!(
            relation_weight(&Relation::Other("occurs_in".into()), Domain::Integrated),
            1.1
        );
        for (_, row) in WEIGHTS {
            assert!(row.iter().all(|w| (0.5..=1.5).contains(w)));
        }
    }
}
