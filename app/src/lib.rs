//! What the page and the worker share: the messages between them and the model
//! manifest. The page (binary
//! `app`) renders and never runs a model; the worker (binary `worker`) owns the
//! compute backend, the models and the engine.

pub mod export;
pub mod manifest;
pub mod models;
pub mod protocol;
pub mod route;
