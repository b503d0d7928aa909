//! Condition-aware tuples ⟨u, r, v, C, evidence⟩: what extraction produces and the graph
//! is built from.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::text::{normalize_term, Span};

/// A patient condition under which a fact holds (`negated: false`, "in pregnancy") or
/// under whose absence it holds (`negated: true`, "¬ pregnancy": the fact does not hold
/// for pregnant patients).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Condition {
    /// The condition as written ("in children", "eGFR < 30 mL/min").
    pub phrase: String,
    pub negated: bool,
}

impl Condition {
    /// A condition the fact requires.
    pub fn holds(phrase: impl Into<String>) -> Self {
        Condition {
            phrase: phrase.into(),
            negated: false,
        }
    }

    /// A condition that rules the fact out.
    pub fn excludes(phrase: impl Into<String>) -> Self {
        Condition {
            phrase: phrase.into(),
            negated: true,
        }
    }

    /// The comparison key of the phrase: conditions with the same key are one entry of
    /// the condition table, whatever their polarity.
    pub fn key(&self) -> String {
        normalize_term(&self.phrase)
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negated {
            write!(f, "¬{}", self.phrase)
        } else {
            f.write_str(&self.phrase)
        }
    }
}

/// What a relation says about its object for the person asking: it recommends it,
/// lists it, warns against it, or only relates facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stance {
    /// Preferred, first-line, of choice, recommended.
    Recommends,
    /// One option among others, or an alternative.
    Lists,
    /// Contraindicated, to avoid, causes harm.
    WarnsAgainst,
    /// Neither: a mechanism, an association, a class membership.
    Relates,
}

/// The relation of a tuple, with its inverse for walking edges backwards.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Relation {
    /// indication → treatment that is preferred / first-line / of choice / recommended.
    PreferredTreatment,
    /// indication → treatment that is an option.
    TreatedBy,
    /// indication → treatment that is an alternative.
    AlternativeTreatment,
    /// question or disease → preferred test / imaging / measurement.
    PreferredTest,
    /// question or disease → a diagnostic or monitoring option.
    DiagnosedBy,
    /// drug or procedure → the condition in which it is contraindicated or avoided.
    ContraindicatedIn,
    /// indication → a treatment stated to be safe, under the edge's conditions
    /// ("amoxicillin is safe across all trimesters": Lyme disease → amoxicillin,
    /// [during pregnancy]).
    SafeIn,
    /// drug or exposure → an effect, adverse effect or risk.
    Causes,
    /// disease → a risk factor.
    RiskFactor,
    /// drug → drug or enzyme it interacts with (induces, inhibits, combined with).
    InteractsWith,
    /// new option → the option it replaces ("instead of", "substitute").
    Replaces,
    /// member → class ("bupropion, an NDRI").
    IsA,
    /// Any other relation, by name (snake case).
    Other(String),
}

impl Relation {
    /// The relation's name as shown to users and written in exports.
    pub fn name(&self) -> &str {
        match self {
            Relation::PreferredTreatment => "preferred_treatment",
            Relation::TreatedBy => "treated_by",
            Relation::AlternativeTreatment => "alternative_treatment",
            Relation::PreferredTest => "preferred_test",
            Relation::DiagnosedBy => "diagnosed_by",
            Relation::ContraindicatedIn => "contraindicated_in",
            Relation::SafeIn => "safe_in",
            Relation::Causes => "causes",
            Relation::RiskFactor => "risk_factor",
            Relation::InteractsWith => "interacts_with",
            Relation::Replaces => "replaces",
            Relation::IsA => "is_a",
            Relation::Other(name) => name,
        }
    }

    /// The name read from object to subject.
    pub fn inverse_name(&self) -> String {
        match self {
            Relation::PreferredTreatment => "preferred_for".into(),
            Relation::TreatedBy => "treats".into(),
            Relation::AlternativeTreatment => "alternative_for".into(),
            Relation::PreferredTest => "preferred_test_for".into(),
            Relation::DiagnosedBy => "diagnoses".into(),
            Relation::ContraindicatedIn => "contraindicates".into(),
            Relation::SafeIn => "allows".into(),
            Relation::Causes => "caused_by".into(),
            Relation::RiskFactor => "risk_factor_for".into(),
            Relation::InteractsWith => "interacts_with".into(),
            Relation::Replaces => "replaced_by".into(),
            Relation::IsA => "has_member".into(),
            Relation::Other(name) => format!("inverse_{name}"),
        }
    }

    /// What the relation says about its object.
    pub fn stance(&self) -> Stance {
        match self {
            Relation::PreferredTreatment | Relation::PreferredTest | Relation::Replaces => {
                Stance::Recommends
            }
            Relation::TreatedBy
            | Relation::AlternativeTreatment
            | Relation::DiagnosedBy
            | Relation::SafeIn => Stance::Lists,
            Relation::ContraindicatedIn | Relation::Causes => Stance::WarnsAgainst,
            Relation::RiskFactor | Relation::InteractsWith | Relation::IsA | Relation::Other(_) => {
                Stance::Relates
            }
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// ⟨subject, relation, object, conditions⟩ with the sentence it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tuple {
    pub subject: String,
    pub relation: Relation,
    pub object: String,
    pub conditions: Vec<Condition>,
    pub evidence: Span,
}

impl Tuple {
    pub fn new(
        subject: impl Into<String>,
        relation: Relation,
        object: impl Into<String>,
        conditions: Vec<Condition>,
        evidence: Span,
    ) -> Self {
        Tuple {
            subject: subject.into(),
            relation,
            object: object.into(),
            conditions,
            evidence,
        }
    }
}

impl fmt::Display for Tuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let conditions: Vec<String> = self.conditions.iter().map(ToString::to_string).collect();
        write!(
            f,
            "⟨{}, {}, {}, [{}]⟩",
            self.subject,
            self.relation,
            self.object,
            conditions.join(", ")
        )
    }
}
