//! The messages between the page and the worker. Each crosses `postMessage` as a JS
//! object `{kind, id, body}` whose `body` is the JSON of one of these types (the
//! check hooks' arguments and replies are passed as JS values, unchanged).
//!
//! Page → worker: `start` ([`Start`]), `ask` ([`Ask`]), `regate` ([`Regate`]),
//! `explain` ([`Explain`]), `cancel` (the id of the request to stop), `cache` (what
//! the cache holds), `clear` (empty the cache), `models` (which models are in use),
//! `inspect` (a [`ModelSource`] to check before downloading), `use` (a
//! [`ModelSource`] to download, load and use), `files` (model files the user chose
//! from their computer, as `File` objects in the message's `files`), `hook` (a check hook's name and
//! arguments). Worker → page: `status` ([`Status`]), `progress` ([`Progress`]),
//! `answer` ([`AnswerView`]), `token` (a piece of an explanation's text), `explained`
//! ([`Explanation`]), `cached` ([`CacheSummary`], the reply to `cache` and `clear`),
//! `models` ([`ModelsState`]), `inspected` ([`Inspection`]), `used` ([`UseReport`]),
//! `error` (a message), `reply` (a hook's result).

use engine::model::footprint::Footprint;
use serde::{Deserialize, Serialize};

pub use crate::models::ModelSource;
// What an answer looks like to the page: shared with the command line, whose results
// bundles carry the same views for the benchmark viewer.
pub use answer_view::{
    AnswerView, Blocked, CacheReport, Citation, ClaimsView, Edge, EdgeCondition, GraphEdge,
    HopView, HypothesisView, InterestView, Node, Path, Reached, RegionView, StrategyView,
    SummaryNodeView, TableRow, Trace, Truth,
};

/// Message kinds.
pub mod kind {
    pub const START: &str = "start";
    pub const ASK: &str = "ask";
    pub const REGATE: &str = "regate";
    pub const CANCEL: &str = "cancel";
    pub const HOOK: &str = "hook";
    pub const CACHE: &str = "cache";
    pub const CLEAR: &str = "clear";
    pub const CACHED: &str = "cached";
    pub const EXPLAIN: &str = "explain";
    pub const TOKEN: &str = "token";
    pub const EXPLAINED: &str = "explained";
    pub const MODELS: &str = "models";
    pub const INSPECT: &str = "inspect";
    pub const INSPECTED: &str = "inspected";
    pub const USE: &str = "use";
    pub const USED: &str = "used";
    pub const FILES: &str = "files";
    pub const STATUS: &str = "status";
    pub const PROGRESS: &str = "progress";
    pub const ANSWER: &str = "answer";
    pub const ERROR: &str = "error";
    pub const REPLY: &str = "reply";
}

/// The check hooks the page forwards to the worker (`window.<name>(...)`).
pub const HOOKS: [&str; 3] = ["gatepathTokenize", "gatepathEmbed", "gatepathLlm"];

/// Starts the worker's compute backend.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Start {
    /// Use the CPU even when WebGPU is there (`?backend=cpu`).
    pub cpu: bool,
}

/// A document the user brought.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DocumentIn {
    pub name: String,
    pub text: String,
}

/// A condition value set by the user: `truth` is `"true"`, `"false"` or `"unknown"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionValue {
    pub phrase: String,
    pub truth: Truth,
}

/// Answer `question` over `documents`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ask {
    pub documents: Vec<DocumentIn>,
    pub question: String,
    /// The patient described apart from the question ("34 weeks pregnant, penicillin
    /// allergy"); what it says overrides what the question implies.
    #[serde(default)]
    pub patient: String,
    /// Conditions the user set explicitly; they override both.
    #[serde(default)]
    pub conditions: Vec<ConditionValue>,
    /// The strategy's name (`cgr`, `claims`, `amg`, `ikr`, `regram`, …); empty: `cgr`.
    #[serde(default)]
    pub strategy: String,
    /// Let the language model take the steps it is trusted with while answering: the
    /// conditions the rules leave unknown (calibrated), ReGraM's hypotheses (checked
    /// by the Reviewer) and its guesses (never the answer).
    #[serde(default)]
    pub with_llm: bool,
    /// Also read the answer as yes / no / maybe, as the benchmark scores PubMedQA (the
    /// viewer's run in the browser asks for it).
    #[serde(default)]
    pub yes_no: bool,
}

/// Answer the last question again with these condition values (no model runs).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Regate {
    pub conditions: Vec<ConditionValue>,
}

/// Explain the answer shown last with the LLM, in at most `max_tokens` tokens; the
/// text streams back as `token` messages (each body the JSON of a piece of text), then
/// an `explained` message carries the [`Explanation`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Explain {
    pub max_tokens: usize,
}

/// A finished (or stopped) explanation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub text: String,
    pub tokens: usize,
    /// `end` (the model finished), `length`, `cancelled` or `context`.
    pub stop: String,
    pub model: String,
    /// `f32` or `q8`: how the weights are held on this backend.
    pub precision: String,
    /// Whether the model file came from the cache.
    pub model_from_cache: bool,
    pub millis: f64,
}

/// Where the worker is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// `"webgpu"` or `"cpu"`.
    pub backend: String,
    /// The backend in words (adapter name, or "CPU (burn-flex)").
    pub backend_label: String,
    /// Why WebGPU is not in use, when it is not.
    pub fallback_reason: Option<String>,
    pub adapter: Option<Adapter>,
    /// The self-check, or why it could not run.
    pub check: Result<Check, String>,
}

/// The browser's description of its WebGPU adapter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adapter {
    pub description: String,
    pub max_buffer_size: f64,
    pub max_storage_binding: f64,
}

/// The compute self-check's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub passed: bool,
    /// `softmax(A·B), m×k · k×n`.
    pub shape: String,
    pub cpu_max_abs_diff: f32,
    pub reference_max_abs_diff: f32,
    pub tolerance: f32,
    pub values: Vec<f32>,
    pub millis: f64,
}

/// How far a request has come: `stage` names the step, `done`/`total` its units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub stage: String,
    pub done: u64,
    pub total: u64,
    /// Bytes of model files read so far and in all, while files are being loaded (from
    /// the network or the cache); 0 and 0 otherwise.
    #[serde(default)]
    pub bytes_done: u64,
    #[serde(default)]
    pub bytes_total: u64,
}

/// What the worker's cache (IndexedDB) holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheSummary {
    pub stores: Vec<CacheStore>,
    /// What the browser reports for this site (`navigator.storage.estimate()`).
    pub usage_bytes: f64,
    pub quota_bytes: f64,
    /// Why the cache is off or not written, when it is.
    pub note: Option<String>,
}

/// One store of the cache.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheStore {
    /// `files`, `embeddings` or `extractions`.
    pub name: String,
    pub entries: u64,
    /// For model files: each file's path and size.
    pub files: Vec<String>,
}

/// The models in use, one per role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelsState {
    pub models: Vec<ActiveModel>,
    /// Why a model's state could not be read, when it could not.
    pub note: Option<String>,
}

/// The model serving one role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActiveModel {
    pub source: ModelSource,
    /// Whether every file is in this browser's cache.
    pub cached: bool,
}

/// What a model will take, found before it is downloaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inspection {
    /// The model with every file's size filled in (from the server when not known).
    pub source: ModelSource,
    /// `llama`, `qwen2` or `bert`.
    pub architecture: String,
    /// Its hyper-parameters and tensor types in words.
    pub description: String,
    pub footprint: Footprint,
    /// How this backend would hold the weights: `f32` or `q8`.
    pub precision: String,
    /// `webgpu` or `cpu`.
    pub backend: String,
    /// The GPU's largest buffer, on WebGPU.
    pub max_buffer: Option<u64>,
    /// Bytes still to download (files not in the cache).
    pub download_bytes: u64,
    /// Why it cannot run here (then it is not downloaded), and what may go wrong.
    pub problems: Vec<String>,
    pub warnings: Vec<String>,
}

/// A model switched to: how long each step took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UseReport {
    pub source: ModelSource,
    /// `download`, `verify`, `upload`, `warm-up`, in order, with milliseconds.
    pub steps: Vec<StepTime>,
    /// Bytes that came from the network, and files read from the cache.
    pub downloaded_bytes: u64,
    pub files_cached: usize,
    /// What the warm-up produced (a token, or an embedding's width), to show it ran.
    pub warm_up: String,
    pub millis: f64,
    /// Why the files were not cached, when they were not.
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    pub name: String,
    pub millis: f64,
}

/// The steps of switching models, in order, as the progress bar counts them.
pub const USE_STEPS: [&str; 4] = ["download", "verify", "upload", "warm-up"];

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages from a worker of the release before (no byte counts, no cache report)
    /// still read: the fields default.
    #[test]
    fn older_messages_read_with_defaults() {
        let p: Progress = serde_json::from_str(r#"{"stage": "answering", "done": 2, "total": 3}"#)
            .expect("reads");
        assert_eq!((p.bytes_done, p.bytes_total), (0, 0));
        let a: Ask = serde_json::from_str(r#"{"documents": [], "question": "q"}"#).expect("reads");
        assert!(a.patient.is_empty() && a.conditions.is_empty());
    }

    #[test]
    fn a_chip_cycles_through_the_three_values() {
        let mut t = Truth::True;
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(t.id());
            t = t.next();
        }
        assert_eq!(seen, ["true", "false", "unknown"]);
        assert_eq!(t, Truth::True);
    }
}
