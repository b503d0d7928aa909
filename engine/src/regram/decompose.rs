//! The question split into at most three sub-questions, one per reasoning hop (ReGraM
//! §3.1, §3.3: the hop budget H = 3 is the number of sub-questions).
//!
//! The paper asks an LLM for the hops with a one-shot chain-of-thought prompt (its
//! Prompt 2). A ~135M model cannot do that: it restates the question or invents
//! entities. The parsed question already holds the parts a clinical question chains
//! through, so the hops are read from it:
//!
//! 1. **topic**: the question without the patient description ("What antibiotic is
//!    recommended for Lyme disease?"), answered from the triples around the entry
//!    entities;
//! 2. **patient**, when the question describes one: which of those hold for this
//!    patient, or, for a question about what to avoid, which are contraindicated;
//! 3. **kind**, when the question names the kind of answer or rules some out: which of
//!    those is of that kind ("Which of these is an antidepressant, other than
//!    bupropion?").
//!
//! A question with none of 2 and 3 is one hop, as the paper's single-step questions are.

use crate::query::ParsedQuery;

/// At most this many hops (the paper's H = 3).
pub const MAX_HOPS: usize = 3;

/// What a hop asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HopKind {
    /// The question's topic without the patient.
    Topic,
    /// The patient's conditions.
    Patient,
    /// The kind of answer asked for, and what is ruled out.
    Kind,
}

impl HopKind {
    pub fn name(self) -> &'static str {
        match self {
            HopKind::Topic => "topic",
            HopKind::Patient => "patient",
            HopKind::Kind => "kind",
        }
    }
}

/// One hop's question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubQuestion {
    pub kind: HopKind,
    pub text: String,
}

/// Head nouns of answer types that say nothing a triple's entity could be checked
/// against ("What is the recommended treatment …", "first-line drug"): no kind hop for
/// them alone.
const GENERIC_TYPES: &[&str] = &[
    "treatment",
    "therapy",
    "drug",
    "medication",
    "option",
    "management",
    "agent",
    "approach",
    "choice",
];

/// The hops of `question` (parsed as `query`), in order; always at least one.
pub fn decompose(question: &str, query: &ParsedQuery) -> Vec<SubQuestion> {
    let mut hops = vec![SubQuestion {
        kind: HopKind::Topic,
        text: topic(question, query.patient_clause.as_deref()),
    }];
    if let Some(description) = patient_description(query) {
        let text = match query.asks_to_avoid {
            true => format!("Which of these is contraindicated {description}?"),
            false => format!("Which of these holds {description}?"),
        };
        hops.push(SubQuestion {
            kind: HopKind::Patient,
            text,
        });
    }
    let kind = query.answer_type.as_deref().filter(|t| {
        let head = t.split_whitespace().last().unwrap_or_default();
        !GENERIC_TYPES.iter().any(|g| head.eq_ignore_ascii_case(g))
    });
    let others = match query.negated.is_empty() {
        true => String::new(),
        false => format!(", other than {}", query.negated.join(" or ")),
    };
    match (kind, others.is_empty()) {
        (Some(kind), _) => hops.push(SubQuestion {
            kind: HopKind::Kind,
            text: format!("Which of these is {} {kind}{others}?", article(kind)),
        }),
        (None, false) => hops.push(SubQuestion {
            kind: HopKind::Kind,
            text: format!("Which of these is one{others}?"),
        }),
        (None, true) => {}
    }
    hops.truncate(MAX_HOPS);
    hops
}

/// The question with the patient clause cut out, as a question again.
fn topic(question: &str, clause: Option<&str>) -> String {
    let mut text = question.trim().to_string();
    if let Some(clause) = clause.filter(|c| !c.is_empty()) {
        if let Some(at) = text.to_lowercase().find(&clause.to_lowercase()) {
            // Lower-casing keeps byte offsets only for ASCII; check before cutting.
            if text.is_char_boundary(at) && text.is_char_boundary(at + clause.len()) {
                text.replace_range(at..at + clause.len(), " ");
            }
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut text = words.join(" ").replace(" ,", ",").replace(" ?", "?");
    let trimmed = text
        .trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .trim_end_matches(['?', '.', ','])
        .trim()
        .to_string();
    text = trimmed;
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}?", first.to_uppercase(), chars.as_str()),
        None => question.trim().to_string(),
    }
}

/// The patient as the question describes them: its clause, else the conditions it
/// requires and excludes.
fn patient_description(query: &ParsedQuery) -> Option<String> {
    if let Some(clause) = query.patient_clause.as_deref().filter(|c| !c.is_empty()) {
        return Some(clause.to_string());
    }
    let required = query.required.first()?;
    let required = match required.starts_with("in ") || required.starts_with("during ") {
        true => required.clone(),
        false => format!("for a patient with {required}"),
    };
    Some(match query.excluded.first() {
        Some(excluded) => format!("{required} but not {excluded}"),
        None => required,
    })
}

fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::parse;

    fn hops(question: &str) -> Vec<(HopKind, String)> {
        decompose(question, &parse(question))
            .into_iter()
            .map(|h| (h.kind, h.text))
            .collect()
    }

    #[test]
    fn a_patient_and_a_kind_make_three_hops() {
        assert_eq!(
            hops("In a patient with myasthenia gravis, which antibiotic class should be avoided for pneumonia?"),
            vec![
                (
                    HopKind::Topic,
                    "Which antibiotic class should be avoided for pneumonia?".to_string()
                ),
                (
                    HopKind::Patient,
                    "Which of these is contraindicated in a patient with myasthenia gravis?"
                        .to_string()
                ),
                (
                    HopKind::Kind,
                    "Which of these is an antibiotic class?".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_generic_answer_type_makes_no_kind_hop_unless_something_is_ruled_out() {
        let h = hops("What is the recommended treatment for vulvovaginal candidiasis in a woman who is in her third trimester?");
        assert_eq!(h.len(), 2, "{h:?}");
        assert_eq!(
            h[0].1,
            "What is the recommended treatment for vulvovaginal candidiasis?"
        );
        assert_eq!(h[1].0, HopKind::Patient);
        assert!(
            h[1].1.starts_with("Which of these holds in a woman"),
            "{h:?}"
        );

        // Table 8, example 2: no clause, but a required condition and a negated entity.
        let h = hops("What drug treats hypertension in pregnant women, excluding ACE inhibitors?");
        assert_eq!(h.len(), 3, "{h:?}");
        assert_eq!(h[1].0, HopKind::Patient);
        assert_eq!(
            h[2],
            (
                HopKind::Kind,
                "Which of these is one, other than ACE inhibitors?".to_string()
            )
        );
    }

    #[test]
    fn a_question_about_nothing_but_its_topic_is_one_hop() {
        assert_eq!(
            hops("What is the first-line treatment for Lyme disease?"),
            vec![(
                HopKind::Topic,
                "What is the first-line treatment for Lyme disease?".to_string()
            )]
        );
        assert!(decompose("", &parse("")).len() == 1);
        // Never more than H hops, whatever the question says.
        for q in [
            "Which gene causes cardiomyopathy in pediatric patients but not in adults?",
            "Which antidepressant for MDD is contraindicated in patients with bulimia, excluding bupropion?",
        ] {
            let h = hops(q);
            assert!((1..=MAX_HOPS).contains(&h.len()), "{h:?}");
            assert_eq!(h[0].0, HopKind::Topic);
        }
    }
}
