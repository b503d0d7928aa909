//! Text embeddings behind one trait: entry-node matching, path ranking (CGR Eq. 2) and
//! entity clustering all go through [`Embedder`], so the neural sentence embedder and
//! the lexical one are interchangeable.
//!
//! [`LexicalEmbedder`] needs no model: hashed word and character-trigram features,
//! L2-normalised, so that cosine similarity measures shared words and word pieces
//! ("antidepressant" / "antidepressants", "hepatic" / "hepatically"). It is the
//! stand-in until a neural embedder is loaded, and the fallback when none can be.

mod cluster;
mod memo;

pub use cluster::upgma;
pub use memo::Memo;

use std::future::Future;

use crate::text::{singular, words};

/// Why texts could not be embedded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmbedError {
    #[error("the embedding device failed: {0}")]
    Device(String),
    #[error("the embedder is not ready: {0}")]
    NotReady(String),
}

/// Turns texts into unit vectors whose dot product is their similarity. Asynchronous
/// because a GPU embedder can only read its results back asynchronously in the browser.
pub trait Embedder {
    /// A short name for reports ("lexical", "all-MiniLM-L6-v2").
    fn name(&self) -> &str;

    /// One vector per text, in order; every vector has the same length.
    fn embed(
        &mut self,
        texts: &[String],
    ) -> impl Future<Output = Result<Vec<Vec<f32>>, EmbedError>>;
}

/// A borrowed embedder embeds as its owner does, so one embedder (and what its memo
/// remembers) can serve many runs in turn.
impl<E: Embedder + ?Sized> Embedder for &mut E {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn embed(
        &mut self,
        texts: &[String],
    ) -> impl Future<Output = Result<Vec<Vec<f32>>, EmbedError>> {
        (**self).embed(texts)
    }
}

/// Hashed bag of words and character trigrams.
#[derive(Debug, Clone)]
pub struct LexicalEmbedder {
    dim: usize,
}

impl Default for LexicalEmbedder {
    fn default() -> Self {
        LexicalEmbedder { dim: 2048 }
    }
}

impl LexicalEmbedder {
    /// The vector of one text.
    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; self.dim];
        for w in words(text).iter().filter(|w| w.is_word) {
            let lower = w.text(text).to_lowercase();
            for piece in lower.split(['-', '/']).filter(|p| !p.is_empty()) {
                if STOP.contains(&piece) {
                    continue;
                }
                let word = singular(piece);
                v[hash(word.as_bytes(), 0) % self.dim] += 1.0;
                let padded: Vec<char> = format!("<{word}>").chars().collect();
                for tri in padded.windows(3) {
                    let s: String = tri.iter().collect();
                    v[hash(s.as_bytes(), 1) % self.dim] += 0.25;
                }
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            for x in &mut v {
                *x /= norm;
            }
        }
        v
    }
}

impl Embedder for LexicalEmbedder {
    fn name(&self) -> &str {
        "lexical"
    }

    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| self.vector(t)).collect())
    }
}

/// Cosine similarity of two vectors (0 when either is zero or lengths differ).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// FNV-1a with a seed, as an index.
fn hash(bytes: &[u8], seed: u64) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h as usize
}

const STOP: &[&str] = &[
    "a", "an", "the", "of", "in", "for", "to", "and", "or", "with", "is", "are", "be", "by", "on",
    "at", "as", "which", "what", "that", "this", "it",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_words_are_close_and_unrelated_far() {
        let e = LexicalEmbedder::default();
        let a = e.vector("antidepressants for depression");
        let b = e.vector("an antidepressant");
        let c = e.vector("hip fracture surgery");
        assert!(cosine(&a, &b) > 0.5, "{}", cosine(&a, &b));
        assert!(cosine(&a, &c) < 0.2, "{}", cosine(&a, &c));
        assert!((cosine(&a, &a) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn empty_and_odd_text_give_zero_vectors_not_panics() {
        let e = LexicalEmbedder::default();
        assert!(e.vector("").iter().all(|x| *x == 0.0));
        assert!(e.vector("…—🙂").iter().all(|x| *x == 0.0));
        assert_eq!(cosine(&e.vector(""), &e.vector("x")), 0.0);
    }
}
