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

#[cfg(test)]
mod tests {
    use super::*;

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
