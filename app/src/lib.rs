//! What the page and the worker share: the messages between them. The page (binary
//! `app`) renders and never runs a model; the worker (binary `worker`) owns the
//! compute backend, the models and the engine.

pub mod export;
pub mod protocol;
