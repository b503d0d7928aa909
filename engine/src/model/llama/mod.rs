//! Llama-family decoders (SmolLM2, Llama, Qwen2) from one GGUF file: the tokenizer and
//! chat template it carries, the network on burn, and the ways the engine uses a small
//! model — token-by-token generation, scoring candidate continuations by
//! log-likelihood.
//!
//! - [`config`]: hyper-parameters from the file's `<architecture>.*` keys.
//! - [`tokenizer`]: byte-level BPE rebuilt from the file, chat template, streamed text.
//! - [`network`]: the forward pass with its key/value cache.
//! - [`sample`]: greedy and seeded temperature / top-p choice of the next token.

pub mod config;
pub mod network;
pub mod sample;
pub mod tokenizer;

use std::ops::ControlFlow;

use burn::tensor::Tensor;

pub use config::{Architecture, LlamaConfig};
pub use network::KvCache;
pub use sample::Sampling;
pub use tokenizer::{GgufTokenizer, Message, TextStream};

use super::gguf::{Gguf, GgufError};
use super::linear::Precision;
use crate::compute::{Backend, Compute};
use crate::llm::{LanguageModel, Matcher, Shape};

/// Why a language model could not be loaded or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    #[error(transparent)]
    File(#[from] GgufError),
    #[error("this model cannot be served: {0}")]
    Unsupported(String),
    #[error("the model configuration is inconsistent: {0}")]
    Config(String),
    #[error("tensor `{name}` has shape {found:?}, expected {expected:?}")]
    Shape {
        name: String,
        found: Vec<usize>,
        expected: Vec<usize>,
    },
    #[error("the tokenizer cannot be used: {0}")]
    Tokenizer(String),
    #[error("the chat template failed: {0}")]
    Template(String),
    #[error("{needed} tokens do not fit the model's context of {context}")]
    Context { needed: usize, context: usize },
    #[error("token id {0} is outside the vocabulary")]
    Token(u32),
    #[error("the prompt is empty")]
    EmptyPrompt,
    #[error("the device failed: {0}")]
    Device(String),
    #[error("the reply did not complete its JSON shape within {0} tokens")]
    ShapeUnfinished(usize),
    #[error("the shaped reply is not JSON: {0}")]
    NotJson(String),
    #[error("no token of the vocabulary continues the JSON shape after `{0}`")]
    ShapeStuck(String),
}

/// The start-up self-check's verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfCheck {
    /// Largest difference from the host's product, relative to its largest value.
    pub error: f32,
    /// Whether the 8-bit weights disagreed and f32 weights were loaded instead.
    pub fell_back: bool,
}

/// 8-bit weights hold the file's integers exactly, so a right kernel is within float
/// rounding (measured: 7e-7); a wrong kernel is far outside it.
pub const SELF_CHECK_TOLERANCE: f32 = 0.05;

/// The longest context served, whatever the file allows: the rotary tables and the
/// key/value cache of a long-context file would otherwise take memory no browser tab has.
pub const MAX_CONTEXT: usize = 8192;

/// What generation should do.
#[derive(Debug, Clone, PartialEq)]
pub struct Generate {
    pub max_tokens: usize,
    pub sampling: Sampling,
}

impl Default for Generate {
    fn default() -> Self {
        Generate {
            max_tokens: 128,
            sampling: Sampling::Greedy,
        }
    }
}

/// Why generation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The model produced an end-of-turn or end-of-text token.
    EndToken,
    /// `max_tokens` were produced.
    Length,
    /// The caller asked to stop.
    Cancelled,
    /// The model's context is full: what was generated so far is kept.
    Context,
}

/// The outcome of a generation.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    pub tokens: Vec<u32>,
    pub text: String,
    pub stop: Stop,
}

/// A loaded model: tokenizer and network on one device.
pub struct LlamaModel {
    pub name: String,
    pub tokenizer: GgufTokenizer,
    network: network::Network,
    /// Tokens that end a reply: the file's EOS and the chat end-of-turn markers.
    stops: Vec<u32>,
    precision: Precision,
}

impl LlamaModel {
    /// Reads a GGUF file's tokenizer and weights onto `compute`'s device.
    pub fn load(
        name: &str,
        bytes: &[u8],
        precision: Precision,
        compute: &Compute,
    ) -> Result<Self, LlmError> {
        Self::from_file(name, &Gguf::parse(bytes)?, precision, compute)
    }

    /// [`load`](Self::load) from an already parsed file.
    fn from_file(
        name: &str,
        file: &Gguf<'_>,
        precision: Precision,
        compute: &Compute,
    ) -> Result<Self, LlmError> {
        let mut config = LlamaConfig::from_gguf(file)?;
        config.context_length = config.context_length.min(MAX_CONTEXT);
        let tokenizer = GgufTokenizer::from_gguf(file)?;
        if tokenizer.vocab_size() != config.vocab_size {
            return Err(LlmError::Config(format!(
                "{} tokens in the tokenizer, {} rows in the embeddings",
                tokenizer.vocab_size(),
                config.vocab_size
            )));
        }
        // The CPU backend has f16; WebGPU may not (SwiftShader has no `shader-f16`).
        let f16 = match compute.backend() {
            Backend::Cpu => network::F16Rounding::Cast,
            _ => network::F16Rounding::Arithmetic,
        };
        let network = network::Network::load(file, config, precision, f16, compute.device())?;
        let mut stops: Vec<u32> = tokenizer.eos.into_iter().collect();
        for marker in ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>"] {
            stops.extend(tokenizer.control(marker).filter(|id| !stops.contains(id)));
        }
        Ok(LlamaModel {
            name: name.to_string(),
            tokenizer,
            network,
            stops,
            precision,
        })
    }

    /// [`load`](Self::load), then the start-up self-check: the first layer's projection on
    /// the device against the same product on the host. When 8-bit weights disagree (a
    /// backend whose quantized kernels are wrong), the model is loaded again with f32
    /// weights and checked again; when that disagrees too, the device cannot be trusted
    /// and loading fails.
    pub async fn load_checked(
        name: &str,
        bytes: &[u8],
        precision: Precision,
        compute: &Compute,
    ) -> Result<(Self, SelfCheck), LlmError> {
        // One parse serves both loads and both checks.
        let file = Gguf::parse(bytes)?;
        let model = Self::from_file(name, &file, precision, compute)?;
        let error = model.network.first_layer_error(&file).await?;
        if error <= SELF_CHECK_TOLERANCE {
            return Ok((
                model,
                SelfCheck {
                    error,
                    fell_back: false,
                },
            ));
        }
        if precision == Precision::F32 {
            return Err(LlmError::Device(format!(
                "the first layer computes wrong values on this device (off by {error:.3} of its range)"
            )));
        }
        drop(model);
        let model = Self::from_file(name, &file, Precision::F32, compute)?;
        let retry = model.network.first_layer_error(&file).await?;
        if retry > SELF_CHECK_TOLERANCE {
            return Err(LlmError::Device(format!(
                "the first layer computes wrong values on this device (off by {retry:.3} of its range, {error:.3} with 8-bit weights)"
            )));
        }
        Ok((
            model,
            SelfCheck {
                error: retry,
                fell_back: true,
            },
        ))
    }

    pub fn config(&self) -> &LlamaConfig {
        &self.network.config
    }

    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// Token ids of a prompt (control tokens in the text are parsed).
    pub fn tokenize(&self, text: &str) -> Result<Vec<u32>, LlmError> {
        self.tokenizer.encode(text)
    }

    /// The logits of the position after `ids`.
    pub async fn next_logits(&self, ids: &[u32]) -> Result<Vec<f32>, LlmError> {
        let mut cache = self.new_cache();
        self.feed(ids, &mut cache).await
    }

    /// An empty key/value cache: a conversation's state, extended by [`feed`](Self::feed).
    pub fn new_cache(&self) -> KvCache {
        self.network.cache()
    }

    /// Generates a continuation of `prompt`, token by token. `on_text` receives each
    /// piece of text as soon as it is whole UTF-8 and may stop generation by returning
    /// `ControlFlow::Break`.
    pub async fn generate(
        &self,
        prompt: &[u32],
        settings: &Generate,
        on_text: impl FnMut(&str) -> ControlFlow<()>,
    ) -> Result<Generation, LlmError> {
        self.generate_paused(prompt, settings, on_text, async || {})
            .await
    }

    /// [`generate`](Self::generate), awaiting `between` after each token: where a host
    /// whose backend never suspends (the CPU in a browser worker) lets its event loop
    /// run, so a request to stop can arrive while the model writes.
    pub async fn generate_paused(
        &self,
        prompt: &[u32],
        settings: &Generate,
        on_text: impl FnMut(&str) -> ControlFlow<()>,
        between: impl AsyncFnMut(),
    ) -> Result<Generation, LlmError> {
        self.generate_observed(prompt, settings, |_| {}, on_text, between)
            .await
    }

    /// [`generate_paused`](Self::generate_paused) that also hands `on_prompt` the
    /// logits of the position after the prompt, before the first token is chosen: a
    /// check of the prompt's scores and of the continuation then costs one prompt
    /// pass, not two (on a software GPU a pass costs most of a minute).
    pub async fn generate_observed(
        &self,
        prompt: &[u32],
        settings: &Generate,
        on_prompt: impl FnOnce(&[f32]),
        mut on_text: impl FnMut(&str) -> ControlFlow<()>,
        mut between: impl AsyncFnMut(),
    ) -> Result<Generation, LlmError> {
        let mut on_prompt = Some(on_prompt);
        let mut cache = self.new_cache();
        let mut sampler = sample::Sampler::new(&settings.sampling);
        let mut stream = TextStream::default();
        let mut tokens = Vec::new();
        let mut text = String::new();
        let mut input = prompt.to_vec();
        let stop = loop {
            if tokens.len() >= settings.max_tokens {
                break Stop::Length;
            }
            // The prompt itself must fit (an error); a reply that fills the context ends.
            if !tokens.is_empty() && cache.len() + input.len() > self.config().context_length {
                break Stop::Context;
            }
            let logits = self.feed(&input, &mut cache).await?;
            if let Some(observe) = on_prompt.take() {
                observe(&logits);
            }
            let next = sampler.choose(&logits);
            if self.stops.contains(&next) {
                break Stop::EndToken;
            }
            tokens.push(next);
            let piece = stream.push(self.tokenizer.piece(next));
            text.push_str(&piece);
            if !piece.is_empty() && on_text(&piece).is_break() {
                break Stop::Cancelled;
            }
            between().await;
            input = vec![next];
        };
        let rest = stream.finish();
        if !rest.is_empty() {
            text.push_str(&rest);
            let _ = on_text(&rest);
        }
        Ok(Generation { tokens, text, stop })
    }

    /// The log-likelihood (natural log) of each candidate continuation after `prompt`:
    /// the prompt is run once and its cache shared by every candidate.
    pub async fn score(
        &self,
        prompt: &[u32],
        candidates: &[Vec<u32>],
    ) -> Result<Vec<f64>, LlmError> {
        let mut cache = self.new_cache();
        let first = self.feed(prompt, &mut cache).await?;
        let mut out = Vec::with_capacity(candidates.len());
        for candidate in candidates {
            let Some((&head, _)) = candidate.split_first() else {
                out.push(0.0);
                continue;
            };
            let mut total = log_softmax_at(&first, head)?;
            if candidate.len() > 1 {
                self.check(
                    prompt.len() + candidate.len(),
                    &candidate[..candidate.len() - 1],
                )?;
                let mut fork = cache.clone();
                let logits =
                    self.network
                        .forward(&candidate[..candidate.len() - 1], &mut fork, true);
                let rows = read(logits).await?;
                let vocab = self.network.config.vocab_size;
                for (row, &next) in rows.chunks(vocab).zip(&candidate[1..]) {
                    total += log_softmax_at(row, next)?;
                }
            }
            out.push(total);
        }
        Ok(out)
    }

    /// A continuation of `prompt` held to `shape`: at each step every token whose bytes
    /// would leave the shape is masked out before the choice, and generation ends as
    /// soon as the text is one whole value. Returns the text (valid JSON of the shape).
    pub async fn generate_shaped(
        &self,
        prompt: &[u32],
        shape: &Shape,
        settings: &Generate,
    ) -> Result<String, LlmError> {
        let mut cache = self.new_cache();
        let mut sampler = sample::Sampler::new(&settings.sampling);
        let mut matcher = Matcher::new(shape);
        let mut bytes: Vec<u8> = Vec::new();
        let mut input = prompt.to_vec();
        for _ in 0..settings.max_tokens {
            let mut logits = self.feed(&input, &mut cache).await?;
            self.mask(&matcher, &mut logits);
            if logits.iter().all(|l| *l == f32::NEG_INFINITY) {
                return Err(LlmError::ShapeStuck(
                    String::from_utf8_lossy(&bytes).into_owned(),
                ));
            }
            let next = sampler.choose(&logits);
            let piece = self.tokenizer.piece(next);
            if !matcher.push(piece) {
                // The mask allowed only accepted tokens; a NaN row could still pick one.
                return Err(LlmError::Device(
                    "the model's scores could not be read (not a number)".into(),
                ));
            }
            bytes.extend_from_slice(piece);
            if matcher.is_complete() {
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            if cache.len() + 1 > self.config().context_length {
                break;
            }
            input = vec![next];
        }
        Err(LlmError::ShapeUnfinished(settings.max_tokens))
    }

    /// Sets to −∞ the logit of every token that cannot continue `matcher`'s text:
    /// control tokens, and tokens whose bytes leave the shape. The first byte is tested
    /// for all 256 values once, so most of the vocabulary is ruled out without a walk.
    fn mask(&self, matcher: &Matcher<'_>, logits: &mut [f32]) {
        let first: Vec<bool> = (0..=255u8).map(|b| matcher.accepts(&[b])).collect();
        for (id, logit) in logits.iter_mut().enumerate() {
            let id = id as u32;
            let piece = self.tokenizer.piece(id);
            let allowed = match piece.first() {
                Some(&b) => {
                    first[b as usize]
                        && !self.tokenizer.is_control(id)
                        && (piece.len() == 1 || matcher.accepts(piece))
                }
                None => false,
            };
            if !allowed {
                *logit = f32::NEG_INFINITY;
            }
        }
    }

    /// Runs `ids` after the positions in `cache` (which grows by them) and returns the
    /// logits of the position after the last one.
    pub async fn feed(&self, ids: &[u32], cache: &mut KvCache) -> Result<Vec<f32>, LlmError> {
        if ids.is_empty() {
            return Err(LlmError::EmptyPrompt);
        }
        self.check(cache.len() + ids.len(), ids)?;
        read(self.network.forward(ids, cache, false)).await
    }

    fn check(&self, needed: usize, ids: &[u32]) -> Result<(), LlmError> {
        let context = self.network.config.context_length;
        if needed > context {
            return Err(LlmError::Context { needed, context });
        }
        let vocab = self.network.config.vocab_size;
        match ids.iter().find(|&&id| id as usize >= vocab) {
            Some(&id) => Err(LlmError::Token(id)),
            None => Ok(()),
        }
    }
}

/// Reads a tensor back asynchronously (synchronous reads panic on WebGPU).
async fn read(t: Tensor<2>) -> Result<Vec<f32>, LlmError> {
    t.into_data_async()
        .await
        .map_err(|e| LlmError::Device(e.to_string()))?
        .try_into_vec::<f32>()
        .map_err(|e| LlmError::Device(format!("{e:?}")))
}

/// `log softmax(logits)[index]`, computed stably in f64.
fn log_softmax_at(logits: &[f32], index: u32) -> Result<f64, LlmError> {
    let x = *logits.get(index as usize).ok_or(LlmError::Token(index))?;
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let sum: f64 = logits.iter().map(|&l| (l as f64 - max).exp()).sum();
    Ok(x as f64 - max - sum.ln())
}

impl LanguageModel for LlamaModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn chat_prompt(&self, messages: &[Message]) -> Result<String, LlmError> {
        self.tokenizer.chat(messages, true)
    }

    async fn generate(
        &self,
        prompt: &str,
        settings: &Generate,
        on_text: impl FnMut(&str) -> ControlFlow<()>,
    ) -> Result<Generation, LlmError> {
        let ids = self.tokenize(prompt)?;
        LlamaModel::generate(self, &ids, settings, on_text).await
    }

    async fn score(&self, prompt: &str, candidates: &[String]) -> Result<Vec<f64>, LlmError> {
        let ids = self.tokenize(prompt)?;
        let candidates = candidates
            .iter()
            .map(|c| self.tokenizer.encode_plain(c))
            .collect::<Result<Vec<_>, _>>()?;
        LlamaModel::score(self, &ids, &candidates).await
    }

    async fn generate_json(
        &self,
        prompt: &str,
        shape: &Shape,
        settings: &Generate,
    ) -> Result<serde_json::Value, LlmError> {
        let ids = self.tokenize(prompt)?;
        let text = self.generate_shaped(&ids, shape, settings).await?;
        // The matcher only completes on JSON of the shape; a failure here is a defect in
        // it, reported rather than hidden.
        serde_json::from_str(&text).map_err(|e| LlmError::NotJson(format!("`{text}`: {e}")))
    }
}
