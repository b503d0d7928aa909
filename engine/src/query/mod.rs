//! Query parsing (CGR §4.2.1, Table 8) without an LLM: keywords K, required and excluded
//! conditions C, negated entities N, plus what the question asks for — the answer type
//! ("antidepressant", "imaging test") and whether it asks for the option to avoid.

use crate::lexicon::{self, Class};
use crate::patient::Patient;
use crate::text::{words, Word};

/// A parsed question.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedQuery {
    /// K: content words of the question outside the patient description.
    pub keywords: Vec<String>,
    /// C, required: conditions the patient satisfies, as written and canonically.
    pub required: Vec<String>,
    /// C, excluded: conditions the question rules out ("but not in adults").
    pub excluded: Vec<String>,
    /// N: entities the answer must not be ("excluding ACE inhibitors").
    pub negated: Vec<String>,
    /// The kind of thing asked for, from the wh-phrase ("antidepressant").
    pub answer_type: Option<String>,
    /// Whether the question asks which option to avoid or is contraindicated.
    pub asks_to_avoid: bool,
    /// The patient description, when the question has one ("in a patient with …").
    pub patient_clause: Option<String>,
    /// The facts read from the whole question.
    pub patient: Patient,
}

/// Words after which the wh-phrase ends.
const WH_END: &[&str] = &[
    "is",
    "are",
    "was",
    "were",
    "should",
    "can",
    "could",
    "may",
    "might",
    "would",
    "will",
    "does",
    "do",
    "did",
    "has",
    "have",
    "for",
    "in",
    "to",
    "that",
    "used",
    "with",
    "on",
    "at",
    "causes",
    "cause",
    "treats",
    "treat",
    "replaces",
    "replace",
    "reduces",
    "increases",
    "helps",
    "guide",
    "guides",
    "best",
    "most",
    "preferred",
    "recommended",
    "of",
];

/// Words besides person nouns that say a patient is described: "in (a) pregnant …",
/// "in pediatric …", "a 60-year-old …".
const PATIENT_WORDS: &[&str] = &["pregnancy", "pregnant", "pediatric", "paediatric", "old"];

/// Cues that introduce an entity excluded from the answer.
const NEGATION_CUES: &[&[&str]] = &[
    &["excluding"],
    &["other", "than"],
    &["except"],
    &["besides"],
    &["rather", "than"],
    &["instead", "of"],
    &["apart", "from"],
    &["distinct", "from"],
    &["replaces"],
    &["replace"],
];

/// Words of a question that are never keywords besides function words.
const NOT_KEYWORDS: &[&str] = &["most", "best", "used", "first"];

/// A question that opens with its patient description moved to the end, or `None`.
fn front_clause_last(question: &str) -> Option<String> {
    let toks = tokens(question);
    let first = toks.first()?;
    if !matches!(first.0.as_str(), "in" | "for" | "during" | "among") {
        return None;
    }
    let comma = toks.iter().position(|(t, _)| t == ",")?;
    let next = toks.get(comma + 1)?;
    if !matches!(
        next.0.as_str(),
        "which" | "what" | "name" | "identify" | "how"
    ) {
        return None;
    }
    let front = question
        .get(first.1.span.start..toks[comma].1.span.start)?
        .trim();
    let rest = question.get(next.1.span.start..)?.trim();
    let rest = rest.trim_end_matches(['?', '.', ' ']);
    let mut front_chars = front.chars();
    let front = match front_chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + front_chars.as_str(),
        None => return None,
    };
    Some(format!("{rest} {front}?"))
}

/// Lower-case word tokens with their spans (punctuation kept as separate tokens).
fn tokens(question: &str) -> Vec<(String, Word)> {
    words(question)
        .into_iter()
        .map(|w| (w.text(question).to_lowercase(), w))
        .collect()
}

/// Parses a question.
pub fn parse(question: &str) -> ParsedQuery {
    // "In a patient with X, which drug …?": read as "Which drug … in a patient with X?".
    if let Some(reordered) = front_clause_last(question) {
        return parse(&reordered);
    }
    let toks = tokens(question);
    let lower: Vec<&str> = toks.iter().map(|(t, _)| t.as_str()).collect();
    let mut q = ParsedQuery {
        patient: Patient::read(question),
        ..ParsedQuery::default()
    };

    // The wh-phrase: "Which antipsychotic", "What is the oral anticoagulant of choice".
    let mut i = 0;
    while i < lower.len() && matches!(lower[i], "which" | "what" | "name" | "identify") {
        i += 1;
        if lower.get(i) == Some(&"is") && matches!(lower.get(i + 1), Some(&"the" | &"a" | &"an")) {
            i += 2;
            // "What is the recommended treatment": the type is "treatment".
            while matches!(
                lower.get(i),
                Some(&"recommended" | &"preferred" | &"best" | &"appropriate")
            ) {
                i += 1;
            }
        }
    }
    let type_start = i;
    while i < lower.len() && toks[i].1.is_word && !WH_END.contains(&lower[i]) {
        i += 1;
    }
    // "class of topical antibiotic", "form of iron replacement": keep an "of" phrase
    // after a generic head.
    if lower.get(i) == Some(&"of")
        && i > type_start
        && matches!(
            lower[i - 1],
            "class" | "form" | "type" | "kind" | "combination"
        )
    {
        i += 1;
        while i < lower.len() && toks[i].1.is_word && !WH_END.contains(&lower[i]) {
            i += 1;
        }
    }
    if i > type_start {
        let span = toks[type_start].1.span.start..toks[i - 1].1.span.end;
        q.answer_type = Some(question[span].to_string());
    }

    // The patient description: from the first "in/for/during … <person noun>" to the end.
    let patient_start = (0..lower.len()).find(|&k| {
        matches!(lower[k], "in" | "for" | "during")
            && lower[k + 1..]
                .iter()
                .take(4)
                // Words between the preposition and the person may not start another
                // phrase: "for depression in a woman" starts at "in", not at "for".
                .take_while(|w| !matches!(**w, "," | "?" | "." | "in" | "for" | "during" | "with"))
                .any(|w| Class::Person.has(w) || PATIENT_WORDS.contains(w) || w.ends_with("-old"))
    });
    let main_end = patient_start.unwrap_or(lower.len());
    if let Some(k) = patient_start {
        let end = toks.last().map_or(question.len(), |(_, w)| w.span.end);
        let clause = question[toks[k].1.span.start..end]
            .trim_end_matches(['?', '.', ' '])
            .to_string();
        q.patient_clause = Some(clause);
    }

    // Excluded conditions: "but not in adults", "not in pregnancy".
    let mut excluded_ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for k in 0..lower.len() {
        if lower[k] == "not" && matches!(lower.get(k + 1), Some(&"in" | &"during" | &"for")) {
            let end = end_at(&lower, k + 1, PHRASE_STOPS);
            let span = toks[k + 1].1.span.start..toks[end - 1].1.span.end;
            q.excluded.push(question[span].to_string());
            excluded_ranges.push(k..end);
        }
    }

    // Negated entities.
    for k in 0..lower.len() {
        for cue in NEGATION_CUES {
            if lower[k..].starts_with(cue) {
                let start = k + cue.len();
                if start < lower.len() && toks[start].1.is_word {
                    let end = end_at(&lower, start, ENTITY_STOPS);
                    let span = toks[start].1.span.start..toks[end - 1].1.span.end;
                    q.negated.push(question[span].to_string());
                }
            }
        }
    }

    // Avoid-questions, read from the sentence that asks: what a case's earlier sentences
    // say ("Her rheumatologist says allopurinol cannot be avoided. … to what fraction
    // should azathioprine be reduced?") describes the patient, not what is asked.
    let asks_from = crate::text::asking_start(question);
    let first = toks
        .iter()
        .position(|(_, t)| t.span.start >= asks_from)
        .unwrap_or(0);
    let main = if first < main_end {
        &lower[first..main_end]
    } else {
        &lower[first.min(lower.len())..]
    };
    // "… can she take with a dose reduction, rather than being contraindicated?": what
    // "rather than" or "instead of" opens is set aside, not asked for.
    let set_aside = main
        .windows(2)
        .position(|p| p == ["rather", "than"] || p == ["instead", "of"]);
    q.asks_to_avoid = main.iter().enumerate().any(|(k, w)| {
        // "Which fluoroquinolone would avoid the interaction?", "… take to avoid
        // bleeding?": "avoid" has an object of its own, which is what is avoided; the
        // asked thing is avoided when nothing but a phrase of place or time or a verb
        // of use follows ("avoid in pregnancy", "avoid taking").
        let purpose = k > 0 && main[k - 1] == "to";
        let avoids_object = main.get(k + 1).is_some_and(|n| {
            toks.get(k + 1).is_some_and(|(_, t)| t.is_word)
                && !Class::Preposition.has(n)
                && (purpose || !n.ends_with("ing"))
        });
        let cue = matches!(
            *w,
            "avoided" | "contraindicated" | "contraindication" | "unsafe"
        ) || (*w == "avoid" && !avoids_object);
        cue && set_aside.is_none_or(|at| k < at)
    }) || main
        .windows(2)
        .any(|p| p == ["should", "not"] || p == ["not", "recommended"])
        // "Which drug should he not receive?": the subject between modal and "not".
        || main
            .windows(3)
            .any(|p| matches!(p[0], "should" | "must") && p[2] == "not")
        // "Which drug shouldn't she take?"
        || main.iter().any(|w| {
            crate::text::uncontracted(w) == "should not" || crate::text::uncontracted(w) == "must not"
        });

    // Required conditions: the patient description's parts, then canonical names of
    // the concepts the patient satisfies.
    if let Some(clause) = &q.patient_clause {
        for part in split_conditions(clause) {
            if !q.excluded.iter().any(|e| part.contains(e.as_str())) {
                q.required.push(part);
            }
        }
    }
    for (concept, truth) in &q.patient.concepts {
        let name = concept.phrase().to_string();
        if *truth == crate::gate::Truth::True && !q.required.contains(&name) {
            q.required.push(name);
        } else if *truth == crate::gate::Truth::False
            && !excluded_ranges.is_empty()
            && !q.excluded.contains(&name)
        {
            q.excluded.push(name);
        }
    }

    // Keywords: content words of the question outside the patient description and
    // the negated and excluded phrases.
    for (k, (word, token)) in toks.iter().enumerate().take(main_end) {
        let in_excluded = excluded_ranges.iter().any(|r| r.contains(&k));
        let negated = q
            .negated
            .iter()
            .any(|n| n.to_lowercase().split_whitespace().any(|w| w == word));
        if token.is_word
            && !lexicon::any(&lexicon::FUNCTION, word)
            && !NOT_KEYWORDS.contains(&word.as_str())
            && !in_excluded
            && !negated
            && !q.keywords.contains(word)
        {
            q.keywords.push(word.clone());
        }
    }
    q
}

/// Words that end a phrase: punctuation and clause words.
const PHRASE_STOPS: &[&str] = &[",", "?", ".", ";", "but", "and", "who", "which", "that"];

/// Words that also end an entity name: prepositions and copulas ("rifampin in TB
/// treatment" → "rifampin").
const ENTITY_STOPS: &[&str] = &[
    ",", "?", ".", ";", "but", "and", "who", "which", "that", "in", "for", "during", "with", "on",
    "to", "at", "from", "is", "are",
];

/// Index one past the last token of the phrase that starts at `start` and runs to the
/// first of `stops` after it (or the end). The phrase has at least one token.
fn end_at(lower: &[&str], start: usize, stops: &[&str]) -> usize {
    let mut end = start + 1;
    while end < lower.len() && !stops.contains(&lower[end]) {
        end += 1;
    }
    end.min(lower.len())
}

/// Splits a patient description into condition phrases: "in a patient with X who
/// takes Y" → ["X", "takes Y"]. Leading "in a patient" / "for a woman" words go.
fn split_conditions(clause: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let flush = |current: &mut Vec<&str>, parts: &mut Vec<String>| {
        let words: Vec<&str> = current
            .iter()
            .copied()
            .skip_while(|w| {
                let l = w.to_lowercase();
                matches!(
                    l.as_str(),
                    "in" | "for" | "a" | "an" | "the" | "during" | "patient" | "patients"
                )
            })
            .collect();
        if !words.is_empty() {
            parts.push(words.join(" "));
        }
        current.clear();
    };
    for w in clause.split_whitespace() {
        let l = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if matches!(l.as_str(), "who" | "whose" | "with" | "and" | "but") {
            // The cue word itself goes: "with X" → "X", "who takes Y" → "takes Y".
            flush(&mut current, &mut parts);
            continue;
        }
        current.push(w.trim_end_matches([',', '?', '.']));
    }
    flush(&mut current, &mut parts);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_patient_description_is_read_as_the_patient_clause() {
        let q = parse("In a patient with myasthenia gravis, which antibiotic class should be avoided for pneumonia?");
        assert!(q.asks_to_avoid);
        assert_eq!(q.answer_type.as_deref(), Some("antibiotic class"));
        assert_eq!(
            q.patient_clause.as_deref(),
            Some("in a patient with myasthenia gravis")
        );
        assert!(
            q.keywords.iter().any(|k| k == "pneumonia"),
            "{:?}",
            q.keywords
        );
    }

    #[test]
    fn table_8_example_1() {
        let q = parse("Which gene causes cardiomyopathy in pediatric patients but not in adults?");
        assert_eq!(q.keywords, ["gene", "causes", "cardiomyopathy"]);
        assert!(q.required.iter().any(|c| c.contains("pediatric")), "{q:#?}");
        assert!(q.required.contains(&"in children".to_string()), "{q:#?}");
        assert!(q.excluded.contains(&"in adults".to_string()), "{q:#?}");
        assert!(!q.required.iter().any(|c| c.contains("adult")), "{q:#?}");
        assert!(q.negated.is_empty());
        assert_eq!(q.answer_type.as_deref(), Some("gene"));
        assert!(!q.asks_to_avoid);
    }

    #[test]
    fn table_8_example_2() {
        let q = parse("What drug treats hypertension in pregnant women, excluding ACE inhibitors?");
        assert_eq!(q.keywords, ["drug", "treats", "hypertension"]);
        assert!(q.required.contains(&"in pregnancy".to_string()), "{q:#?}");
        assert!(
            q.required.iter().any(|c| c.contains("pregnant women")),
            "{q:#?}"
        );
        assert!(q.excluded.is_empty());
        assert_eq!(q.negated, ["ACE inhibitors"]);
        assert_eq!(q.answer_type.as_deref(), Some("drug"));
    }

    #[test]
    fn answer_types_and_avoid_questions() {
        let q = parse("Which antidepressant for MDD is contraindicated in patients with bulimia?");
        assert_eq!(q.answer_type.as_deref(), Some("antidepressant"));
        assert!(q.asks_to_avoid);
        assert_eq!(
            q.patient_clause.as_deref(),
            Some("in patients with bulimia")
        );
        assert!(q.required.contains(&"bulimia".to_string()), "{q:#?}");
        assert!(parse("Which antipyretic shouldn’t a 3-year-old take?").asks_to_avoid);
        assert!(parse("Which drug should he not receive?").asks_to_avoid);
        assert!(parse("Which drug should she avoid?").asks_to_avoid);
        assert!(parse("Which drug should she avoid taking in pregnancy?").asks_to_avoid);
        assert!(!parse("Which drug should she take to avoid bleeding?").asks_to_avoid);
        // What a case's earlier sentences say of avoiding describes the patient; the
        // sentence that asks says what is asked.
        assert!(
            !parse(
                "She takes azathioprine. Allopurinol cannot be avoided. To what fraction of the \
             dose should azathioprine be reduced?"
            )
            .asks_to_avoid
        );
        assert!(parse(
            "For a woman who is 10 weeks pregnant, 2.5 mg daily is usual. Which drug should be \
             avoided?"
        )
        .asks_to_avoid);
        assert!(
            !parse("Which fluoroquinolone would avoid the interaction with tizanidine?")
                .asks_to_avoid
        );
        assert!(!parse("Which anticoagulant can she take with a dose reduction, rather than being contraindicated?").asks_to_avoid);

        let q = parse("What is the oral anticoagulant of choice for stroke prevention in atrial fibrillation in a patient with a mechanical mitral valve?");
        assert_eq!(q.answer_type.as_deref(), Some("oral anticoagulant"));
        assert!(!q.asks_to_avoid);
        assert_eq!(
            q.patient_clause.as_deref(),
            Some("in a patient with a mechanical mitral valve")
        );

        let q = parse("Which class of topical antibiotic is preferred for bacterial conjunctivitis in a patient who wears soft contact lenses?");
        assert_eq!(
            q.answer_type.as_deref(),
            Some("class of topical antibiotic")
        );
        assert!(
            q.required
                .contains(&"wears soft contact lenses".to_string()),
            "{q:#?}"
        );

        let q = parse(
            "Which first-line drug for postherpetic neuralgia should be avoided in an 84-year-old?",
        );
        assert!(q.asks_to_avoid);
        assert_eq!(q.answer_type.as_deref(), Some("first-line drug"));
        assert!(
            q.required.contains(&"in older adults".to_string()),
            "{q:#?}"
        );
    }

    #[test]
    fn the_patient_clause_starts_at_the_person() {
        let q = parse("Which antipsychotic is preferred for severe agitation in delirium in a patient with dementia with Lewy bodies?");
        assert_eq!(
            q.patient_clause.as_deref(),
            Some("in a patient with dementia with Lewy bodies")
        );
        assert!(q.keywords.contains(&"delirium".to_string()), "{q:#?}");
        let q = parse("What is the recommended treatment for vulvovaginal candidiasis in a woman who is in her third trimester?");
        assert_eq!(q.answer_type.as_deref(), Some("treatment"));
        assert!(
            q.required.contains(&"in the third trimester".to_string()),
            "{q:#?}"
        );
    }

    #[test]
    fn replacement_questions_negate_the_replaced_drug() {
        let q = parse(
            "Which drug replaces rifampin in TB treatment for HIV patients on protease inhibitors?",
        );
        assert_eq!(q.negated, ["rifampin"]);
        assert!(q.keywords.contains(&"tb".to_string()), "{q:#?}");
    }

    #[test]
    fn odd_questions_do_not_panic() {
        for text in [
            "",
            "?",
            "Which",
            "in",
            "not in",
            "excluding",
            "什么药 治疗 高血压？",
            "what is the",
        ] {
            let _ = parse(text);
        }
    }
}
