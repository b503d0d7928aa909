//! What a question asks for, and the spans of a statement that can be it.
//!
//! "Which JE vaccine …" asks for a thing a noun phrase headed by "vaccine" names (or a
//! name the text types as one: "Imojev is a live attenuated vaccine"); "What dose …"
//! for an amount with its unit and frequency ("50 mg twice daily"); "How many doses …"
//! for a count of them ("3 doses"); "When …" for a time ("within 2 weeks").

use std::ops::Range;

use crate::language::{Analysis, Language, Tag};
use crate::text::singular;

/// The kind of answer a question asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// A thing named by a noun phrase with this head stem ("vaccine", "test"); `plural`
    /// when the question asks for several ("Which blood tests …").
    Thing { head: String, plural: bool },
    /// An amount: a number with its unit, frequency and route.
    Amount,
    /// A number of things with this head stem ("dose").
    Count { head: String },
    /// A time or delay ("within 2 weeks").
    Time,
}

/// Nouns that classify the noun after "of" rather than head the answer ("kind of
/// influenza vaccine" asks for a vaccine).
const CLASSIFIERS: &[&str] = &["kind", "type", "class", "form", "sort", "category", "group"];

/// Head nouns that ask for an amount.
const AMOUNT_HEADS: &[&str] = &["dose", "dosage", "amount", "strength", "quantity"];

/// Head nouns that ask for a time.
const TIME_HEADS: &[&str] = &["time", "timing", "point", "interval", "delay"];

impl Asked {
    /// What the question asks for, from the wh-phrase of its asking sentence ("How
    /// many …", "When …", "Which/What … <verb>"); `None` when it asks for none of these.
    pub fn of(question: &str) -> Option<Asked> {
        let words = asking_words(question);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let at = |i: usize| words.get(i).copied().unwrap_or("");
        for i in 0..words.len() {
            match (at(i), at(i + 1)) {
                ("how", "many") | ("how", "much") => {
                    return Some(Asked::Count {
                        head: stem(at(i + 2)),
                    })
                }
                ("how", "long") | ("when", _) => return Some(Asked::Time),
                ("which", _) | ("what", _) => {
                    // The wh-phrase runs to its verb; "N1 of N2" is headed by N1 unless
                    // N1 only classifies N2.
                    let phrase = wh_phrase(&words[i + 1..]);
                    let head = match phrase.iter().position(|&w| w == "of") {
                        Some(of) if of > 0 && !CLASSIFIERS.contains(&phrase[of - 1]) => {
                            phrase[of - 1]
                        }
                        _ => phrase.last().copied().unwrap_or(""),
                    };
                    let plural = singular(head) != head;
                    let head = stem(head);
                    if head.is_empty() {
                        return None;
                    }
                    if AMOUNT_HEADS.iter().any(|&h| stem(h) == head) {
                        return Some(Asked::Amount);
                    }
                    if TIME_HEADS.iter().any(|&h| stem(h) == head) {
                        return Some(Asked::Time);
                    }
                    return Some(Asked::Thing { head, plural });
                }
                _ => {}
            }
        }
        None
    }
}

/// The words of the wh-phrase ("Which JE vaccine should …" → "je", "vaccine"), which an
/// answer never consists of alone.
pub fn type_words(question: &str) -> Vec<String> {
    let words = asking_words(question);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words
        .iter()
        .position(|w| matches!(*w, "which" | "what" | "many" | "much"))
    {
        Some(i) => wh_phrase(&words[i + 1..])
            .into_iter()
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    }
}

/// The question proper: its last sentence that asks, when one does.
pub fn asking(question: &str) -> Option<&str> {
    question
        .split_inclusive(['.', '?', '!'])
        .rfind(|s| s.contains('?'))
        .map(str::trim)
}

/// The lower-case words of the question proper: its last sentence that asks ("A
/// 10-year-old boy has TB. Which regimen should he receive?").
fn asking_words(question: &str) -> Vec<String> {
    asking(question)
        .unwrap_or(question)
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The words after a wh-word up to the verb.
fn wh_phrase<'a>(words: &[&'a str]) -> Vec<&'a str> {
    words
        .iter()
        .copied()
        .take_while(|w| !AUXILIARIES.contains(w))
        .collect()
}

/// Verbs that end a wh-phrase ("Which vaccine | should …").
const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "be", "should", "can", "could", "may", "might", "would", "will",
    "shall", "must", "does", "do", "did", "has", "have", "had", "need", "needs",
];

/// A word's stem for matching heads: lower case, singular, without "-ing" ("tests",
/// "testing" → "test").
pub fn stem(word: &str) -> String {
    let w = singular(&word.to_lowercase());
    match w.strip_suffix("ing") {
        Some(base) if base.len() >= 3 => base.to_string(),
        _ => w,
    }
}

/// Units of measure a dose is given in.
const UNITS: &[&str] = &[
    "mg", "g", "kg", "mcg", "µg", "μg", "ug", "ng", "ml", "l", "iu", "unit", "units", "mmol",
    "meq", "%", "mg/kg", "mcg/kg", "µg/kg", "mg/m2", "mg/day", "mg/d", "ml/kg", "tablet",
    "tablets", "capsule", "capsules", "puff", "puffs", "drop", "drops",
];

/// Units of time.
const TIME_UNITS: &[&str] = &[
    "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months",
    "year", "years", "h", "hr", "hrs",
];

/// Prepositions that open a time.
const TIME_PREPOSITIONS: &[&str] = &[
    "within", "after", "before", "at", "by", "from", "until", "during", "for", "between",
];

/// Words that say how often.
const FREQUENCY: &[&str] = &[
    "once", "twice", "daily", "weekly", "monthly", "nightly", "hourly", "times", "a", "per",
    "every", "day", "week", "month", "three", "four", "thrice",
];

/// English number words, for counts.
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "single",
];

/// How a span came to be a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Typed {
    /// The text names it as the asked kind: its head noun, a copula ("X is a vaccine"),
    /// or the pattern of an amount, count or time.
    Named,
    /// Only a drug name, for a kind the documents never name by its noun ("Which
    /// neuraminidase inhibitor …": the members are drug names).
    Drug,
}

/// The token ranges of a tagged statement that can answer `asked`, with how each was
/// typed.
pub fn spans(
    asked: &Asked,
    language: &Language,
    text: &str,
    analysis: &Analysis,
) -> Vec<(Range<usize>, Typed)> {
    let tokens: Vec<String> = analysis
        .words
        .iter()
        .map(|w| w.text(text).to_lowercase())
        .collect();
    let tags = &analysis.tags;
    let is_number = |i: usize| {
        tags.get(i) == Some(&Tag::Cd)
            || tokens.get(i).is_some_and(|t| {
                t.chars().next().is_some_and(|c| c.is_ascii_digit())
                    || NUMBER_WORDS.contains(&t.as_str())
            })
    };
    let number_end = |i: usize| -> usize {
        // "4–8", "4-8", "0.5", "4 to 8"
        let mut j = i + 1;
        while j + 1 < tokens.len()
            && matches!(tokens[j].as_str(), "–" | "-" | "to" | "—")
            && is_number(j + 1)
        {
            j += 2;
        }
        j
    };
    let mut out = Vec::new();
    match asked {
        Asked::Amount => {
            let mut i = 0;
            while i < tokens.len() {
                if !is_number(i) {
                    i += 1;
                    continue;
                }
                let mut j = number_end(i);
                if !tokens.get(j).is_some_and(|t| UNITS.contains(&t.as_str())) {
                    i += 1;
                    continue;
                }
                j += 1;
                // "/kg", "per kg"
                while tokens.get(j).is_some_and(|t| t == "/") && j + 1 < tokens.len() {
                    j += 2;
                }
                let mut k = j;
                while tokens
                    .get(k)
                    .is_some_and(|t| FREQUENCY.contains(&t.as_str()) || (is_number(k) && k > j))
                {
                    k += 1;
                }
                // Trailing "a"/"per" without a unit after it belongs to the next phrase.
                while k > j && matches!(tokens[k - 1].as_str(), "a" | "per" | "every") {
                    k -= 1;
                }
                // A route adverb ("subcutaneously", "orally").
                if tags.get(k).is_some_and(|t| t.is_adverb()) && tokens[k].ends_with("ly") {
                    k += 1;
                }
                out.push(i..k);
                i = k;
            }
        }
        Asked::Count { head } => {
            for i in 0..tokens.len() {
                if !is_number(i) {
                    continue;
                }
                let j = number_end(i);
                // "3 doses", "a 3-dose schedule"
                if tokens.get(j).is_some_and(|t| stem(t) == *head) {
                    out.push(i..j + 1);
                } else if tokens.get(j).is_some_and(|t| t == "-")
                    && tokens.get(j + 1).is_some_and(|t| stem(t) == *head)
                {
                    out.push(i..j + 2);
                }
            }
        }
        Asked::Time => {
            for i in 0..tokens.len() {
                if !TIME_PREPOSITIONS.contains(&tokens[i].as_str()) {
                    continue;
                }
                let mut n = i + 1;
                while n < tokens.len() && matches!(tokens[n].as_str(), "the" | "first" | "next") {
                    n += 1;
                }
                if !is_number(n) {
                    continue;
                }
                let j = number_end(n);
                if tokens
                    .get(j)
                    .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                {
                    out.push(i..j + 1);
                }
            }
        }
        Asked::Thing { head, plural } => {
            for p in &analysis.phrases {
                let last = p.core.end.saturating_sub(1);
                if p.core.is_empty() || tokens.get(last).is_none_or(|t| stem(t) != *head) {
                    continue;
                }
                // A plural names the kind, not one of its members ("two RSV vaccines",
                // "other JEV vaccines"), unless several are asked for.
                if !plural && matches!(tags[last], Tag::Nns | Tag::Nnps) {
                    continue;
                }
                out.push(p.core.clone());
                // A name the phrase types ("Imojev vaccine" → "Imojev").
                if p.core.len() >= 2
                    && tags[p.core.start..last]
                        .iter()
                        .all(|t| matches!(t, Tag::Nnp | Tag::Nnps))
                {
                    out.push(p.core.start..last);
                }
            }
            // A name typed by a copula: "X is a live attenuated vaccine".
            for (a, b) in analysis.phrases.iter().zip(analysis.phrases.iter().skip(1)) {
                let between: Vec<&str> = tokens[a.range.end..b.range.start]
                    .iter()
                    .map(String::as_str)
                    .collect();
                let last = b.core.end.saturating_sub(1);
                if matches!(between.as_slice(), ["is"] | ["are"] | ["was"])
                    && tokens.get(last).is_some_and(|t| stem(t) == *head)
                    && a.core.len() <= 4
                {
                    out.push(a.core.clone());
                }
            }
            let words: Vec<&str> = analysis.words.iter().map(|w| w.text(text)).collect();
            let mut typed: Vec<(Range<usize>, Typed)> =
                out.drain(..).map(|r| (r, Typed::Named)).collect();
            // Drugs are the asked kind when its noun names drug classes.
            let kind = match language.drugs.is_class_noun(head) {
                true => Typed::Named,
                false => Typed::Drug,
            };
            for (range, drug) in language.drugs.mentions(&words) {
                if !drug.is_class() {
                    typed.push((range, kind));
                }
            }
            return sorted(typed);
        }
    }
    sorted(out.into_iter().map(|r| (r, Typed::Named)).collect())
}

fn sorted(mut spans: Vec<(Range<usize>, Typed)>) -> Vec<(Range<usize>, Typed)> {
    spans.sort_by_key(|(r, t)| (r.start, r.end, *t));
    spans.dedup_by(|a, b| a.0 == b.0);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_question_asks_for() {
        let thing = |h: &str| {
            Some(Asked::Thing {
                head: h.into(),
                plural: false,
            })
        };
        let cases: &[(&str, Option<Asked>)] = &[
            (
                "A man who is 60. Which JE vaccine should he be given?",
                thing("vaccine"),
            ),
            (
                "What kind of influenza vaccine should she receive?",
                thing("vaccine"),
            ),
            (
                "Which blood tests should be done?",
                Some(Asked::Thing {
                    head: "test".into(),
                    plural: true,
                }),
            ),
            (
                "What dolutegravir dose is recommended?",
                Some(Asked::Amount),
            ),
            (
                "What dose of hepatitis B surface antigen should it deliver?",
                Some(Asked::Amount),
            ),
            (
                "How many doses should her schedule have?",
                Some(Asked::Count {
                    head: "dose".into(),
                }),
            ),
            ("When should ART be started?", Some(Asked::Time)),
            ("Why is it used?", None),
        ];
        for (question, expected) in cases {
            assert_eq!(&Asked::of(question), expected, "{question}");
        }
    }

    #[test]
    fn stems_match_plurals_and_gerunds() {
        assert_eq!(stem("Tests"), "test");
        assert_eq!(stem("testing"), "test");
        assert_eq!(stem("vaccines"), "vaccine");
        assert_eq!(stem("king"), "king");
    }
}
