//! Tuple precision and recall against hand-annotated passages (the CGR paper's
//! Table 7 and annotated excerpts of real documents).
//!
//! A predicted tuple matches a gold tuple when its two arguments match the gold
//! arguments in either order: annotations name relations differently from one another,
//! and an inverse relation states the same fact. An argument matches when its
//! SQuAD-normalised token F1 with the gold argument is at least [`MATCH`]. The strict
//! count also asks the conditions to match: every gold condition has a predicted
//! condition at token F1 ≥ [`MATCH`], and a gold tuple without conditions is matched
//! only by a predicted tuple without them.

use serde::{Deserialize, Serialize};

use super::metrics::f1;
use crate::graph::{Relation, Tuple};

/// Token F1 at which two arguments (or two conditions) name the same thing.
pub const MATCH: f64 = 0.5;

/// A hand-annotated tuple: subject, relation, object and the conditions under which
/// it holds, as the annotator wrote them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldTuple(
    pub String,
    pub String,
    pub String,
    #[serde(default)] pub Vec<String>,
);

/// A hand-annotated passage: its text and every tuple an annotator reads in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    /// Where the text comes from (publisher, page or table), when it is not the
    /// collection's.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The text's licence, when it is not the collection's.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub licence: String,
    pub text: String,
    /// The gold tuples.
    pub tuples: Vec<GoldTuple>,
    /// What the rule extractor reads in the text, as it shows tuples (a snapshot that
    /// fixture tests compare and their update mode rewrites).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extracted: Vec<String>,
}

/// Matched and total counts over one or more passages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub predicted: usize,
    pub gold: usize,
    /// Predicted tuples whose arguments match a gold tuple.
    pub correct: usize,
    /// Gold tuples whose arguments some predicted tuple matches.
    pub found: usize,
    /// As `correct`, with the conditions matching too.
    pub correct_strict: usize,
    /// As `found`, with the conditions matching too.
    pub found_strict: usize,
}

impl Counts {
    /// Percent of predicted tuples that are right (arguments only, or with conditions).
    pub fn precision(&self, strict: bool) -> f64 {
        percent(
            if strict {
                self.correct_strict
            } else {
                self.correct
            },
            self.predicted,
        )
    }

    /// Percent of gold tuples found (arguments only, or with conditions).
    pub fn recall(&self, strict: bool) -> f64 {
        percent(
            if strict {
                self.found_strict
            } else {
                self.found
            },
            self.gold,
        )
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.predicted += other.predicted;
        self.gold += other.gold;
        self.correct += other.correct;
        self.found += other.found;
        self.correct_strict += other.correct_strict;
        self.found_strict += other.found_strict;
    }
}

/// Whether the extractor's tuple is one annotators write: class membership and the
/// generic "harm" a warning implies are the graph's bookkeeping, not statements.
pub fn is_statement(tuple: &Tuple) -> bool {
    tuple.relation != Relation::IsA && tuple.object != "harm"
}

/// The tuples of `extraction` that are statements (see [`is_statement`]).
pub fn statements(extraction: &crate::extract::Extraction) -> Vec<&Tuple> {
    extraction
        .tuples
        .iter()
        .filter(|t| is_statement(t))
        .collect()
}

/// Scores one passage's statement tuples (see [`is_statement`]) against its gold.
pub fn score(predicted: &[&Tuple], gold: &[GoldTuple]) -> Counts {
    let strict = |p: &Tuple, g: &GoldTuple| arguments_match(p, g) && conditions_match(p, g);
    // How many predicted tuples match some gold one, and how many gold tuples some
    // predicted one matches.
    let counted = |matches: &dyn Fn(&Tuple, &GoldTuple) -> bool| {
        (
            predicted
                .iter()
                .filter(|p| gold.iter().any(|g| matches(p, g)))
                .count(),
            gold.iter()
                .filter(|g| predicted.iter().any(|p| matches(p, g)))
                .count(),
        )
    };
    let (correct, found) = counted(&arguments_match);
    let (correct_strict, found_strict) = counted(&strict);
    Counts {
        predicted: predicted.len(),
        gold: gold.len(),
        correct,
        found,
        correct_strict,
        found_strict,
    }
}

fn arguments_match(p: &Tuple, g: &GoldTuple) -> bool {
    let same = f1(&p.subject, &g.0) >= MATCH && f1(&p.object, &g.2) >= MATCH;
    let swapped = f1(&p.subject, &g.2) >= MATCH && f1(&p.object, &g.0) >= MATCH;
    same || swapped
}

fn conditions_match(p: &Tuple, g: &GoldTuple) -> bool {
    if g.3.is_empty() {
        return p.conditions.is_empty();
    }
    g.3.iter()
        .all(|gc| p.conditions.iter().any(|pc| f1(&pc.phrase, gc) >= MATCH))
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Condition;
    use crate::text::Span;

    fn tuple(s: &str, o: &str, conditions: &[&str]) -> Tuple {
        Tuple::new(
            s,
            Relation::TreatedBy,
            o,
            conditions.iter().map(|c| Condition::holds(*c)).collect(),
            Span {
                doc: 0,
                range: 0..0,
            },
        )
    }

    fn gold(s: &str, o: &str, conditions: &[&str]) -> GoldTuple {
        GoldTuple(
            s.into(),
            "treated_by".into(),
            o.into(),
            conditions.iter().map(|c| c.to_string()).collect(),
        )
    }

    #[test]
    fn counts_match_arguments_in_either_order_and_conditions_only_when_strict() {
        let predicted = [
            tuple("isoniazid", "latent tuberculosis", &["in adults"]),
            tuple("hypertension", "amlodipine", &[]),
            tuple("malaria", "chloroquine", &[]),
        ];
        let refs: Vec<&Tuple> = predicted.iter().collect();
        let gold = [
            // Swapped arguments, one word off the subject: F1 0.8 ≥ 0.5.
            gold(
                "latent tuberculosis infection",
                "isoniazid",
                &["in children"],
            ),
            gold("hypertension", "amlodipine", &[]),
            gold("pneumonia", "amoxicillin", &[]),
        ];
        let c = score(&refs, &gold);
        assert_eq!(
            c,
            Counts {
                predicted: 3,
                gold: 3,
                correct: 2,
                found: 2,
                // "in adults" vs "in children": F1 0.5 after "in"; normalisation keeps
                // "in", so one shared token of two each: F1 0.5 ≥ 0.5 matches.
                correct_strict: 2,
                found_strict: 2,
            }
        );
        assert!((c.precision(false) - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(Counts::default().recall(true), 0.0);
    }

    #[test]
    fn a_gold_tuple_without_conditions_is_not_matched_strictly_by_a_conditioned_one() {
        let predicted = [tuple("hypertension", "amlodipine", &["in pregnancy"])];
        let refs: Vec<&Tuple> = predicted.iter().collect();
        let c = score(&refs, &[gold("hypertension", "amlodipine", &[])]);
        assert_eq!((c.correct, c.correct_strict), (1, 0));
    }
}
