//! The part of a Hugging Face `config.json` a BERT-family encoder needs, checked so that
//! a configuration this code cannot serve is refused with a reason.

use serde::Deserialize;

use crate::model::ModelError;

/// How token vectors become one sentence vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// Mean over real (unpadded) tokens: sentence-transformers' MiniLM models.
    Mean,
    /// The first ([CLS]) token: the bge family.
    Cls,
}

/// Encoder hyper-parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
}

#[derive(Deserialize)]
struct Raw {
    model_type: Option<String>,
    vocab_size: usize,
    hidden_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    intermediate_size: usize,
    max_position_embeddings: usize,
    #[serde(default = "two")]
    type_vocab_size: usize,
    #[serde(default = "eps")]
    layer_norm_eps: f64,
    #[serde(default = "gelu")]
    hidden_act: String,
    #[serde(default = "absolute")]
    position_embedding_type: String,
}

fn two() -> usize {
    2
}
fn eps() -> f64 {
    1e-12
}
fn gelu() -> String {
    "gelu".into()
}
fn absolute() -> String {
    "absolute".into()
}

/// Limits that keep a hostile or mistaken config from asking for absurd allocations.
const MAX_HIDDEN: usize = 8192;
const MAX_LAYERS: usize = 128;
const MAX_VOCAB: usize = 1_000_000;
const MAX_POSITIONS: usize = 65_536;

impl BertConfig {
    /// Parses and checks `config.json`.
    pub fn from_json(bytes: &[u8]) -> Result<Self, ModelError> {
        let raw: Raw = serde_json::from_slice(bytes)
            .map_err(|e| ModelError::Config(format!("config.json: {e}")))?;
        if let Some(t) = raw.model_type.as_deref() {
            if !matches!(t, "bert" | "roberta" | "xlm-roberta" | "camembert") {
                return Err(ModelError::Config(format!(
                    "model_type `{t}` is not a BERT-family encoder"
                )));
            }
            if t != "bert" {
                return Err(ModelError::Config(format!(
                    "model_type `{t}` uses offset position ids, which this encoder does not implement"
                )));
            }
        }
        if raw.hidden_act != "gelu" {
            return Err(ModelError::Config(format!(
                "activation `{}` is not supported (only exact `gelu`)",
                raw.hidden_act
            )));
        }
        if raw.position_embedding_type != "absolute" {
            return Err(ModelError::Config(format!(
                "position embeddings `{}` are not supported (only `absolute`)",
                raw.position_embedding_type
            )));
        }
        let c = BertConfig {
            vocab_size: raw.vocab_size,
            hidden_size: raw.hidden_size,
            num_hidden_layers: raw.num_hidden_layers,
            num_attention_heads: raw.num_attention_heads,
            intermediate_size: raw.intermediate_size,
            max_position_embeddings: raw.max_position_embeddings,
            type_vocab_size: raw.type_vocab_size,
            layer_norm_eps: raw.layer_norm_eps,
        };
        let sane = c.hidden_size > 0
            && c.hidden_size <= MAX_HIDDEN
            && c.num_attention_heads > 0
            && c.hidden_size.is_multiple_of(c.num_attention_heads)
            && c.num_hidden_layers > 0
            && c.num_hidden_layers <= MAX_LAYERS
            && c.vocab_size > 0
            && c.vocab_size <= MAX_VOCAB
            && c.max_position_embeddings > 2
            && c.max_position_embeddings <= MAX_POSITIONS
            && c.intermediate_size > 0
            && c.intermediate_size <= 8 * MAX_HIDDEN
            && c.type_vocab_size > 0
            && c.layer_norm_eps.is_finite()
            && c.layer_norm_eps > 0.0;
        if !sane {
            return Err(ModelError::Config(format!("inconsistent sizes: {c:?}")));
        }
        Ok(c)
    }

    pub fn head_dim(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINILM: &str = r#"{"hidden_act":"gelu","hidden_size":384,"intermediate_size":1536,
        "layer_norm_eps":1e-12,"max_position_embeddings":512,"model_type":"bert",
        "num_attention_heads":12,"num_hidden_layers":6,"type_vocab_size":2,"vocab_size":30522}"#;

    #[test]
    fn reads_minilm() {
        let c = BertConfig::from_json(MINILM.as_bytes()).unwrap();
        assert_eq!(
            (c.hidden_size, c.num_hidden_layers, c.head_dim()),
            (384, 6, 32)
        );
    }

    #[test]
    fn refuses_what_it_cannot_serve() {
        for (from, to) in [
            ("\"gelu\"", "\"relu\""),
            ("\"bert\"", "\"gpt2\""),
            ("\"bert\"", "\"roberta\""),
            ("\"num_attention_heads\":12", "\"num_attention_heads\":7"),
            ("\"hidden_size\":384", "\"hidden_size\":0"),
            ("\"vocab_size\":30522", "\"vocab_size\":99999999"),
        ] {
            let text = MINILM.replace(from, to);
            assert!(BertConfig::from_json(text.as_bytes()).is_err(), "{to}");
        }
        assert!(BertConfig::from_json(b"{").is_err());
        assert!(BertConfig::from_json(b"").is_err());
    }
}
