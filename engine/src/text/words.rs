//! Words with byte spans, and the normal form used to compare terms.

use std::ops::Range;

/// A token of a text: a word (letters and digits, with internal hyphens, apostrophes,
/// slashes and decimal points: "TMP-SMX", "Crohn's", "mL/min", "1.73") or a single
/// punctuation character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Byte range in the text the word came from.
    pub span: Range<usize>,
    /// Whether the token is a word (not punctuation).
    pub is_word: bool,
}

impl Word {
    /// The token's text in `source`.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.span.clone()]
    }
}

/// Tokenises `text` into [`Word`]s. White space is dropped; every other character
/// belongs to exactly one token.
pub fn words(text: &str) -> Vec<Word> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if !c.is_alphanumeric() {
            let end = chars.get(i + 1).map_or(text.len(), |&(b, _)| b);
            out.push(Word {
                span: start..end,
                is_word: false,
            });
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < chars.len() {
            let ch = chars[j].1;
            if ch.is_alphanumeric() {
                j += 1;
            } else if ch == ','
                && separates_thousands(&text[start..chars[j].0], &text[chars[j].0 + 1..])
            {
                j += 4;
            } else if matches!(ch, '-' | '\'' | '’' | '/' | '.' | '+')
                && chars.get(j + 1).is_some_and(|&(_, n)| n.is_alphanumeric())
                && (ch != '.'
                    || (chars[j - 1].1.is_ascii_digit() && chars[j + 1].1.is_ascii_digit()))
            {
                j += 2;
            } else {
                break;
            }
        }
        // "1 / 6": a fraction written with spaces around its bar, as text copied from
        // a table often has it, is one number.
        if chars[i..j].iter().all(|(_, c)| c.is_ascii_digit()) {
            j = spaced_fraction_end(&chars, j).unwrap_or(j);
        }
        let end = chars.get(j).map_or(text.len(), |&(b, _)| b);
        out.push(Word {
            span: start..end,
            is_word: true,
        });
        i = j;
    }
    out
}

/// Whether a comma after `before` (the number read so far) and before `after` (the
/// text after the comma) separates thousands: "1,600 g" and "500–1,500 mg" are one
/// number each. `before` is digits (and earlier separators) whose first group has at
/// most three digits ("1,600", "10,000,000"; not "2019,000"), and exactly three digits
/// follow ("days 1,8,15" is a list).
pub fn separates_thousands(before: &str, after: &str) -> bool {
    let first_group = before.split(',').next().map_or(0, str::len);
    let mut next = after.chars();
    before.chars().all(|c| c.is_ascii_digit() || c == ',')
        && (1..=3).contains(&first_group)
        && next.by_ref().take(3).filter(char::is_ascii_digit).count() == 3
        && !next.next().is_some_and(|c| c.is_ascii_digit())
}

/// Where a spaced fraction's denominator ends, when the number ending before `at` is
/// followed by " / " and digits that end a word.
fn spaced_fraction_end(chars: &[(usize, char)], at: usize) -> Option<usize> {
    let mut k = at;
    while chars.get(k).is_some_and(|&(_, c)| c == ' ') {
        k += 1;
    }
    if chars.get(k).map(|&(_, c)| c) != Some('/') || k == at {
        return None;
    }
    k += 1;
    let spaced = k;
    while chars.get(k).is_some_and(|&(_, c)| c == ' ') {
        k += 1;
    }
    if k == spaced {
        return None;
    }
    let digits = k;
    while chars.get(k).is_some_and(|&(_, c)| c.is_ascii_digit()) {
        k += 1;
    }
    let ends = chars.get(k).is_none_or(|&(_, c)| !c.is_alphanumeric());
    (k > digits && ends).then_some(k)
}

/// Words that end in "s" but are not plurals.
const NOT_PLURAL: &[&str] = &[
    "diabetes",
    "herpes",
    "rabies",
    "scabies",
    "mumps",
    "measles",
    "tetanus",
    "lupus",
    "status",
    "sinus",
    "virus",
    "mellitus",
    "calculus",
    "series",
    "species",
    "pancreas",
    "stenosis",
    "analysis",
    "sepsis",
    "pertussis",
    "psoriasis",
    "always",
    "has",
    "was",
    "is",
    "this",
    "its",
    "gas",
    "plus",
    "bus",
    "less",
    "across",
    "various",
    "nervous",
    "famous",
    "thus",
    "versus",
    "aureus",
    "bronchiectasis",
    "tuberculosis",
    "syphilis",
    "meningitis",
    "arthritis",
    "vas",
    "crisis",
    "cirrhosis",
    "thrombosis",
    "osteoporosis",
    "abscess",
    "ascites",
    "alias",
    "yes",
];

/// The words of `text` as written (punctuation dropped): what a lexicon scan such as
/// the drug lexicon's `mentions` reads.
pub fn word_texts(text: &str) -> Vec<&str> {
    words(text)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| w.text(text))
        .collect()
}

/// The words of `text` (punctuation dropped), lower-cased: what word-list cues and
/// word overlaps compare.
pub fn lower_words(text: &str) -> Vec<String> {
    words(text)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| spelled_ordinals(&w.text(text).to_lowercase()))
        .collect()
}

/// Lower-case `text` with its negated contractions written out, as word-list cues are
/// written: "don’t use" → "do not use", "can't" → "cannot", "won't" → "will not".
pub fn uncontracted(text: &str) -> String {
    let text = text.to_lowercase().replace('’', "'");
    text.replace("can't", "cannot")
        .replace("won't", "will not")
        .replace("shan't", "shall not")
        .replace("n't", " not")
}

/// A lower-case word with its leading ordinal numeral spelled out, as the words a
/// cue is written in: "1st" → "first", "2nd-line" → "second-line", "3rd" → "third".
pub fn spelled_ordinals(word: &str) -> String {
    const ORDINALS: &[(&str, &str)] = &[("1st", "first"), ("2nd", "second"), ("3rd", "third")];
    for (numeral, spelled) in ORDINALS {
        if let Some(rest) = word.strip_prefix(numeral) {
            if rest.is_empty() || rest.starts_with('-') {
                return format!("{spelled}{rest}");
            }
        }
    }
    word.to_string()
}

/// The singular of an English (or drug-class) noun: "antidepressants" → "antidepressant",
/// "therapies" → "therapy", "SSRIs" → "SSRI"; words that are not plurals, and acronyms
/// written in capitals ("AIDS"), are returned unchanged.
pub fn singular(word: &str) -> String {
    let all_caps = word
        .chars()
        .filter(|c| c.is_alphabetic())
        .all(char::is_uppercase);
    if all_caps || word.chars().count() <= 3 || NOT_PLURAL.contains(&word.to_lowercase().as_str()) {
        return word.to_string();
    }
    // Suffix tests use ASCII lower case, which keeps byte offsets: every suffix below is
    // ASCII, so cutting it off always lands on a character boundary.
    let lower = word.to_ascii_lowercase();
    let cut = |n: usize| word[..word.len() - n].to_string();
    if !lower.ends_with('s') {
        return word.to_string();
    }
    // An acronym with a lower-case plural s: "SSRIs", "NSAIDs", "TCAs".
    let stem = &word[..word.len() - 1];
    if word.ends_with('s')
        && stem.chars().any(char::is_alphabetic)
        && stem
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase)
    {
        return stem.to_string();
    }
    if lower.ends_with("ies") && lower.len() > 4 {
        return format!("{}y", cut(3));
    }
    if ["sses", "xes", "ches", "shes"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        return cut(2);
    }
    if lower.ends_with("ss") || lower.ends_with("us") || lower.ends_with("is") {
        return word.to_string();
    }
    cut(1)
}

/// The comparison key of a term: lower case, hyphens and slashes as spaces, possessives
/// and surrounding punctuation dropped, the head (last) word singular, single spaces.
/// "Beta-Blockers" → "beta blocker"; "Crohn's disease" → "crohn disease".
pub fn normalize_term(term: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for token in words(term).iter().filter(|w| w.is_word) {
        let text = token.text(term);
        let text = text
            .strip_suffix("'s")
            .or_else(|| text.strip_suffix("’s"))
            .unwrap_or(text);
        for piece in text.split(['-', '/', '+']) {
            if !piece.is_empty() {
                parts.push(piece.to_string());
            }
        }
    }
    if let Some(last) = parts.last_mut() {
        *last = singular(last);
    }
    parts
        .iter()
        .map(|p| p.to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<&str> {
        words(text).iter().map(|w| w.text(text)).collect()
    }

    #[test]
    fn words_keep_internal_joiners_and_split_punctuation() {
        assert_eq!(
            tokens("major depressive disorder (MDD), TMP-SMX; eGFR < 30 mL/min/1.73 m²."),
            [
                "major",
                "depressive",
                "disorder",
                "(",
                "MDD",
                ")",
                ",",
                "TMP-SMX",
                ";",
                "eGFR",
                "<",
                "30",
                "mL/min/1.73",
                "m²",
                "."
            ]
        );
        assert_eq!(
            tokens("Crohn's disease, 5-HT1F, end."),
            ["Crohn's", "disease", ",", "5-HT1F", ",", "end", "."]
        );
        assert_eq!(
            tokens("reduce to 1 / 6 of the dose, 1 /6 and 3 / x"),
            [
                "reduce", "to", "1 / 6", "of", "the", "dose", ",", "1", "/", "6", "and", "3", "/",
                "x"
            ]
        );
        assert_eq!(
            tokens("500–1,500 mg, 10,000,000 units, days 1,8,15, 2019,000, 1,5000"),
            [
                "500",
                "–",
                "1,500",
                "mg",
                ",",
                "10,000,000",
                "units",
                ",",
                "days",
                "1",
                ",",
                "8",
                ",",
                "15",
                ",",
                "2019",
                ",",
                "000",
                ",",
                "1",
                ",",
                "5000"
            ]
        );
        assert_eq!(tokens(""), Vec::<&str>::new());
        assert_eq!(tokens("a - b"), ["a", "-", "b"]);
    }

    #[test]
    fn singular_handles_regular_plurals_acronyms_and_exceptions() {
        for (plural, single) in [
            ("antidepressants", "antidepressant"),
            ("therapies", "therapy"),
            ("SSRIs", "SSRI"),
            ("NSAIDs", "NSAID"),
            ("TCAs", "TCA"),
            ("benzodiazepines", "benzodiazepine"),
            ("diabetes", "diabetes"),
            ("AIDS", "AIDS"),
            ("stenosis", "stenosis"),
            ("fetus", "fetus"),
            ("abscesses", "abscess"),
            ("gas", "gas"),
        ] {
            assert_eq!(singular(plural), single, "singular({plural})");
        }
    }

    #[test]
    fn negated_contractions_are_written_out() {
        assert_eq!(uncontracted("Don’t use it"), "do not use it");
        assert_eq!(
            uncontracted("It can't, won't and shouldn't be given"),
            "it cannot, will not and should not be given"
        );
    }

    #[test]
    fn ordinal_numerals_are_spelled_as_cues_are() {
        assert_eq!(
            lower_words("Labetalol = 1st line; 2nd-line in the 3rd trimester, 21st day"),
            [
                "labetalol",
                "first",
                "line",
                "second-line",
                "in",
                "the",
                "third",
                "trimester",
                "21st",
                "day"
            ]
        );
    }

    #[test]
    fn normalize_term_makes_surface_variants_meet() {
        assert_eq!(normalize_term("Beta-Blockers"), "beta blocker");
        assert_eq!(normalize_term("beta blocker"), "beta blocker");
        assert_eq!(
            normalize_term("Low-molecular-weight heparins"),
            "low molecular weight heparin"
        );
        assert_eq!(normalize_term("Crohn's disease"), "crohn disease");
        assert_eq!(
            normalize_term("trimethoprim/sulfamethoxazole"),
            "trimethoprim sulfamethoxazole"
        );
        assert_eq!(normalize_term("  (MDD) "), "mdd");
        assert_eq!(normalize_term("!!"), "");
    }
}
