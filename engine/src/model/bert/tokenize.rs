//! The model's own `tokenizer.json` through the `tokenizers` crate, with its fixed
//! padding turned off (batches are padded by the encoder, and attention and pooling use
//! the mask) and truncation done here, so that the caller learns when text was cut.

use tokenizers::Tokenizer;

use crate::model::ModelError;

/// Token ids of one text and whether it was cut to fit the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub truncated: bool,
}

/// A WordPiece (or other) tokenizer read from `tokenizer.json`.
pub struct BertTokenizer {
    inner: Tokenizer,
    max_tokens: usize,
}

impl BertTokenizer {
    /// Reads `tokenizer.json`; texts longer than `max_tokens` tokens (with the special
    /// tokens) are truncated, keeping the final separator.
    pub fn from_json(bytes: &[u8], max_tokens: usize) -> Result<Self, ModelError> {
        let mut inner =
            Tokenizer::from_bytes(bytes).map_err(|e| ModelError::Tokenizer(e.to_string()))?;
        inner.with_padding(None);
        inner
            .with_truncation(None)
            .map_err(|e| ModelError::Tokenizer(e.to_string()))?;
        if max_tokens < 2 {
            return Err(ModelError::Tokenizer(format!(
                "a limit of {max_tokens} tokens leaves no room for text"
            )));
        }
        Ok(BertTokenizer { inner, max_tokens })
    }

    /// The ids of `text`, with the special tokens the tokenizer adds ([CLS] … [SEP]).
    pub fn encode(&self, text: &str) -> Result<Encoded, ModelError> {
        let encoding = self
            .inner
            .encode(text, true)
            .map_err(|e| ModelError::Tokenizer(e.to_string()))?;
        let mut ids = encoding.get_ids().to_vec();
        let truncated = ids.len() > self.max_tokens;
        if truncated {
            let last = ids.last().copied().unwrap_or_default();
            ids.truncate(self.max_tokens - 1);
            ids.push(last);
        }
        Ok(Encoded { ids, truncated })
    }

    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }
}
