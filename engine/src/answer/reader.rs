//! The sentence reader: when the documents state no relation the graph can use (an
//! abstract, not a guideline), the answer is read from the sentences most similar to the
//! question instead — the noun phrase that recurs in them, preferring one headed by the
//! kind of thing asked for ("Which factor …" → "factor XIa"). Sentences that support a
//! blocked edge or state a warning are never read, so gating still holds.

use std::collections::{BTreeMap, BTreeSet};

use crate::embed::{cosine, EmbedError, Embedder};
use crate::query::ParsedQuery;
use crate::text::{normalize_term, split_sentences, words, Span};

use super::Prepared;

/// Least mean similarity of a sentence to the keywords for it to be read.
const MIN_SENTENCE_SIMILARITY: f32 = 0.15;

/// Sentences read at most.
const TOP_SENTENCES: usize = 12;

/// A phrase read from the sentences, with the sentences it came from.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Reading {
    pub phrase: String,
    pub score: f32,
    pub sentences: Vec<Span>,
    /// Whether the phrase contains a word of the answer type ("factor XIa" for "Which
    /// factor …").
    pub typed: bool,
}

/// Every sentence of the documents, as the reader embeds them (re-gating embeds them
/// ahead, so a reading under any table needs no model).
pub(super) fn sentence_texts(prepared: &Prepared) -> Vec<String> {
    sentences(prepared)
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// Every sentence of the documents with its place, in document order.
pub(super) fn sentences(prepared: &Prepared) -> Vec<(Span, String)> {
    prepared
        .docs
        .iter()
        .enumerate()
        .flat_map(|(d, doc)| {
            split_sentences(&doc.text)
                .into_iter()
                .filter_map(move |range| {
                    let text = doc.text.get(range.clone())?.to_string();
                    Some((Span { doc: d, range }, text))
                })
        })
        .collect()
}

/// Reads the best phrase, or `None` when no sentence is similar enough.
pub(super) async fn read(
    prepared: &Prepared,
    query: &ParsedQuery,
    question: &str,
    excluded: &[Span],
    embedder: &mut impl Embedder,
) -> Result<Option<Reading>, EmbedError> {
    let (spans, mut texts): (Vec<Span>, Vec<String>) = sentences(prepared)
        .into_iter()
        .filter(|(span, _)| !excluded.iter().any(|e| e.overlaps(span)))
        .unzip();
    if texts.is_empty() || query.keywords.is_empty() {
        return Ok(None);
    }
    let n = texts.len();
    texts.extend(query.keywords.iter().cloned());
    let vectors = embedder.embed(&texts).await?;
    let (sentence_vecs, keyword_vecs) = vectors.split_at(n.min(vectors.len()));
    let mut scored: Vec<(usize, f32)> = sentence_vecs
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let s = keyword_vecs.iter().map(|k| cosine(v, k)).sum::<f32>()
                / keyword_vecs.len().max(1) as f32;
            (i, s)
        })
        .filter(|(_, s)| *s >= MIN_SENTENCE_SIMILARITY)
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(TOP_SENTENCES);

    let question_words: BTreeSet<String> = content(question);
    let type_words: BTreeSet<String> = query
        .answer_type
        .as_deref()
        .map(|t| {
            t.split(' ')
                .map(|w| crate::text::singular(&w.to_lowercase()))
                .filter(|w| w.len() > 2 && !matches!(w.as_str(), "the" | "what" | "which"))
                .collect()
        })
        .unwrap_or_default();
    let mut phrases: BTreeMap<String, Reading> = BTreeMap::new();
    for &(i, sentence_score) in &scored {
        for phrase in candidate_phrases(prepared, &texts[i]) {
            let words = content(&phrase);
            if words.is_empty() || words.iter().all(|w| question_words.contains(w)) {
                continue;
            }
            let typed = words
                .iter()
                .any(|w| type_words.contains(w) || type_words.contains(&crate::text::singular(w)));
            let bonus = if typed { 0.5 } else { 0.0 };
            let entry = phrases
                .entry(normalize_term(&phrase))
                .or_insert_with(|| Reading {
                    phrase: phrase.clone(),
                    score: 0.0,
                    sentences: Vec::new(),
                    typed,
                });
            if !entry.sentences.contains(&spans[i]) {
                entry.score += sentence_score + bonus;
                entry.sentences.push(spans[i].clone());
            }
        }
    }
    let best = phrases
        .into_values()
        .max_by(|a, b| a.score.total_cmp(&b.score).then(b.phrase.cmp(&a.phrase)));
    Ok(best)
}

/// Lower-case content words of a text (stop words and verbs dropped).
fn content(text: &str) -> BTreeSet<String> {
    crate::text::lower_words(text)
        .into_iter()
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

/// The phrases of a sentence that may answer: its noun phrases without their
/// determiners (at most [`MAX_PHRASE_WORDS`] words) when the linguistic base is loaded,
/// else [`chunks`].
fn candidate_phrases(prepared: &Prepared, sentence: &str) -> Vec<String> {
    let Some(language) = &prepared.language else {
        return chunks(sentence);
    };
    let analysis = language.analyse(sentence);
    analysis
        .phrases
        .iter()
        .filter(|p| p.core.len() <= MAX_PHRASE_WORDS)
        .map(|p| analysis.text(sentence, p.core.clone()).to_string())
        .collect()
}

/// Longest phrase the reader returns, in words.
const MAX_PHRASE_WORDS: usize = 6;

/// Noun-phrase-like chunks: runs of words between stop words, verbs and punctuation,
/// one to five words long.
fn chunks(sentence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let flush = |current: &mut Vec<&str>, out: &mut Vec<String>| {
        if !current.is_empty() && current.len() <= 5 {
            out.push(current.join(" "));
        }
        current.clear();
    };
    for w in words(sentence) {
        let text = w.text(sentence);
        let lower = text.to_lowercase();
        let boundary = !w.is_word
            || STOP.contains(&lower.as_str())
            || lower.chars().all(|c| c.is_ascii_digit())
            || text.ends_with(':');
        if boundary {
            flush(&mut current, &mut out);
        } else {
            current.push(text);
        }
    }
    flush(&mut current, &mut out);
    out
}

/// Function words, auxiliaries and common verbs: never part of an answer phrase.
const STOP: &[&str] = &[
    "a",
    "about",
    "after",
    "all",
    "also",
    "although",
    "an",
    "and",
    "any",
    "are",
    "as",
    "associated",
    "at",
    "background",
    "based",
    "be",
    "because",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "by",
    "called",
    "can",
    "cause",
    "caused",
    "causes",
    "conclusions",
    "could",
    "data",
    "decreased",
    "demonstrated",
    "developed",
    "did",
    "do",
    "does",
    "due",
    "during",
    "each",
    "effect",
    "effects",
    "either",
    "encoded",
    "encodes",
    "evaluated",
    "evidence",
    "find",
    "first",
    "for",
    "found",
    "from",
    "gene",
    "genes",
    "had",
    "has",
    "have",
    "he",
    "her",
    "here",
    "high",
    "his",
    "how",
    "however",
    "human",
    "humans",
    "i",
    "identified",
    "if",
    "in",
    "include",
    "includes",
    "including",
    "increased",
    "inhibited",
    "inhibits",
    "into",
    "involved",
    "is",
    "it",
    "its",
    "known",
    "less",
    "low",
    "many",
    "may",
    "methods",
    "might",
    "more",
    "most",
    "must",
    "mutation",
    "mutations",
    "named",
    "new",
    "no",
    "not",
    "novel",
    "objective",
    "objectives",
    "observed",
    "of",
    "on",
    "one",
    "only",
    "or",
    "other",
    "our",
    "over",
    "patients",
    "protein",
    "proteins",
    "related",
    "reported",
    "results",
    "role",
    "second",
    "several",
    "she",
    "should",
    "show",
    "showed",
    "shown",
    "shows",
    "so",
    "some",
    "studies",
    "study",
    "such",
    "suggest",
    "suggested",
    "suggests",
    "termed",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "therefore",
    "these",
    "they",
    "this",
    "those",
    "three",
    "through",
    "thus",
    "to",
    "two",
    "under",
    "us",
    "use",
    "used",
    "using",
    "very",
    "via",
    "was",
    "we",
    "well",
    "were",
    "what",
    "when",
    "where",
    "whereas",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "you",
    "your",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_split_at_stop_words_and_punctuation() {
        assert_eq!(
            chunks("Milvexian is a small molecule inhibitor of factor XIa (FXIa)."),
            [
                "Milvexian",
                "small molecule inhibitor",
                "factor XIa",
                "FXIa"
            ]
        );
        assert!(chunks("").is_empty());
        assert!(chunks("— … ;;").is_empty());
    }
}
