//! Documents, sentences and words, with byte spans back into the original text so that
//! every extracted fact can cite where it came from.

mod abbreviations;
mod sentences;
mod words;

pub use abbreviations::{abbreviations, initialisms, long_form_start};
pub use sentences::{asking, asking_start, split_sentences};
pub use words::{
    lower_words, normalize_term, separates_thousands, singular, spelled_ordinals, uncontracted,
    word_texts, words, Word,
};

use std::ops::Range;

/// A document the user supplied: an id they recognise and its text, kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Shown in citations (a file name, "doc 1", …).
    pub id: String,
    pub text: String,
}

impl Document {
    pub fn new(id: impl Into<String>, text: impl Into<String>) -> Self {
        Document {
            id: id.into(),
            text: text.into(),
        }
    }
}

/// One sentence of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// Index of the document in the set the graph was built from.
    pub doc: usize,
    /// Position of the sentence in its document.
    pub index: usize,
    /// Byte range of the sentence in the document's text.
    pub span: Range<usize>,
}

/// A place in the documents: document index and byte range in its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub doc: usize,
    pub range: Range<usize>,
}

impl Span {
    /// Whether the two spans share a byte of the same document.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.doc == other.doc
            && self.range.start < other.range.end
            && other.range.start < self.range.end
    }
}
