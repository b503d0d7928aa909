//! The linguistic base every reader shares: part-of-speech tags ([`Tagger`]), noun-phrase
//! chunks ([`noun_phrases`]) and the drug lexicon ([`DrugLexicon`]). All of it is data
//! built from pinned, openly licensed packages by `scripts/build_lexicons.py` and loaded
//! from bytes ([`Language::from_bytes`]), natively and in the browser alike, so clause
//! structure and candidate spans are read from tags, not from word lists.

mod chunks;
mod drugs;
pub mod stems;
mod tagger;

use std::fmt;

pub use chunks::{noun_phrases, NounPhrase};
pub use drugs::{Drug, DrugLexicon, Kinds, Sense, VACCINES};
pub use tagger::{Tag, Tagger};

use crate::text::{words, Word};

/// The language resources, loaded once and shared by every question.
#[derive(Debug, Clone)]
pub struct Language {
    pub tagger: Tagger,
    pub drugs: DrugLexicon,
}

/// A text read with the language resources: its tokens, their tags and its noun phrases.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub words: Vec<Word>,
    pub tags: Vec<Tag>,
    pub phrases: Vec<NounPhrase>,
}

impl Analysis {
    /// Its tokens in `source`, lower-cased, one per entry of `words`.
    pub fn lower(&self, source: &str) -> Vec<String> {
        self.words
            .iter()
            .map(|w| w.text(source).to_lowercase())
            .collect()
    }

    /// The text of tokens `range` (indices into `words`) in `source`, as written.
    pub fn text<'a>(&self, source: &'a str, range: std::ops::Range<usize>) -> &'a str {
        match (
            self.words.get(range.start),
            range.end.checked_sub(1).and_then(|e| self.words.get(e)),
        ) {
            (Some(first), Some(last)) if range.start < range.end => {
                &source[first.span.start..last.span.end]
            }
            _ => "",
        }
    }
}

impl Language {
    /// Loads the tagger's data and the drug lexicon (the two files
    /// `scripts/build_lexicons.py` writes to `models/lexicons/`).
    pub fn from_bytes(tagger: &[u8], drugs: &[u8]) -> Result<Language, LanguageError> {
        Ok(Language {
            tagger: Tagger::from_bytes(tagger)?,
            drugs: DrugLexicon::from_bytes(drugs)?,
        })
    }

    /// Tokens, tags and noun phrases of one sentence (or any short text).
    pub fn analyse(&self, text: &str) -> Analysis {
        let words = self.unglued(text, words(text));
        let tokens: Vec<&str> = words.iter().map(|w| w.text(text)).collect();
        let tags = self.tagger.tag(&tokens);
        let phrases = noun_phrases(&tags);
        Analysis {
            words,
            tags,
            phrases,
        }
    }

    /// `words` (tokens of `text`) with the words a copied table glued together taken
    /// apart: a page that drops the boundary between two cells runs a word into the
    /// capitalised word or the number after it ("MefloquineOne tablet", "returnTake with
    /// milk", "Doxycycline100 mg"). A lower-case run of at least
    /// [`MIN_GLUED_LETTERS`] letters followed by a capital and two lower-case letters,
    /// or by two digits, is two words, unless the drug lexicon knows the whole token (a
    /// brand written in camel case). Short runs stay whole: "EpiPen", "eGFR", "HbA1c",
    /// "CrCl", "GeneXpert".
    fn unglued(&self, text: &str, words: Vec<Word>) -> Vec<Word> {
        let mut out = Vec::with_capacity(words.len());
        for word in words {
            let token = word.text(text);
            let cuts = glue_points(token);
            if !word.is_word || cuts.is_empty() || self.drugs.lookup(token).is_some() {
                out.push(word);
                continue;
            }
            let mut start = word.span.start;
            for cut in cuts {
                out.push(Word {
                    span: start..word.span.start + cut,
                    is_word: true,
                });
                start = word.span.start + cut;
            }
            out.push(Word {
                span: start..word.span.end,
                is_word: true,
            });
        }
        out
    }
}

/// Fewest lower-case letters before a point where [`Language::unglued`] takes a token
/// apart.
const MIN_GLUED_LETTERS: usize = 4;

/// The byte offsets in `token` where a glued word ends (see [`Language::unglued`]).
fn glue_points(token: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    let mut cuts = Vec::new();
    let mut lower_run = 0;
    for (k, &(at, c)) in chars.iter().enumerate() {
        let next = |n: usize| chars.get(k + n).map(|&(_, c)| c);
        let capital_word = c.is_ascii_uppercase()
            && next(1).is_some_and(|c| c.is_ascii_lowercase())
            && next(2).is_some_and(|c| c.is_ascii_lowercase());
        let number = c.is_ascii_digit() && next(1).is_some_and(|c| c.is_ascii_digit());
        if lower_run >= MIN_GLUED_LETTERS && (capital_word || number) {
            cuts.push(at);
        }
        lower_run = if c.is_ascii_lowercase() {
            lower_run + 1
        } else {
            0
        };
    }
    cuts
}

/// One line of a data file in sections (`[name]` lines open them, `#` lines are
/// comments): the section it is in, its number from 1, and its text.
struct DataLine<'a> {
    section: &'static str,
    number: usize,
    text: &'a str,
}

/// The lines of the data file `what` whose sections are `sections`; text that is not
/// UTF-8 or a line before the first section is an error naming it.
fn data_lines<'a>(
    bytes: &'a [u8],
    what: &'static str,
    sections: &[&'static str],
) -> Result<Vec<DataLine<'a>>, LanguageError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| LanguageError::new(what, 0, format!("not UTF-8: {e}")))?;
    let mut section = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(&name) = sections.iter().find(|&&name| name == line) {
            section = Some(name);
            continue;
        }
        let Some(section) = section else {
            return Err(LanguageError::new(
                what,
                i + 1,
                "a line before the first section".into(),
            ));
        };
        out.push(DataLine {
            section,
            number: i + 1,
            text: line,
        });
    }
    Ok(out)
}

/// Language data that cannot be read, with the line at fault (0: the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageError {
    pub what: &'static str,
    pub line: usize,
    pub reason: String,
}

impl LanguageError {
    fn new(what: &'static str, line: usize, reason: String) -> LanguageError {
        LanguageError { what, line, reason }
    }
}

impl fmt::Display for LanguageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.what, self.reason),
            n => write!(f, "{}, line {n}: {}", self.what, self.reason),
        }
    }
}

impl std::error::Error for LanguageError {}

#[cfg(test)]
pub(crate) mod tests;
