//! The messages between the page and the worker. Each crosses `postMessage` as a JS
//! object `{kind, id, body}` whose `body` is the JSON of one of these types (the
//! check hooks' arguments and replies are passed as JS values, unchanged).
//!
//! Page → worker: `start` ([`Start`]), `ask` ([`Ask`]), `regate` ([`Regate`]),
//! `explain` ([`Explain`]), `cancel` (the id of the request to stop), `cache` (what
//! the cache holds), `clear` (empty the cache), `hook` (a check hook's name and
//! arguments). Worker → page: `status` ([`Status`]), `progress` ([`Progress`]),
//! `answer` ([`AnswerView`]), `token` (a piece of an explanation's text), `explained`
//! ([`Explanation`]), `cached` ([`CacheSummary`], the reply to `cache` and `clear`),
//! `error` (a message), `reply` (a hook's result).

use serde::{Deserialize, Serialize};

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

/// A condition's value for the patient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    pub fn id(self) -> &'static str {
        match self {
            Truth::True => "true",
            Truth::False => "false",
            Truth::Unknown => "unknown",
        }
    }

    /// The next value when a chip is clicked: true → false → unknown → true.
    pub fn next(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::Unknown,
            Truth::Unknown => Truth::True,
        }
    }
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

/// Where an answer's inputs came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheReport {
    /// Model files read from the cache, and fetched from the site.
    pub files_cached: usize,
    pub files_fetched: usize,
    /// Cached files that failed their sha256 check and were fetched again.
    pub files_repaired: usize,
    /// Whether the documents' extraction came from the cache.
    pub extraction_cached: bool,
    /// Sentence embeddings read from the cache.
    pub embeddings_cached: usize,
    /// Why the cache is off or not written, when it is.
    pub note: Option<String>,
}

/// A span of a document the answer rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Index into the documents of the request.
    pub doc: usize,
    pub doc_name: String,
    /// Byte range of the sentence in the document's text.
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// A condition an edge carries and its value for the patient.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgeCondition {
    pub phrase: String,
    /// The edge holds only when the condition does not.
    pub negated: bool,
    pub truth: Truth,
}

/// An edge of the graph ⟨subject, relation, object, conditions⟩ with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub id: u32,
    pub subject: String,
    pub relation: String,
    pub object: String,
    pub conditions: Vec<EdgeCondition>,
    pub citations: Vec<Citation>,
}

/// A node of the graph around the question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub label: String,
    /// `"entry"`, `"answer"` or `"other"`.
    pub role: String,
    pub layer: usize,
    pub order: usize,
}

/// An edge of the graph around the question: `blocked` names the condition that
/// closed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    pub edge: Edge,
    pub blocked: Option<Blocked>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Blocked {
    pub condition: String,
    pub negated: bool,
}

/// One condition of the table L: its value now and the value the question gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    pub phrase: String,
    pub truth: Truth,
    pub evaluated: Truth,
}

/// An evidence path, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Path {
    pub nodes: Vec<String>,
    pub edges: Vec<Edge>,
    pub score: f32,
}

/// An answer and everything the page shows of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerView {
    pub question: String,
    /// The answer, or `None` for "insufficient evidence".
    pub answer: Option<String>,
    /// `"paths"`, `"sentences"` or `"none"`.
    pub source: String,
    /// The sentences the answer rests on, first the answer's own.
    pub citations: Vec<Citation>,
    pub paths: Vec<Path>,
    pub table: Vec<TableRow>,
    pub nodes: Vec<Node>,
    pub edges: Vec<GraphEdge>,
    pub layers: usize,
    /// Texts a model had to embed for this answer (0 for a re-gating).
    pub embedded: usize,
    /// The embedder that ranked the paths.
    pub embedder: String,
    /// Why the neural embedder is not in use, when it is not.
    pub embedder_note: Option<String>,
    /// What came from the cache.
    #[serde(default)]
    pub cache: CacheReport,
    pub millis: f64,
    /// Documents, tuples and edges of the graph.
    pub documents: usize,
    pub tuples: usize,
    pub graph_edges: usize,
}

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
