//! The language model as the pipeline sees it: text in, text, scores or shaped JSON out.
//!
//! A ~135M model is reliable for a few things only — picking among a short list of
//! candidates by likelihood, filling in a small JSON shape whose keys are fixed, writing
//! an explanation when asked — so that is all this trait offers. Any GGUF decoder the
//! engine can load ([`crate::model::llama::LlamaModel`]) implements it; a larger file
//! the user points the app at takes over the same steps.
//!
//! - [`shape`]: the JSON shapes and the byte-level matcher that masks tokens.

pub mod shape;

use std::future::Future;
use std::ops::ControlFlow;

pub use crate::model::llama::{Generate, Generation, LlmError, Message, Sampling, Stop};
pub use shape::{Matcher, Shape};

/// A language model the pipeline can ask for text, likelihoods or shaped JSON.
/// Asynchronous because a GPU model reads its results back asynchronously in the
/// browser.
pub trait LanguageModel {
    /// A short name for reports ("SmolLM2-135M-Instruct").
    fn name(&self) -> &str;

    /// The prompt for `messages` in the model's chat template, the assistant's reply
    /// opened.
    fn chat_prompt(&self, messages: &[Message]) -> Result<String, LlmError>;

    /// A continuation of `prompt`, streamed to `on_text` (which may stop it).
    fn generate(
        &self,
        prompt: &str,
        settings: &Generate,
        on_text: impl FnMut(&str) -> ControlFlow<()>,
    ) -> impl Future<Output = Result<Generation, LlmError>>;

    /// The log-likelihood of each candidate continuation of `prompt` (natural log,
    /// summed over the candidate's tokens).
    fn score(
        &self,
        prompt: &str,
        candidates: &[String],
    ) -> impl Future<Output = Result<Vec<f64>, LlmError>>;

    /// A continuation of `prompt` held to `shape` (greedy unless `settings` say
    /// otherwise), parsed. Fails only when `settings.max_tokens` run out first or the
    /// device fails.
    fn generate_json(
        &self,
        prompt: &str,
        shape: &Shape,
        settings: &Generate,
    ) -> impl Future<Output = Result<serde_json::Value, LlmError>>;
}
