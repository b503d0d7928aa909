//! Sentence splitting tuned for clinical prose: full stops after abbreviations
//! ("e.g.", "vs.", "et al.", "Dr."), initials and decimals do not end a sentence; blank
//! lines and list bullets do.

use std::ops::Range;

/// Abbreviations (lower-case, without the final period) after which a period does not
/// end a sentence even when a capital follows ("e.g. Lisinopril", "Dr. Smith"). Units
/// ("mg", "mL/min") are not here: clinical sentences often end with one.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "eg", "ie", "vs", "etc", "cf", "ca", "approx", "al", "dr", "mr", "mrs", "ms",
    "prof", "st", "fig", "figs", "no", "nos", "vol", "jr", "sr", "inc", "ltd", "co", "u.s", "u.k",
    "dept", "resp", "ref", "refs", "incl",
];

/// The abbreviations of [`ABBREVIATIONS`] that are titles before a name.
const TITLES: &[&str] = &["dr", "mr", "mrs", "ms", "prof", "st"];

/// Byte ranges of the sentences of `text`, trimmed of surrounding white space; empty
/// sentences are dropped. Never panics, whatever the input.
pub fn split_sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let mut cut: Option<usize> = None;
        if c == '\n' {
            // A blank line, or a new line that starts a bullet, ends the sentence.
            let rest = &text[at + 1..];
            let next_line = rest.trim_start_matches([' ', '\t', '\r']);
            if next_line.starts_with('\n') || starts_with_bullet(next_line) {
                cut = Some(at);
            }
        } else if matches!(c, '.' | '!' | '?' | '。') {
            // Swallow closing quotes and brackets that belong to this sentence.
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, '"' | '\'' | ')' | ']' | '”' | '’') {
                j += 1;
            }
            // A reference after the full stop belongs to its sentence: "… when initiating
            // amiodarone.(2,3,6,7) While …", "… in animals.4 As a result …".
            if c == '.' {
                j = after_reference(&chars, i, j);
            }
            let end = chars.get(j).map_or(text.len(), |&(b, _)| b);
            let followed_by_space = j >= chars.len() || chars[j].1.is_whitespace();
            if followed_by_space && (c != '.' || !is_abbreviation(text, start, at)) {
                let next = chars[j..]
                    .iter()
                    .map(|&(_, ch)| ch)
                    .find(|ch| !ch.is_whitespace());
                let starts_new = match next {
                    None => true,
                    Some(n) => {
                        n.is_uppercase()
                            || n.is_ascii_digit()
                            || matches!(n, '"' | '\'' | '(' | '[' | '“' | '‘' | '-' | '•' | '*')
                            || !n.is_alphabetic()
                    }
                };
                if starts_new {
                    cut = Some(end);
                }
            }
            i = j.max(i + 1) - 1;
        }
        if let Some(end) = cut {
            push_trimmed(text, start..end, &mut out);
            start = end;
        }
        i += 1;
    }
    push_trimmed(text, start..text.len(), &mut out);
    out.into_iter()
        .flat_map(|range| split_section_label(text, range))
        .collect()
}

/// The section labels of a structured abstract ("Background", "Materials and methods",
/// "CONCLUSIONS:"), lower-case. Run into the first sentence of their section when a
/// page flattens the abstract, they name the section; they are no part of the sentence.
const SECTION_LABELS: &[&str] = &[
    "abstract",
    "background",
    "introduction",
    "context",
    "importance",
    "objective",
    "objectives",
    "aim",
    "aims",
    "purpose",
    "methods",
    "method",
    "materials and methods",
    "patients and methods",
    "design",
    "setting",
    "participants",
    "interventions",
    "measurements",
    "results",
    "findings",
    "discussion",
    "interpretation",
    "conclusion",
    "conclusions",
];

/// Most words a label runs on by to its colon ("Measurements and Main Results:").
const MAX_LABEL_RUN: usize = 4;

/// A sentence that opens with section labels, as the labels and the sentence: labels
/// written with a capital (or in capitals), then a colon or a word that opens a
/// sentence ("Results Total T4 was …", "METHODS: We …"); "Results were similar" is a
/// sentence about results.
fn split_section_label(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let piece = &text[range.clone()];
    let mut at = 0;
    loop {
        let rest = &piece[at..];
        let label = SECTION_LABELS.iter().filter(|l| {
            rest.get(..l.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(l))
                && rest.starts_with(|c: char| c.is_uppercase())
                && rest[l.len()..].starts_with([' ', ':', '\n'])
        });
        let Some(label) = label.max_by_key(|l| l.len()) else {
            break;
        };
        let mut end = at + label.len();
        let after = &piece[end..];
        // A label may run on to its colon: "Measurements and Main Results:".
        let colon = after.find(':').filter(|&c| {
            let words: Vec<&str> = after[..c].split_whitespace().collect();
            words.len() <= MAX_LABEL_RUN
                && words.iter().all(|w| {
                    w.eq_ignore_ascii_case("and")
                        || w.eq_ignore_ascii_case("of")
                        || w.starts_with(|c: char| c.is_uppercase())
                })
        });
        if let Some(c) = colon {
            end += c + 1;
        }
        let colon = colon.is_some();
        let next = piece[end..].trim_start();
        let opens = next
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
        if next.is_empty() || !(colon || opens) {
            break;
        }
        at = piece.len() - next.len();
    }
    if at == 0 {
        return vec![range];
    }
    let mut out = Vec::new();
    push_trimmed(text, range.start..range.start + at, &mut out);
    push_trimmed(text, range.start + at..range.end, &mut out);
    out
}

/// Where a reference that follows the full stop at `stop` ends (`from` when there is
/// none): a bracketed list of numbers ("(1-5)", "[2, 3]") or, after a word, bare
/// numbers ("animals.4"). A decimal number ("1.9") has a digit before its point and is
/// no reference.
fn after_reference(chars: &[(usize, char)], stop: usize, from: usize) -> usize {
    let is_reference_char = |c: char| c.is_ascii_digit() || matches!(c, ',' | '-' | '–' | ' ');
    let before = stop.checked_sub(1).map(|b| chars[b].1);
    match chars.get(from).map(|&(_, c)| c) {
        Some(open @ ('(' | '[')) if from == stop + 1 => {
            let close = if open == '(' { ')' } else { ']' };
            let inner = chars[from + 1..]
                .iter()
                .take_while(|&&(_, c)| is_reference_char(c))
                .count();
            let end = from + 1 + inner;
            let digits = chars[from + 1..end].iter().any(|(_, c)| c.is_ascii_digit());
            match chars.get(end) {
                Some(&(_, c)) if c == close && digits && inner <= 20 => end + 1,
                _ => from,
            }
        }
        Some(d)
            if d.is_ascii_digit()
                && from == stop + 1
                && before.is_some_and(char::is_alphabetic) =>
        {
            let n = chars[from..]
                .iter()
                .take_while(|&&(_, c)| c.is_ascii_digit() || matches!(c, ',' | '-' | '–'))
                .count();
            if n <= 12 {
                from + n
            } else {
                from
            }
        }
        _ => from,
    }
}

fn starts_with_bullet(line: &str) -> bool {
    let mut chars = line.chars();
    match chars.next() {
        Some('-' | '*' | '•' | '–') => chars.next().is_some_and(char::is_whitespace),
        Some(d) if d.is_ascii_digit() => {
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            let rest = &line[digits..];
            (rest.starts_with(". ") || rest.starts_with(") ")) && digits <= 3
        }
        _ => false,
    }
}

/// Whether the word ending just before the period at byte `dot` is an abbreviation, a
/// single-letter initial, or part of a dotted acronym ("U.S.").
fn is_abbreviation(text: &str, sentence_start: usize, dot: usize) -> bool {
    let before = &text[sentence_start..dot];
    let word: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '.')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if word.is_empty() {
        return false;
    }
    let lower = word.to_lowercase();
    // A title is written with its capital ("Ms. Smith"); "500 ms." ends on a unit.
    let title = TITLES.contains(&lower.as_str());
    if ABBREVIATIONS.contains(&lower.as_str())
        && (!title || word.starts_with(|c: char| c.is_uppercase()))
    {
        return true;
    }
    // A single capital letter ("J. Smith") or a dotted acronym ("U.S").
    let letters: Vec<char> = word.chars().filter(|c| *c != '.').collect();
    (letters.len() == 1 && letters[0].is_uppercase()) || (word.contains('.') && letters.len() <= 4)
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let slice = &text[range.clone()];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    let (s, e) = (range.start + lead, range.end - trail);
    if s < e {
        out.push(s..e);
    }
}

/// Where a question's asking sentence begins: after the last sentence end (".", "?" or
/// "!" before a space) that comes before its last "?"; 0 when it is the first. A point
/// inside a number ("2.4 ng/mL") ends no sentence.
pub fn asking_start(question: &str) -> usize {
    let Some(mark) = question.rfind('?') else {
        return 0;
    };
    let bytes = question.as_bytes();
    question[..mark]
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '.' | '?' | '!') && bytes.get(i + 1).is_some_and(u8::is_ascii_whitespace)
        })
        .map(|(i, _)| i + 1)
        .next_back()
        .unwrap_or(0)
}

/// The question proper: the sentence that ends with its last "?" ("A 10-year-old boy
/// has TB. Which regimen should he receive?" → "Which regimen should he receive?");
/// `None` when nothing asks.
pub fn asking(question: &str) -> Option<&str> {
    let mark = question.rfind('?')?;
    Some(question[asking_start(question)..=mark].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The asking sentence is the one that ends with the last "?"; a point inside a
    /// number ends no sentence, and what follows the question mark is not asked.
    #[test]
    fn the_asking_sentence_ends_with_the_last_question_mark() {
        for (question, expected) in [
            (
                "A 10-year-old boy has TB. Which regimen should he receive?",
                Some("Which regimen should he receive?"),
            ),
            (
                "Her PSA is 2.4 ng/mL. How should a PSA of 2.4 ng/mL be read?",
                Some("How should a PSA of 2.4 ng/mL be read?"),
            ),
            (
                "Which dose for an eGFR of 25.5 mL/min? Answer briefly.",
                Some("Which dose for an eGFR of 25.5 mL/min?"),
            ),
            ("Which test? Which specimen?", Some("Which specimen?")),
            ("No question here.", None),
        ] {
            assert_eq!(asking(question), expected, "{question}");
        }
    }

    fn check(text: &str, expect: &[&str]) {
        let got: Vec<&str> = split_sentences(text)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(got, expect, "split_sentences({text:?})");
    }

    #[test]
    fn a_title_abbreviates_with_its_capital_a_unit_ends_a_sentence() {
        check(
            "Avoid methadone when the QTc exceeds 500 ms. Buprenorphine is preferred.",
            &[
                "Avoid methadone when the QTc exceeds 500 ms.",
                "Buprenorphine is preferred.",
            ],
        );
        check(
            "Ms. Smith was seen by Dr. Jones.",
            &["Ms. Smith was seen by Dr. Jones."],
        );
    }

    #[test]
    fn splits_at_sentence_final_punctuation() {
        check(
            "Doxycycline is contraindicated during pregnancy. Amoxicillin is considered safe across all trimesters.",
            &[
                "Doxycycline is contraindicated during pregnancy.",
                "Amoxicillin is considered safe across all trimesters.",
            ],
        );
        check(
            "Is it safe? Yes! 2 doses.",
            &["Is it safe?", "Yes!", "2 doses."],
        );
        // A reference after the full stop ends the sentence with it.
        check(
            "Clearance fell by 26-29%.(1-5) While minor, levels doubled.(4) One study agreed.[2, 3] \
             Levels rose in animals.4 As a result, most halve the dose. It was 1.9 ng/mL.",
            &[
                "Clearance fell by 26-29%.(1-5)",
                "While minor, levels doubled.(4)",
                "One study agreed.[2, 3]",
                "Levels rose in animals.4",
                "As a result, most halve the dose.",
                "It was 1.9 ng/mL.",
            ],
        );
    }

    #[test]
    fn abbreviations_initials_and_decimals_do_not_split() {
        check(
            "Use an ACE inhibitor, e.g. Lisinopril 2.5 mg daily. See Smith et al. for details.",
            &[
                "Use an ACE inhibitor, e.g. Lisinopril 2.5 mg daily.",
                "See Smith et al. for details.",
            ],
        );
        check(
            "Described by J. Smith in the U.S. Trials followed.",
            &["Described by J. Smith in the U.S. Trials followed."],
        );
        check(
            "eGFR below 30 mL/min/1.73 m². Metformin is avoided.",
            &["eGFR below 30 mL/min/1.73 m².", "Metformin is avoided."],
        );
    }

    #[test]
    fn lower_case_after_a_period_continues_the_sentence() {
        check(
            "Doses of 5 mg. daily are usual.",
            &["Doses of 5 mg. daily are usual."],
        );
    }

    #[test]
    fn blank_lines_and_bullets_split() {
        check(
            "Options\n\n- amlodipine\n- losartan",
            &["Options", "- amlodipine", "- losartan"],
        );
        check(
            "Heading line\nsame paragraph.",
            &["Heading line\nsame paragraph."],
        );
    }

    #[test]
    fn section_labels_of_a_flattened_abstract_stand_apart() {
        check(
            "Abstract Background Total T4 measurement is preferred. Materials and methods A \
             cross-sectional study was done. Results were similar. CONCLUSION: Rise is 25%. \
             Measurements And Main Results: INR was measured.",
            &[
                "Abstract Background",
                "Total T4 measurement is preferred.",
                "Materials and methods",
                "A cross-sectional study was done.",
                "Results were similar.",
                "CONCLUSION:",
                "Rise is 25%.",
                "Measurements And Main Results:",
                "INR was measured.",
            ],
        );
        // A label word that is the sentence's subject stays in it.
        check(
            "Background radiation is low. Design matters.",
            &["Background radiation is low.", "Design matters."],
        );
    }

    #[test]
    fn quotes_stay_with_their_sentence_and_odd_input_is_fine() {
        check(
            "He said \"stop.\" Then left.",
            &["He said \"stop.\"", "Then left."],
        );
        check("", &[]);
        check("   \n\n  ", &[]);
        check("...", &["..."]);
        check("ünïcödé. Ωmega ends", &["ünïcödé.", "Ωmega ends"]);
    }
}
