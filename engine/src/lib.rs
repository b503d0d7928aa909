//! gatepath's engine: everything that turns documents and a question into gated evidence
//! and an answer, with no knowledge of the web.
//!
//! The principal types:
//! - [`compute::Compute`]: the device the models run on — WebGPU when the host has it,
//!   burn-flex on the CPU otherwise — with a record of which one it is.
//! - [`compute::check`]: a small, deterministic matmul + softmax used to prove that a
//!   device computes what the CPU computes before any model is trusted to it.
//! - [`text`]: documents, sentences and words with byte spans for citations.
//! - [`graph::KnowledgeGraph`]: normalised entities joined by condition-aware tuples,
//!   built once by [`graph::GraphBuilder`].
//! - [`gate::Gate`]: which edges one patient's conditions leave open (CGR Eq. 1), and
//!   [`gate::walk`], the breadth-first walk over them.
//! - [`patient::Patient`]: what a question says about the patient, and the truth of any
//!   condition phrase for them (the condition table L, without an LLM).
//! - [`query::parse`]: keywords, required/excluded conditions, negated entities, answer
//!   type and avoid-questions from a question.
//! - [`eval::metrics`]: SQuAD-style exact match and token F1, as the evaluation sets are
//!   scored.
//!
//! The engine takes bytes and text and returns values. Fetching, storage, workers and
//! serialisation for the browser belong to the app; this crate builds and tests natively
//! and for `wasm32-unknown-unknown` alike.

pub mod amg;
pub mod answer;
pub mod claims;
pub mod compute;
pub mod embed;
pub mod eval;
pub mod extract;
pub mod gate;
pub mod graph;
pub mod ikr;
pub mod language;
pub mod lexicon;
pub mod llm;
pub mod model;
pub mod passage;
pub mod patient;
pub mod query;
pub mod regram;
pub mod text;
