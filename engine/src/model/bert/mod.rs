//! BERT-family sentence embedders: all-MiniLM-L6-v2 as shipped, and any BERT encoder
//! with absolute positions and exact GELU (bge-small-en-v1.5 with [`Pooling::Cls`], …)
//! from its `config.json`, `model.safetensors` and `tokenizer.json` bytes.
//!
//! [`BertEmbedder`] implements the engine's [`Embedder`]: texts are tokenized, sorted
//! by length into batches (less padding), encoded with an attention mask and pooled;
//! vectors of texts already embedded in this run are reused.

mod config;
mod encoder;
mod tokenize;

pub use crate::model::linear::Precision;
pub use config::{BertConfig, Pooling};
pub use encoder::Encoder;
pub use tokenize::{BertTokenizer, Encoded};

use std::collections::HashMap;

use crate::compute::Compute;
use crate::embed::{EmbedError, Embedder};
use crate::model::weights::Weights;
use crate::model::ModelError;

/// The three files of a model, as bytes.
#[derive(Debug, Clone, Copy)]
pub struct ModelFiles<'a> {
    pub config: &'a [u8],
    pub weights: &'a [u8],
    pub tokenizer: &'a [u8],
}

/// One text's vector and whether the text was cut to the model's length.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedding {
    pub vector: Vec<f32>,
    pub truncated: bool,
}

/// A loaded sentence embedder.
pub struct BertEmbedder {
    name: String,
    encoder: Encoder,
    tokenizer: BertTokenizer,
    pooling: Pooling,
    batch_size: usize,
    cache: HashMap<String, Embedding>,
}

impl BertEmbedder {
    /// Loads a model onto `compute`'s device with f32 weights.
    pub fn load(
        name: impl Into<String>,
        files: ModelFiles<'_>,
        pooling: Pooling,
        compute: &Compute,
    ) -> Result<Self, ModelError> {
        Self::load_with(name, files, pooling, Precision::F32, compute)
    }

    /// Loads a model with its linear weights held at `precision`.
    pub fn load_with(
        name: impl Into<String>,
        files: ModelFiles<'_>,
        pooling: Pooling,
        precision: Precision,
        compute: &Compute,
    ) -> Result<Self, ModelError> {
        let config = BertConfig::from_json(files.config)?;
        let tokenizer = BertTokenizer::from_json(files.tokenizer, config.max_position_embeddings)?;
        if tokenizer.vocab_size() > config.vocab_size {
            return Err(ModelError::Tokenizer(format!(
                "the tokenizer has {} tokens but the model only {}",
                tokenizer.vocab_size(),
                config.vocab_size
            )));
        }
        let weights = Weights::from_safetensors(files.weights)?;
        let encoder = Encoder::load(&config, &weights, precision, compute.device())?;
        Ok(BertEmbedder {
            name: name.into(),
            encoder,
            tokenizer,
            pooling,
            batch_size: 32,
            cache: HashMap::new(),
        })
    }

    /// Texts per forward pass (at least 1).
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.set_batch_size(batch_size);
        self
    }

    pub fn set_batch_size(&mut self, batch_size: usize) {
        self.batch_size = batch_size.max(1);
    }

    /// Forgets the vectors of texts embedded so far.
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    pub fn config(&self) -> &BertConfig {
        self.encoder.config()
    }

    pub fn tokenize(&self, text: &str) -> Result<Encoded, ModelError> {
        self.tokenizer.encode(text)
    }

    /// Embeddings of `texts`, in order, with truncation flags.
    pub async fn embed_texts(&mut self, texts: &[String]) -> Result<Vec<Embedding>, ModelError> {
        let mut todo: Vec<(usize, Encoded)> = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for text in texts {
            if self.cache.contains_key(text) || seen.contains_key(text.as_str()) {
                continue;
            }
            seen.insert(text.as_str(), todo.len());
            todo.push((todo.len(), self.tokenizer.encode(text)?));
        }
        // Similar lengths together: less padding per batch.
        let mut order: Vec<usize> = (0..todo.len()).collect();
        order.sort_by_key(|&i| todo[i].1.ids.len());
        let mut vectors: Vec<Option<Vec<f32>>> = vec![None; todo.len()];
        for chunk in order.chunks(self.batch_size) {
            let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| todo[i].1.ids.clone()).collect();
            let out = self.encoder.embed(&batch, self.pooling).await?;
            for (&i, v) in chunk.iter().zip(out) {
                vectors[i] = Some(v);
            }
        }
        for (text, &i) in &seen {
            if let Some(vector) = vectors[i].take() {
                self.cache.insert(
                    (*text).to_string(),
                    Embedding {
                        vector,
                        truncated: todo[i].1.truncated,
                    },
                );
            }
        }
        texts
            .iter()
            .map(|t| {
                self.cache
                    .get(t)
                    .cloned()
                    .ok_or_else(|| ModelError::Device("an embedding went missing".into()))
            })
            .collect()
    }
}

impl Embedder for BertEmbedder {
    fn name(&self) -> &str {
        &self.name
    }

    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let out = self
            .embed_texts(texts)
            .await
            .map_err(|e| EmbedError::Device(e.to_string()))?;
        Ok(out.into_iter().map(|e| e.vector).collect())
    }
}
