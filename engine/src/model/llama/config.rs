//! Hyper-parameters of a Llama-family decoder, read from a GGUF file's
//! `<architecture>.*` keys.

use super::super::gguf::Gguf;
use super::LlmError;

/// Which family the file declares; the two differ in RoPE layout and biases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    /// Llama (SmolLM2 and most others): the GGUF converter permutes the query and key
    /// weights so that RoPE rotates adjacent pairs of each head.
    Llama,
    /// Qwen2: RoPE rotates the two halves of each head; query, key and value carry
    /// biases.
    Qwen2,
}

impl Architecture {
    pub fn name(self) -> &'static str {
        match self {
            Architecture::Llama => "llama",
            Architecture::Qwen2 => "qwen2",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LlamaConfig {
    pub architecture: Architecture,
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_layers: usize,
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    pub context_length: usize,
    pub rope_theta: f32,
    pub rms_norm_eps: f32,
}

impl LlamaConfig {
    /// Reads and checks the hyper-parameters; the vocabulary size comes from the
    /// tokenizer when the file does not state it.
    pub fn from_gguf(file: &Gguf) -> Result<Self, LlmError> {
        let arch = file.str("general.architecture")?;
        let architecture = match arch {
            "llama" => Architecture::Llama,
            "qwen2" => Architecture::Qwen2,
            other => {
                return Err(LlmError::Unsupported(format!(
                    "architecture `{other}` (llama and qwen2 are supported)"
                )))
            }
        };
        let key = |k: &str| format!("{arch}.{k}");
        let int = |k: &str| -> Result<usize, LlmError> {
            let v = file.u64(&key(k))?;
            usize::try_from(v).map_err(|_| LlmError::Config(format!("{} is {v}", key(k))))
        };
        let hidden_size = int("embedding_length")?;
        let num_heads = int("attention.head_count")?;
        let num_kv_heads = match file.get(&key("attention.head_count_kv")) {
            Some(_) => int("attention.head_count_kv")?,
            None => num_heads,
        };
        let vocab_size = match file.get(&key("vocab_size")) {
            Some(_) => int("vocab_size")?,
            None => file.strings("tokenizer.ggml.tokens")?.len(),
        };
        let rope_theta = match file.get(&key("rope.freq_base")) {
            Some(_) => file.f64(&key("rope.freq_base"))? as f32,
            None => 10_000.0,
        };
        let rms_norm_eps = file.f64(&key("attention.layer_norm_rms_epsilon"))? as f32;
        let config = LlamaConfig {
            architecture,
            vocab_size,
            hidden_size,
            intermediate_size: int("feed_forward_length")?,
            num_layers: int("block_count")?,
            num_heads,
            num_kv_heads,
            head_dim: hidden_size.checked_div(num_heads).unwrap_or(0),
            context_length: int("context_length")?,
            rope_theta,
            rms_norm_eps,
        };
        config.validate()?;
        if let Some(v) = file.get(&key("rope.dimension_count")) {
            if v.as_u64() != Some(config.head_dim as u64) {
                return Err(LlmError::Unsupported(format!(
                    "partial rotary embeddings ({} of {} dimensions)",
                    v.as_u64().unwrap_or(0),
                    config.head_dim
                )));
            }
        }
        Ok(config)
    }

    fn validate(&self) -> Result<(), LlmError> {
        let bad = |what: String| Err(LlmError::Config(what));
        if self.num_heads == 0 || self.num_kv_heads == 0 || self.num_layers == 0 {
            return bad(format!(
                "{} heads, {} key/value heads, {} layers",
                self.num_heads, self.num_kv_heads, self.num_layers
            ));
        }
        if self.hidden_size == 0 || !self.hidden_size.is_multiple_of(self.num_heads) {
            return bad(format!(
                "hidden size {} is not a multiple of {} heads",
                self.hidden_size, self.num_heads
            ));
        }
        if !self.num_heads.is_multiple_of(self.num_kv_heads) {
            return bad(format!(
                "{} heads cannot share {} key/value heads",
                self.num_heads, self.num_kv_heads
            ));
        }
        if !self.head_dim.is_multiple_of(2) {
            return bad(format!("head size {} is odd", self.head_dim));
        }
        if self.vocab_size == 0 || self.intermediate_size == 0 || self.context_length == 0 {
            return bad("an empty vocabulary, feed-forward or context".to_string());
        }
        if !(self.rms_norm_eps > 0.0 && self.rope_theta > 0.0) {
            return bad(format!(
                "RMS epsilon {} and RoPE base {}",
                self.rms_norm_eps, self.rope_theta
            ));
        }
        Ok(())
    }

    /// Query heads per key/value head.
    pub fn group_size(&self) -> usize {
        self.num_heads / self.num_kv_heads
    }
}
