//! The learned ranker: orders a reading's candidates, typed and untyped noun phrases
//! alike, by a linear score over features that hold for any document — how the
//! candidate was typed, how much and for whom the statements count for it, what the
//! lexicons know of it, and its shape against the question's. The weights are learned
//! (listwise softmax, `scripts/train_ranker.py`) on the work halves of the development
//! sets and compiled in from `ranker.txt`; a feature the file does not weigh counts
//! for nothing.

use std::collections::BTreeMap;

use super::{asked, Asked, Candidate, Reading, Typed};
use crate::language::{Language, Sense, Tag};
use crate::lexicon::Class;

/// The features, by name, in the order [`features`] writes them.
pub const FEATURES: &[&str] = &[
    "typed_named",
    "typed_drug",
    "typed_slot",
    "typed_bare",
    "typed_phrase",
    "log_score",
    "relative_score",
    "top_score",
    "reader_best",
    "for_patient",
    "support",
    "drug",
    "drug_class",
    "drug_asked",
    "head_match",
    "medical_noun",
    "kind_of_asked",
    "words",
    "capital",
    "digit",
    "plural_mismatch",
    "heading",
    "person",
    "recommended",
    "opens",
    "example",
    "bracketed",
    "after_verb",
    "after_copula",
    "kind_named",
    "verb_shared",
    "restated",
    "in_class",
    "out_of_class",
    "sense_match",
    "sense_unknown",
    "sense_act",
    "sense_artifact",
    "sense_body",
    "sense_cognition",
    "sense_communication",
    "sense_group",
    "sense_person",
    "sense_quantity",
    "sense_state",
    "sense_substance",
    "sense_time",
];

/// The senses [`FEATURES`] names one by one, in its order.
const SENSES: [Sense; 11] = [
    Sense::Act,
    Sense::Artifact,
    Sense::Body,
    Sense::Cognition,
    Sense::Communication,
    Sense::Group,
    Sense::Person,
    Sense::Quantity,
    Sense::State,
    Sense::Substance,
    Sense::Time,
];

/// Where the statements name a candidate, as rules of English read it: each cue is
/// whether any statement that names it does so in that way.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Context {
    /// In a statement that recommends ("is preferred", "should be given").
    pub recommended: bool,
    /// As the statement's first words: its subject, or a list item's name.
    pub opens: bool,
    /// As an example of something ("such as X", "e.g. X", "including X").
    pub example: bool,
    /// Inside brackets, as an alias or an aside.
    pub bracketed: bool,
    /// As the object of a verb ("use X", "give X") or of "with".
    pub after_verb: bool,
    /// As the complement of a copula ("the test of choice is X").
    pub after_copula: bool,
    /// In a statement that names the asked kind ("tests", "the regimen").
    pub kind_named: bool,
    /// In a statement with a verb of the question's ("given", "used").
    pub verb_shared: bool,
    /// The share of its content words the question uses too: an answer names what the
    /// question does not ("active H. pylori infection" restates what it asks about).
    pub restated: f32,
}

impl Context {
    /// Both cues together: what either statement shows.
    pub fn or(self, other: Context) -> Context {
        Context {
            recommended: self.recommended || other.recommended,
            opens: self.opens || other.opens,
            example: self.example || other.example,
            bracketed: self.bracketed || other.bracketed,
            after_verb: self.after_verb || other.after_verb,
            after_copula: self.after_copula || other.after_copula,
            kind_named: self.kind_named || other.kind_named,
            verb_shared: self.verb_shared || other.verb_shared,
            restated: self.restated.max(other.restated),
        }
    }
}

/// Words before a name that give it as an example of what came before.
const EXAMPLE_MARKERS: &[&[&str]] = &[
    &["such", "as"],
    &["e.g"],
    &["e", "g"],
    &["eg"],
    &["including"],
    &["like"],
    &["namely"],
];

impl Context {
    /// What a statement at `tokens` (tagged `tags`, recommending or not) says of every
    /// name in it; `kind_words` and `verbs` are the stems of the asked kind's nouns and
    /// of the question's verbs.
    pub fn of_statement(
        tokens: &[String],
        tags: &[Tag],
        recommended: bool,
        kind_words: &std::collections::BTreeSet<String>,
        verbs: &std::collections::BTreeSet<String>,
    ) -> Context {
        Context {
            recommended,
            kind_named: tokens.iter().any(|t| kind_words.contains(&asked::stem(t))),
            verb_shared: tokens
                .iter()
                .zip(tags)
                .any(|(t, g)| g.is_verb() && verbs.contains(&asked::verb_stem(t))),
            ..Context::default()
        }
    }

    /// The statement's cues with how it names the name at token `at` (inside brackets
    /// or not).
    pub fn at(self, tokens: &[String], tags: &[Tag], at: usize, bracketed: bool) -> Context {
        let before: Vec<&str> = tokens[..at.min(tokens.len())]
            .iter()
            .map(String::as_str)
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .collect();
        let previous = at
            .checked_sub(1)
            .and_then(|i| tokens.get(i).map(|t| (i, t)));
        Context {
            opens: before.len() <= 1,
            example: EXAMPLE_MARKERS.iter().any(|m| before.ends_with(m)),
            bracketed,
            after_verb: previous.is_some_and(|(i, t)| {
                t == "with"
                    || tags
                        .get(i)
                        .is_some_and(|g| g.is_verb() && !Class::Auxiliary.has(t))
            }),
            after_copula: previous.is_some_and(|(_, t)| {
                matches!(t.as_str(), "is" | "are" | "was" | "were" | "be" | "remains")
            }),
            ..self
        }
    }
}

/// A linear score over [`FEATURES`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ranker {
    weights: Vec<f32>,
}

/// The weights learned on the work halves of the development sets.
const SHIPPED: &str = include_str!("ranker.txt");

impl Ranker {
    /// The weights the engine ships (parsed once).
    pub fn shipped() -> &'static Ranker {
        static SHIPPED_RANKER: std::sync::OnceLock<Ranker> = std::sync::OnceLock::new();
        SHIPPED_RANKER.get_or_init(|| Ranker::parse(SHIPPED))
    }

    /// Whether it weighs nothing (then it leaves the reader's order as it is).
    pub fn is_empty(&self) -> bool {
        self.weights.iter().all(|w| *w == 0.0)
    }

    /// Weights from lines `name weight` (`#` opens a comment); names it does not know
    /// and lines that do not parse are skipped, so an older file still ranks.
    pub fn parse(text: &str) -> Ranker {
        let named: BTreeMap<&str, f32> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter_map(|l| {
                let (name, value) = l.split_once(char::is_whitespace)?;
                Some((name, value.trim().parse().ok()?))
            })
            .collect();
        Ranker {
            weights: FEATURES
                .iter()
                .map(|f| named.get(f).copied().unwrap_or(0.0))
                .collect(),
        }
    }

    /// The score of one feature vector.
    pub fn score(&self, features: &[f32]) -> f32 {
        self.weights.iter().zip(features).map(|(w, f)| w * f).sum()
    }

    /// Orders `reading`'s candidates by score, blocked ones last; ties keep the
    /// reader's order. A ranker that weighs nothing leaves the reading as it is.
    pub fn rank(&self, language: &Language, reading: &mut Reading) {
        if self.is_empty() {
            return;
        }
        let all = features(language, reading);
        let mut scored: Vec<(f32, Candidate)> = all
            .iter()
            .map(|f| self.score(f))
            .zip(reading.candidates.drain(..))
            .collect();
        scored.sort_by(|(a, ca), (b, cb)| {
            ca.blocked_by
                .is_some()
                .cmp(&cb.blocked_by.is_some())
                .then(b.total_cmp(a))
        });
        reading.candidates = scored.into_iter().map(|(_, c)| c).collect();
        reading.ranked = true;
    }
}

/// The feature vector of each of `reading`'s candidates, in its order.
pub fn features(language: &Language, reading: &Reading) -> Vec<Vec<f32>> {
    let max_score = reading
        .candidates
        .iter()
        .map(|c| c.score)
        .fold(0.0_f32, f32::max);
    let best = reading.best().map(|c| c.text.clone());
    let (head, plural) = match &reading.asked {
        Asked::Thing { head, plural } => (Some(head.as_str()), *plural),
        _ => (None, true),
    };
    let asks_drug = head.is_some_and(|h| asked::asks_for_drug(language, h));
    let asked_senses = head.map_or(&[][..], |h| language.drugs.senses(h));
    reading
        .candidates
        .iter()
        .map(|c| {
            let analysis = language.analyse(&c.text);
            let lower = analysis.lower(&c.text);
            let last = lower.last().map(String::as_str).unwrap_or("");
            let drug = language.drugs.lookup(&c.text);
            let kinds = language
                .drugs
                .kinds(&c.text)
                .or_else(|| language.drugs.kinds(last));
            let kind_of_asked = head.is_some_and(|h| {
                kinds.is_some_and(|k| {
                    k.kinds
                        .iter()
                        .chain(&k.roots)
                        .any(|n| n.split_whitespace().any(|w| asked::stem(w) == h))
                })
            });
            let in_plural = matches!(analysis.tags.last(), Some(Tag::Nns | Tag::Nnps));
            let flag = |b: bool| if b { 1.0 } else { 0.0 };
            // What sort of thing the candidate's head names: its most frequent sense.
            let sense = language.drugs.senses(last).first().copied();
            let mut out = vec![
                flag(c.typed == Typed::Named),
                flag(c.typed == Typed::Drug),
                flag(c.typed == Typed::Slot),
                flag(c.typed == Typed::Bare),
                flag(c.typed == Typed::Phrase),
                c.score.max(0.0).ln_1p(),
                if max_score > 0.0 {
                    c.score.max(0.0) / max_score
                } else {
                    0.0
                },
                flag(max_score > 0.0 && c.score >= max_score),
                flag(best.as_deref() == Some(c.text.as_str())),
                flag(c.for_patient),
                (c.support.len() as f32).ln_1p(),
                flag(drug.is_some_and(|d| !d.is_class())),
                flag(drug.is_some_and(|d| d.is_class())),
                flag(asks_drug && drug.is_some()),
                flag(head.is_some_and(|h| asked::stem(last) == h)),
                flag(kinds.is_some()),
                flag(kind_of_asked),
                lower.len().min(8) as f32 / 8.0,
                flag(c.text.chars().any(char::is_uppercase)),
                flag(c.text.chars().any(|ch| ch.is_ascii_digit())),
                flag(head.is_some() && !plural && in_plural),
                flag(
                    reading
                        .headings
                        .contains(&crate::text::normalize_term(&c.text)),
                ),
                flag(Class::Person.has(last) || Class::Group.has(last)),
                flag(c.context.recommended),
                flag(c.context.opens),
                flag(c.context.example),
                flag(c.context.bracketed),
                flag(c.context.after_verb),
                flag(c.context.after_copula),
                flag(c.context.kind_named),
                flag(c.context.verb_shared),
                c.context.restated,
                flag(c.in_class == Some(true)),
                flag(c.in_class == Some(false)),
                flag(sense.is_some_and(|s| asked_senses.contains(&s))),
                flag(sense.is_none()),
            ];
            out.extend(SENSES.iter().map(|s| flag(sense == Some(*s))));
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::tests::shipped;
    use crate::text::Span;

    fn candidate(text: &str, score: f32, typed: Typed, blocked: bool) -> Candidate {
        Candidate {
            text: text.to_string(),
            score,
            support: Vec::new(),
            blocked_by: blocked.then_some(Span {
                doc: 0,
                range: 0..1,
            }),
            first: 0,
            for_patient: false,
            typed,
            context: Context::default(),
            in_class: None,
        }
    }

    #[test]
    fn weights_are_read_by_name_and_unknown_ones_are_skipped() {
        let ranker = Ranker::parse(
            "# comment\nlog_score 2.0\nno_such_feature 5\ntyped_phrase -1.5 # why\nbad line\n",
        );
        let mut f = vec![0.0; FEATURES.len()];
        f[FEATURES.iter().position(|n| *n == "log_score").unwrap()] = 1.5;
        f[FEATURES.iter().position(|n| *n == "typed_phrase").unwrap()] = 1.0;
        // 2.0 × 1.5 − 1.5 × 1.0
        assert!((ranker.score(&f) - 1.5).abs() < 1e-6);
        assert!(!ranker.is_empty());
        assert!(Ranker::parse("# nothing\n").is_empty());
    }

    #[test]
    fn the_ranker_orders_by_its_score_and_puts_blocked_candidates_last() {
        let ranker = Ranker::parse("log_score 1.0\ntyped_phrase 3.0\n");
        let mut reading = Reading {
            asked: Asked::Thing {
                head: "test".into(),
                plural: false,
            },
            candidates: vec![
                candidate("urea breath test", 4.0, Typed::Named, false),
                candidate("serology", 1.0, Typed::Phrase, false),
                candidate("stool antigen test", 9.0, Typed::Named, true),
            ],
            headings: Default::default(),
            ranked: false,
        };
        // Unranked, a phrase is never the best.
        assert_eq!(
            reading.best().map(|c| c.text.as_str()),
            Some("urea breath test")
        );
        ranker.rank(shipped(), &mut reading);
        let order: Vec<&str> = reading.candidates.iter().map(|c| c.text.as_str()).collect();
        // ln 5 ≈ 1.61 against ln 2 + 3 ≈ 3.69; the blocked one last whatever its score.
        assert_eq!(
            order,
            ["serology", "urea breath test", "stool antigen test"]
        );
        assert_eq!(reading.best().map(|c| c.text.as_str()), Some("serology"));
    }

    #[test]
    fn cues_say_how_a_statement_names_a_candidate() {
        let language = shipped();
        let text = "Serologic tests such as ELISA are preferred; clinicians should use PCR \
                    (polymerase chain reaction) in infants.";
        let analysis = language.analyse(text);
        let tokens = analysis.lower(text);
        let at = |w: &str| tokens.iter().position(|t| t == w).unwrap();
        let kind: std::collections::BTreeSet<String> = ["test".to_string()].into();
        let verbs: std::collections::BTreeSet<String> = [asked::verb_stem("used")].into();
        let statement = Context::of_statement(&tokens, &analysis.tags, true, &kind, &verbs);
        let cue =
            |w: &str, bracketed: bool| statement.at(&tokens, &analysis.tags, at(w), bracketed);
        let elisa = cue("elisa", false);
        assert!(elisa.example && !elisa.opens && !elisa.after_verb);
        assert!(elisa.kind_named && elisa.recommended);
        let pcr = cue("pcr", false);
        assert!(pcr.after_verb && !pcr.example && pcr.verb_shared);
        assert!(cue("serologic", false).opens);
        assert!(cue("polymerase", true).bracketed);
    }
}
