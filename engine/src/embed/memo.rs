//! [`Memo`]: an [`Embedder`] that remembers every vector it has produced, so that a
//! text is embedded once per document set however many questions, re-gatings or
//! re-rankings ask for it. The app also seeds it from its persistent cache.

use std::collections::HashMap;

use super::{EmbedError, Embedder};

/// Remembers the vectors of `inner` by text. Only the texts it has not seen reach the
/// model, in one batch per call, in their first order.
#[derive(Debug, Clone)]
pub struct Memo<E> {
    inner: E,
    vectors: HashMap<String, Vec<f32>>,
    computed: usize,
}

impl<E: Embedder> Memo<E> {
    pub fn new(inner: E) -> Self {
        Memo {
            inner,
            vectors: HashMap::new(),
            computed: 0,
        }
    }

    /// How many texts the model has embedded through this memo so far: the difference
    /// of two readings is the model work a step caused.
    pub fn computed(&self) -> usize {
        self.computed
    }

    /// How many vectors are remembered.
    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// The remembered vector of `text`, if any.
    pub fn get(&self, text: &str) -> Option<&[f32]> {
        self.vectors.get(text).map(Vec::as_slice)
    }

    /// Remembers a vector produced elsewhere (a persistent cache) for `text`.
    pub fn insert(&mut self, text: String, vector: Vec<f32>) {
        self.vectors.insert(text, vector);
    }

    /// Every remembered text with its vector (for persisting them).
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[f32])> {
        self.vectors.iter().map(|(t, v)| (t.as_str(), v.as_slice()))
    }

    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<E: Embedder> Embedder for Memo<E> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut missing: Vec<String> = Vec::new();
        for text in texts {
            if !self.vectors.contains_key(text) && !missing.contains(text) {
                missing.push(text.clone());
            }
        }
        if !missing.is_empty() {
            let vectors = self.inner.embed(&missing).await?;
            if vectors.len() != missing.len() {
                return Err(EmbedError::Device(format!(
                    "{} vectors for {} texts",
                    vectors.len(),
                    missing.len()
                )));
            }
            self.computed += missing.len();
            self.vectors.extend(missing.into_iter().zip(vectors));
        }
        Ok(texts
            .iter()
            .map(|t| self.vectors.get(t).cloned().unwrap_or_default())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::LexicalEmbedder;

    /// Counts the texts that reach it.
    struct Counting {
        seen: Vec<String>,
    }

    impl Embedder for Counting {
        fn name(&self) -> &str {
            "counting"
        }

        async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
            self.seen.extend(texts.iter().cloned());
            Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
        }
    }

    fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn each_text_reaches_the_model_once() {
        let mut memo = Memo::new(Counting { seen: Vec::new() });
        let first = pollster::block_on(memo.embed(&strings(&["a", "bb", "a"]))).unwrap();
        assert_eq!(first, vec![vec![1.0], vec![2.0], vec![1.0]]);
        let second = pollster::block_on(memo.embed(&strings(&["ccc", "bb"]))).unwrap();
        assert_eq!(second, vec![vec![3.0], vec![2.0]]);
        assert_eq!(memo.inner().seen, strings(&["a", "bb", "ccc"]));
        assert_eq!(memo.computed(), 3);
        assert_eq!(memo.len(), 3);
    }

    #[test]
    fn seeded_vectors_are_used_as_they_are() {
        let mut memo = Memo::new(LexicalEmbedder::default());
        memo.insert("seeded".into(), vec![0.5, 0.5]);
        let out = pollster::block_on(memo.embed(&strings(&["seeded"]))).unwrap();
        assert_eq!(out, vec![vec![0.5, 0.5]]);
        assert_eq!(memo.computed(), 0);
    }

    #[test]
    fn a_short_reply_is_an_error_not_a_misalignment() {
        struct Short;
        impl Embedder for Short {
            fn name(&self) -> &str {
                "short"
            }
            async fn embed(&mut self, _: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
                Ok(vec![vec![1.0]])
            }
        }
        let mut memo = Memo::new(Short);
        let out = pollster::block_on(memo.embed(&strings(&["a", "b"])));
        assert!(matches!(out, Err(EmbedError::Device(_))));
        assert!(memo.is_empty());
    }
}
