//! HYBRID mode's hypotheses and the Reviewer's verify → revise loop (ReGraM §3.3–3.4).
//!
//! When a hop's region holds 1–9 facts, a language model may propose triples that
//! complete it, under the closed-world rule: entities from the region, relations from
//! the schema. The paper's Reviewer is a LoRA-tuned 8B classifier; one that size cannot
//! run in a browser tab, and nothing here is trained. [`EvidenceReviewer`] scores a
//! triple against what this device already has — the graph, the gate and the
//! documents' sentences, through the sentence embedder — and accepts it at s ≥ 0.5 as
//! the paper does:
//!
//! - an entity outside the region, a relation outside the schema, or a triple from an
//!   entity to itself scores 0;
//! - the triple as an open edge of the graph states it scores 1;
//! - a pair the graph connects only by an edge the gate closed scores 0: the documents
//!   say it holds under conditions this patient does not meet, and a hypothesis must
//!   not bring it back;
//! - a pair the graph connects by another relation scores 0 (the reviser can correct
//!   the relation to the documents' own);
//! - otherwise the score is the best cosine between the triple, read as a sentence,
//!   and a document sentence that names both entities with the same polarity (a
//!   sentence that warns supports only a triple that warns), 0 without one.
//!
//! A rejected triple goes to the reviser and the revision is reviewed again, for at
//! most [`MAX_ROUNDS`] revisions; only accepted triples count as evidence.

use crate::embed::{cosine, EmbedError, Embedder};
use crate::graph::{EdgeId, KnowledgeGraph, NodeId, Relation, Stance};
use crate::text::{normalize_term, Span};

/// The Reviewer's acceptance threshold on s_θ.
pub const ACCEPT: f32 = 0.5;

/// At most this many revisions of one triple.
pub const MAX_ROUNDS: usize = 2;

/// A hypothesis: head, relation (a schema name), tail.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Triple {
    pub head: String,
    pub relation: String,
    pub tail: String,
}

impl Triple {
    pub fn new(
        head: impl Into<String>,
        relation: impl Into<String>,
        tail: impl Into<String>,
    ) -> Self {
        Triple {
            head: head.into(),
            relation: relation.into(),
            tail: tail.into(),
        }
    }

    /// The triple read as a sentence ("Lyme disease treated by amoxicillin"), as the
    /// embedder compares it with the documents.
    pub fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.head,
            self.relation.replace('_', " "),
            self.tail
        )
    }
}

impl std::fmt::Display for Triple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "⟨{}, {}, {}⟩", self.head, self.relation, self.tail)
    }
}

/// The Reviewer's verdict on one triple.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// s_θ in [0, 1].
    pub score: f32,
    pub accepted: bool,
    /// Why, in words.
    pub reason: String,
    /// The sentence that supports it, when one does.
    pub sentence: Option<Span>,
}

impl Review {
    fn new(score: f32, reason: impl Into<String>, sentence: Option<Span>) -> Review {
        let score = score.clamp(0.0, 1.0);
        Review {
            score,
            accepted: score >= ACCEPT,
            reason: reason.into(),
            sentence,
        }
    }
}

/// A hypothesis after the loop: what was proposed, what it became, and the last review.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    pub proposed: Triple,
    /// The triple as last reviewed (the proposal itself when never revised).
    pub triple: Triple,
    /// Revisions made (0 to [`MAX_ROUNDS`]).
    pub revisions: usize,
    pub review: Review,
}

/// Reviews each hypothesis; a rejected one is revised and reviewed again, at most
/// [`MAX_ROUNDS`] times, and stays rejected when the reviser has nothing to offer or
/// offers what it was already.
pub async fn verify_and_revise<E>(
    hypotheses: Vec<Triple>,
    mut review: impl AsyncFnMut(&Triple) -> Result<Review, E>,
    mut revise: impl AsyncFnMut(&Triple, &Review) -> Result<Option<Triple>, E>,
) -> Result<Vec<Reviewed>, E> {
    let mut out = Vec::with_capacity(hypotheses.len());
    for proposed in hypotheses {
        let mut triple = proposed.clone();
        let mut verdict = review(&triple).await?;
        let mut revisions = 0;
        while !verdict.accepted && revisions < MAX_ROUNDS {
            let Some(revised) = revise(&triple, &verdict).await? else {
                break;
            };
            if revised == triple {
                break;
            }
            triple = revised;
            revisions += 1;
            verdict = review(&triple).await?;
        }
        out.push(Reviewed {
            proposed,
            triple,
            revisions,
            review: verdict,
        });
    }
    Ok(out)
}

/// The schema R: every relation name the engine knows, and those the graph names.
pub fn schema(graph: &KnowledgeGraph) -> Vec<String> {
    let mut names: Vec<String> = KNOWN.iter().map(|r| r.name().to_string()).collect();
    for edge in graph.edges() {
        if let Some(e) = graph.edge(edge) {
            let name = e.relation.name().to_string();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The relation a schema name stands for.
pub fn relation_named(name: &str) -> Relation {
    KNOWN
        .iter()
        .find(|r| r.name() == name)
        .cloned()
        .unwrap_or_else(|| Relation::Other(name.to_string()))
}

const KNOWN: [Relation; 12] = [
    Relation::PreferredTreatment,
    Relation::TreatedBy,
    Relation::AlternativeTreatment,
    Relation::PreferredTest,
    Relation::DiagnosedBy,
    Relation::ContraindicatedIn,
    Relation::SafeIn,
    Relation::Causes,
    Relation::RiskFactor,
    Relation::InteractsWith,
    Relation::Replaces,
    Relation::IsA,
];

/// Words that make a sentence a warning.
const WARNING_CUES: &[&str] = &[
    "avoid",
    "avoided",
    "contraindicated",
    "contraindication",
    "not",
    "never",
    "should not",
    "unsafe",
    "harmful",
];

/// The Reviewer that runs wherever the engine does: the graph, the gate's verdicts and
/// the documents' sentences, compared through the sentence embedder.
pub struct EvidenceReviewer<'g> {
    graph: &'g KnowledgeGraph,
    open: Box<dyn Fn(EdgeId) -> bool + 'g>,
    /// Normalised keys of the region's entities (V_q).
    entities: Vec<String>,
    relations: Vec<String>,
    /// Sentences that may support a hypothesis: span, normalised text, embedding.
    sentences: Vec<(Span, String, Vec<f32>)>,
}

impl<'g> EvidenceReviewer<'g> {
    /// `entities` is V_q (labels), `relations` the schema; `sentences` the documents'
    /// sentences with their texts, `excluded` those that state a blocked edge (they
    /// support nothing here). Embeds the sentences through `embedder`.
    pub async fn new(
        graph: &'g KnowledgeGraph,
        open: impl Fn(EdgeId) -> bool + 'g,
        entities: &[String],
        relations: &[String],
        sentences: Vec<(Span, String)>,
        excluded: &[Span],
        embedder: &mut impl Embedder,
    ) -> Result<EvidenceReviewer<'g>, EmbedError> {
        let sentences: Vec<(Span, String)> = sentences
            .into_iter()
            .filter(|(span, _)| !excluded.iter().any(|e| e.overlaps(span)))
            .collect();
        let texts: Vec<String> = sentences.iter().map(|(_, t)| t.clone()).collect();
        let vectors = embedder.embed(&texts).await?;
        Ok(EvidenceReviewer {
            graph,
            open: Box::new(open),
            entities: entities.iter().map(|e| normalize_term(e)).collect(),
            relations: relations.to_vec(),
            sentences: sentences
                .into_iter()
                .zip(vectors)
                .map(|((span, text), v)| (span, format!(" {} ", normalize_term(&text)), v))
                .collect(),
        })
    }

    /// s_θ for `triple`.
    pub async fn review(
        &self,
        triple: &Triple,
        embedder: &mut impl Embedder,
    ) -> Result<Review, EmbedError> {
        let (head, tail) = (normalize_term(&triple.head), normalize_term(&triple.tail));
        for (name, key) in [(&triple.head, &head), (&triple.tail, &tail)] {
            if !self.entities.contains(key) {
                return Ok(Review::new(
                    0.0,
                    format!("“{name}” is not in the region"),
                    None,
                ));
            }
        }
        if head == tail {
            return Ok(Review::new(0.0, "an entity related to itself", None));
        }
        if !self.relations.contains(&triple.relation) {
            return Ok(Review::new(
                0.0,
                format!("“{}” is not a relation of the schema", triple.relation),
                None,
            ));
        }
        let relation = relation_named(&triple.relation);
        // `find` normalises the label itself (normalising twice is not the identity).
        let (h, t) = (self.graph.find(&triple.head), self.graph.find(&triple.tail));
        if let (Some(h), Some(t)) = (h, t) {
            let between: Vec<(EdgeId, bool)> = self
                .graph
                .incident(h)
                .filter(|&(_, to, _)| to == t)
                .map(|(edge, _, outgoing)| (edge, outgoing))
                .collect();
            let stated = between.iter().find(|&&(edge, outgoing)| {
                outgoing
                    && (self.open)(edge)
                    && self
                        .graph
                        .edge(edge)
                        .is_some_and(|e| e.relation == relation)
            });
            if let Some(&(edge, _)) = stated {
                let sentence = self
                    .graph
                    .edge(edge)
                    .and_then(|e| e.evidence.first().cloned());
                return Ok(Review::new(1.0, "stated in the documents", sentence));
            }
            if between.iter().any(|&(edge, _)| !(self.open)(edge)) {
                return Ok(Review::new(
                    0.0,
                    "the documents state it only under conditions this patient does not meet",
                    None,
                ));
            }
            if let Some(&(edge, _)) = between.first() {
                let name = self
                    .graph
                    .edge(edge)
                    .map(|e| e.relation.name().to_string())
                    .unwrap_or_default();
                return Ok(Review::new(
                    0.0,
                    format!("the documents relate them as {name}"),
                    None,
                ));
            }
        }
        if let (Some(h), Some(t)) = (h, t) {
            if self.reversed(h, t, &relation) {
                return Ok(Review::new(
                    0.0,
                    format!(
                        "reversed: the documents put “{}” on the other side of {}",
                        triple.head, triple.relation
                    ),
                    None,
                ));
            }
        }
        let warns = relation.stance() == Stance::WarnsAgainst;
        let relates = relation.stance() == Stance::Relates;
        let candidates: Vec<usize> = (0..self.sentences.len())
            .filter(|&i| {
                let text = &self.sentences[i].1;
                let names_both =
                    text.contains(&format!(" {head} ")) && text.contains(&format!(" {tail} "));
                let warning = WARNING_CUES
                    .iter()
                    .any(|c| text.contains(&format!(" {c} ")));
                names_both && (relates || warning == warns)
            })
            .collect();
        if candidates.is_empty() {
            return Ok(Review::new(0.0, "no sentence supports it", None));
        }
        let query = embedder.embed(&[triple.text()]).await?;
        let Some(query) = query.first() else {
            return Ok(Review::new(0.0, "no sentence supports it", None));
        };
        let (best, score) = candidates
            .iter()
            .map(|&i| (i, cosine(query, &self.sentences[i].2)))
            .fold((candidates[0], f32::NEG_INFINITY), |a, b| {
                if b.1 > a.1 {
                    b
                } else {
                    a
                }
            });
        let span = self.sentences[best].0.clone();
        let reason = match score >= ACCEPT {
            true => format!("a sentence says so (similarity {score:.2})"),
            false => format!("the closest sentence is too far (similarity {score:.2})"),
        };
        Ok(Review::new(score, reason, Some(span)))
    }

    /// Whether the graph only ever uses `head` as the object of `relation`, or `tail`
    /// as its subject: a schema-level sign the triple runs backwards.
    fn reversed(&self, head: NodeId, tail: NodeId, relation: &Relation) -> bool {
        let roles = |n: NodeId| {
            self.graph
                .incident(n)
                .filter(|&(e, _, _)| self.graph.edge(e).is_some_and(|d| &d.relation == relation))
                .fold((false, false), |(subject, object), (_, _, outgoing)| {
                    (subject || outgoing, object || !outgoing)
                })
        };
        let (head_subject, head_object) = roles(head);
        let (tail_subject, tail_object) = roles(tail);
        (head_object && !head_subject) || (tail_subject && !tail_object)
    }

    /// The documents' own statement of the pair, when the graph has an open edge
    /// between them: the revision that corrects a wrong relation or direction; without
    /// one, the triple turned round when the schema says it runs backwards.
    pub fn revise_from_graph(&self, triple: &Triple) -> Option<Triple> {
        let h = self.graph.find(&triple.head)?;
        let t = self.graph.find(&triple.tail)?;
        let between = self
            .graph
            .incident(h)
            .find(|&(edge, to, _)| to == t && (self.open)(edge));
        let Some((edge, _, _)) = between else {
            let relation = relation_named(&triple.relation);
            return self
                .reversed(h, t, &relation)
                .then(|| Triple::new(&triple.tail, &triple.relation, &triple.head));
        };
        let (u, v) = self.graph.endpoints(edge)?;
        let label = |n| self.graph.entity(n).map(|e| e.label.clone());
        let relation = self.graph.edge(edge)?.relation.name().to_string();
        Some(Triple::new(label(u)?, relation, label(v)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::LexicalEmbedder as Lexical;
    use crate::graph::{GraphBuilder, Tuple};
    use crate::text::Span;

    fn span(doc: usize, start: usize, end: usize) -> Span {
        Span {
            doc,
            range: start..end,
        }
    }

    fn accepted(score: f32) -> Review {
        Review::new(score, "", None)
    }

    /// The loop on three hypotheses with a scripted reviewer: A is accepted at once; B
    /// is rejected, revised to B′ and accepted (1 revision); C is rejected, revised to
    /// C′, rejected, revised to C″, rejected, and left rejected after MAX_ROUNDS = 2
    /// revisions without a third; D is rejected and the reviser has nothing.
    #[test]
    fn the_loop_revises_a_rejected_triple_at_most_twice() {
        let t = |h: &str| Triple::new(h, "treated_by", "x");
        let scores = |triple: &Triple| match triple.head.as_str() {
            "A" | "B′" => 0.9,
            _ => 0.1,
        };
        let mut reviews = Vec::new();
        let mut revisions = Vec::new();
        let out = pollster::block_on(verify_and_revise::<()>(
            vec![t("A"), t("B"), t("C"), t("D")],
            async |triple: &Triple| {
                reviews.push(triple.head.clone());
                Ok(accepted(scores(triple)))
            },
            async |triple: &Triple, _: &Review| {
                revisions.push(triple.head.clone());
                Ok(match triple.head.as_str() {
                    "B" => Some(t("B′")),
                    "C" => Some(t("C′")),
                    "C′" => Some(t("C″")),
                    "C″" => Some(t("C‴")),
                    _ => None,
                })
            },
        ))
        .unwrap();
        let summary: Vec<(&str, &str, usize, bool)> = out
            .iter()
            .map(|r| {
                (
                    r.proposed.head.as_str(),
                    r.triple.head.as_str(),
                    r.revisions,
                    r.review.accepted,
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                ("A", "A", 0, true),
                ("B", "B′", 1, true),
                ("C", "C″", 2, false),
                ("D", "D", 0, false),
            ]
        );
        assert_eq!(reviews, ["A", "B", "B′", "C", "C′", "C″", "D"]);
        assert_eq!(revisions, ["B", "C", "C′", "D"]);
    }

    /// Lyme disease → amoxicillin (open), → doxycycline [not during pregnancy] (closed
    /// for a pregnant patient), amoxicillin is_a penicillin, and a sentence naming
    /// cefuroxime and Lyme disease that the graph did not turn into an edge.
    #[test]
    fn the_evidence_reviewer_checks_the_region_the_gate_and_the_sentences() {
        let docs = [
            "Lyme disease is treated with amoxicillin. Doxycycline treats Lyme disease, not during pregnancy.",
            "Cefuroxime axetil is also effective for Lyme disease.",
        ];
        let mut b = GraphBuilder::new();
        b.add(Tuple::new(
            "Lyme disease",
            Relation::TreatedBy,
            "amoxicillin",
            vec![],
            span(0, 0, 41),
        ));
        b.add(Tuple::new(
            "Lyme disease",
            Relation::TreatedBy,
            "doxycycline",
            vec![crate::graph::Condition::excludes("during pregnancy")],
            span(0, 42, 96),
        ));
        b.add(Tuple::new(
            "amoxicillin",
            Relation::IsA,
            "penicillin",
            vec![],
            span(0, 0, 41),
        ));
        b.add(Tuple::new(
            "cefuroxime axetil",
            Relation::IsA,
            "cephalosporin",
            vec![],
            span(1, 0, 53),
        ));
        let (graph, _) = b.build();
        let doxy = graph
            .edges()
            .find(|&e| graph.describe(e).is_some_and(|d| d.contains("doxycycline")))
            .unwrap();
        let entities: Vec<String> = [
            "Lyme disease",
            "amoxicillin",
            "doxycycline",
            "penicillin",
            "cefuroxime axetil",
        ]
        .map(String::from)
        .to_vec();
        let relations = schema(&graph);
        let sentences = vec![
            (span(0, 0, 41), docs[0][0..41].to_string()),
            (span(0, 42, 96), docs[0][42..96].to_string()),
            (span(1, 0, 53), docs[1].to_string()),
        ];
        let mut embedder = Lexical::default();
        let reviewer = pollster::block_on(EvidenceReviewer::new(
            &graph,
            |e| e != doxy,
            &entities,
            &relations,
            sentences,
            &[span(0, 42, 96)],
            &mut embedder,
        ))
        .unwrap();
        let review = |t: Triple, embedder: &mut Lexical| {
            pollster::block_on(reviewer.review(&t, embedder)).unwrap()
        };

        let r = review(
            Triple::new("Lyme disease", "treated_by", "amoxicillin"),
            &mut embedder,
        );
        assert_eq!((r.score, r.accepted), (1.0, true), "{r:?}");
        assert_eq!(r.sentence, Some(span(0, 0, 41)));
        // The closed edge's pair is never brought back.
        let r = review(
            Triple::new("Lyme disease", "safe_in", "doxycycline"),
            &mut embedder,
        );
        assert!(!r.accepted && r.reason.contains("does not meet"), "{r:?}");
        // Another relation than the documents': rejected, and the graph revises it.
        let wrong = Triple::new("amoxicillin", "treated_by", "penicillin");
        let r = review(wrong.clone(), &mut embedder);
        assert!(!r.accepted && r.reason.contains("is_a"), "{r:?}");
        assert_eq!(
            reviewer.revise_from_graph(&wrong),
            Some(Triple::new("amoxicillin", "is_a", "penicillin"))
        );
        // Closed world: an entity outside the region, a relation outside the schema.
        assert!(
            !review(
                Triple::new("Lyme disease", "treated_by", "ceftriaxone"),
                &mut embedder
            )
            .accepted
        );
        assert!(
            !review(
                Triple::new("Lyme disease", "cures", "amoxicillin"),
                &mut embedder
            )
            .accepted
        );
        // No edge, but a sentence names both: scored by similarity.
        let r = review(
            Triple::new("Lyme disease", "treated_by", "cefuroxime axetil"),
            &mut embedder,
        );
        assert_eq!(r.sentence, Some(span(1, 0, 53)), "{r:?}");
        assert!(r.score > 0.0, "{r:?}");
        // Lyme disease is only ever the subject of treated_by: a triple that makes it the
        // object runs backwards, and the graph turns it round.
        let backwards = Triple::new("cefuroxime axetil", "treated_by", "Lyme disease");
        let r = review(backwards.clone(), &mut embedder);
        assert!(!r.accepted && r.reason.starts_with("reversed"), "{r:?}");
        assert_eq!(
            reviewer.revise_from_graph(&backwards),
            Some(Triple::new(
                "Lyme disease",
                "treated_by",
                "cefuroxime axetil"
            ))
        );
        // A warning is not supported by a sentence that does not warn.
        let r = review(
            Triple::new("cefuroxime axetil", "contraindicated_in", "Lyme disease"),
            &mut embedder,
        );
        assert!(!r.accepted && r.sentence.is_none(), "{r:?}");
    }
}
