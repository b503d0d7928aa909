//! Tokens of one sentence with byte offsets into their document, and the small
//! helpers the patterns use to look at them.

use crate::text::words;

/// A token: a word or one punctuation character, lower-cased for matching, with its
/// byte range in the document text (not the sentence).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tok {
    pub lower: String,
    pub start: usize,
    pub end: usize,
    pub word: bool,
    /// Whether the token starts with a capital letter as written.
    pub capital: bool,
}

/// Tokenises `text`, which starts at byte `offset` of its document.
pub(crate) fn tokenize(text: &str, offset: usize) -> Vec<Tok> {
    words(text)
        .into_iter()
        .map(|w| Tok {
            lower: w.text(text).to_lowercase(),
            start: w.span.start + offset,
            end: w.span.end + offset,
            word: w.is_word,
            capital: w.text(text).chars().next().is_some_and(char::is_uppercase),
        })
        .collect()
}

/// The surface text of `toks`, rebuilt from the document: the words as written, one
/// space between them, none before closing punctuation.
pub(crate) fn surface(doc: &str, toks: &[Tok]) -> String {
    let mut out = String::new();
    for (i, t) in toks.iter().enumerate() {
        let text = doc.get(t.start..t.end).unwrap_or("");
        let glue = i > 0 && (!t.word && matches!(text, "," | ")" | "." | ";" | ":" | "%"));
        let after_open = i > 0 && toks[i - 1].lower == "(";
        if i > 0 && !glue && !after_open {
            out.push(' ');
        }
        out.push_str(text);
    }
    out
}

/// Whether the words of `pattern` occur at position `at` of `toks`.
pub(crate) fn starts_with(toks: &[Tok], at: usize, pattern: &[&str]) -> bool {
    pattern.len() <= toks.len().saturating_sub(at)
        && pattern
            .iter()
            .zip(&toks[at..])
            .all(|(p, t)| *p == t.lower.as_str())
}

/// The first of `patterns` that occurs anywhere in `toks`: (position, pattern length).
pub(crate) fn find_any<'a, P: AsRef<[&'a str]>>(
    toks: &[Tok],
    patterns: &[P],
) -> Option<(usize, usize)> {
    (0..toks.len()).find_map(|i| {
        patterns
            .iter()
            .find(|p| starts_with(toks, i, p.as_ref()))
            .map(|p| (i, p.as_ref().len()))
    })
}

/// Whether a word is one of `set`.
pub(crate) fn is(t: &Tok, set: &[&str]) -> bool {
    set.contains(&t.lower.as_str())
}
