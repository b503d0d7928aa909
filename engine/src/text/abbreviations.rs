//! Abbreviations a text defines for itself: "yellow fever (YF) vaccine",
//! "carboxyhaemoglobin (COHb)". Scientific and clinical writing defines a short form in
//! parentheses right after its long form and uses the short form afterwards; the long
//! form is found the way Schwartz and Hearst's algorithm finds it: the shortest run of
//! the words just before the parenthesis that starts with the short form's first letter
//! and contains its letters in order.

use super::words::{normalize_term, words};

/// Most words a long form spans.
const MAX_LONG_WORDS: usize = 6;

/// Longest short form, in characters.
const MAX_SHORT_CHARS: usize = 10;

/// The index in `before` (lower-case words, the last one just before the parenthesis)
/// where the long form of `short` starts, if `short` abbreviates the words that end
/// `before`. `short` needs two capitals at least ("YF", "COHb", "DPP-4"); only they
/// are matched, against the words' letters.
pub fn long_form_start(before: &[String], short: &str) -> Option<usize> {
    let letters: Vec<char> = short
        .chars()
        .filter(|c| c.is_ascii_uppercase())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if letters.len() < 2 {
        return None;
    }
    let from = before.len().saturating_sub(MAX_LONG_WORDS);
    (from..before.len()).rev().find(|&k| {
        // Digits glued to a word by a page's layout ("2014European") are not its letters.
        let letters_of: String = before[k..]
            .iter()
            .map(|w| w.trim_start_matches(|c: char| c.is_ascii_digit()))
            .collect();
        letters_of.starts_with(letters[0]) && covers(&letters_of, &letters)
    })
}

/// Whether `text` contains `letters` in order.
fn covers(text: &str, letters: &[char]) -> bool {
    let mut it = text.chars();
    letters.iter().all(|l| it.any(|c| c == *l))
}

/// The abbreviations `text` defines in parentheses or brackets, as (short form as
/// written, long form in [`normalize_term`]'s form) pairs: "yellow fever (YF) vaccine"
/// → ("YF", "yellow fever"). A long form runs back only over words, never across
/// punctuation.
pub fn abbreviations(text: &str) -> Vec<(String, String)> {
    let tokens = words(text);
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let closing = match token.text(text) {
            "(" => ")",
            "[" => "]",
            _ => continue,
        };
        let (Some(short), Some(close)) = (tokens.get(i + 1), tokens.get(i + 2)) else {
            continue;
        };
        let short = short.text(text);
        if close.text(text) != closing || short.chars().count() > MAX_SHORT_CHARS {
            continue;
        }
        let before: Vec<String> = tokens[..i]
            .iter()
            .rev()
            .take_while(|t| t.is_word)
            .take(MAX_LONG_WORDS)
            .map(|t| t.text(text).to_lowercase())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if let Some(start) = long_form_start(&before, short) {
            let long = normalize_term(&before[start..].join(" "));
            if !long.is_empty() && long != normalize_term(short) {
                out.push((short.to_string(), long));
            }
        }
    }
    out
}

/// The short forms `text` uses undefined that spell the initials of words `other`
/// writes in full, as (short form as written, long form in [`normalize_term`]'s form)
/// pairs: "DLB" in a document and "dementia with Lewy bodies" in the question, "HIT"
/// and "heparin-induced thrombocytopenia". An initialism takes the first letter of each
/// word and of each part of a hyphenated one, passing over short function words
/// ("with", "of"). Two letters fit too many pairs of words by chance ("MG" and "man
/// given"): only short forms of three letters or more are read.
pub fn initialisms(text: &str, other: &str) -> Vec<(String, String)> {
    let parts: Vec<String> = words(other)
        .iter()
        .filter(|w| w.is_word)
        .flat_map(|w| {
            w.text(other)
                .split('-')
                .filter(|p| !p.is_empty())
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let skipped = |w: &str| INITIALISM_SKIPS.contains(&w);
    let mut out: Vec<(String, String)> = Vec::new();
    for token in words(text).iter().filter(|w| w.is_word) {
        let short = token.text(text);
        let letters: Vec<char> = short.chars().map(|c| c.to_ascii_lowercase()).collect();
        let shaped = (MIN_INITIALS..=MAX_INITIALS).contains(&letters.len())
            && short.chars().all(|c| c.is_ascii_uppercase());
        if !shaped || out.iter().any(|(s, _)| s == short) {
            continue;
        }
        let found = (0..parts.len()).find_map(|start| {
            let mut k = start;
            let mut matched = 0;
            while matched < letters.len() && k < parts.len() {
                let w = parts[k].as_str();
                if matched > 0 && skipped(w) {
                    k += 1;
                    continue;
                }
                if !w.starts_with(letters[matched]) || skipped(w) {
                    return None;
                }
                matched += 1;
                k += 1;
            }
            (matched == letters.len()).then(|| normalize_term(&parts[start..k].join(" ")))
        });
        if let Some(long) = found {
            out.push((short.to_string(), long));
        }
    }
    out
}

/// Fewest letters of an initialism [`initialisms`] reads.
const MIN_INITIALS: usize = 3;

/// Most letters of an initialism [`initialisms`] reads.
const MAX_INITIALS: usize = 6;

/// Function words an initialism passes over ("dementia with Lewy bodies" → "DLB").
const INITIALISM_SKIPS: &[&str] = &["with", "of", "and", "the", "in", "to", "for", "on"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undefined_short_form_spells_the_initials_of_words_written_elsewhere() {
        // (text, the other text, the pairs read)
        type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);
        let cases: &[Case] = &[
            (
                "Caution in DLB: avoid haloperidol.",
                "a man with dementia with Lewy bodies",
                &[("DLB", "dementia with lewy body")],
            ),
            (
                "Argatroban is used in HIT.",
                "a patient with heparin-induced thrombocytopenia",
                &[("HIT", "heparin induced thrombocytopenia")],
            ),
            (
                "Avoid in COPD.",
                "a man with chronic obstructive pulmonary disease",
                &[("COPD", "chronic obstructive pulmonary disease")],
            ),
            // Two letters are too few to tell; initials out of order, or a short form
            // the other text does not spell, pair with nothing.
            ("Avoid in MG.", "a woman with myasthenia gravis", &[]),
            (
                "Avoid in CKD.",
                "a patient with kidney disease, chronic",
                &[],
            ),
            ("The INR rises.", "a patient with atrial fibrillation", &[]),
            ("Give IV fluids.", "a woman in labour", &[]),
        ];
        for (text, other, expected) in cases {
            let expected: Vec<(String, String)> = expected
                .iter()
                .map(|(s, l)| (s.to_string(), l.to_string()))
                .collect();
            assert_eq!(initialisms(text, other), expected, "{text} / {other}");
        }
    }

    #[test]
    fn a_parenthesised_short_form_names_the_words_before_it() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            (
                "The only yellow fever (YF) vaccine licensed is contraindicated.",
                &[("YF", "yellow fever")],
            ),
            (
                "Measure carboxyhemoglobin (COHb) in blood.",
                &[("COHb", "carboxyhemoglobin")],
            ),
            (
                "dipeptidyl peptidase-4 (DPP-4) inhibitors",
                &[("DPP-4", "dipeptidyl peptidase 4")],
            ),
            (
                "in patients with major depressive disorder (MDD).",
                &[("MDD", "major depressive disorder")],
            ),
            // Not abbreviations: a number, a synonym, letters that do not fit.
            (
                "Live Attenuated Influenza Vaccine [LAIV] (The Nasal Spray Flu Vaccine)",
                &[("LAIV", "live attenuated influenza vaccine")],
            ),
            ("a dose (10 mg) daily", &[]),
            ("valproate (divalproex) tablets", &[]),
            ("the new regimen (BPaL) is shorter", &[]),
            ("the test, (PCR) is used", &[]),
            (
                "Cooley 2014European AIDS Clinical Society (EACS) 2022",
                &[("EACS", "2014european aids clinical society")],
            ),
        ];
        for (text, expected) in cases {
            let expected: Vec<(String, String)> = expected
                .iter()
                .map(|(s, l)| (s.to_string(), l.to_string()))
                .collect();
            assert_eq!(abbreviations(text), expected, "{text}");
        }
    }
}
