//! Models that run on burn: weights read from bytes (the app fetches them, native code
//! reads files), tokenizers, and the networks themselves.
//!
//! - [`weights`]: safetensors → named f32 arrays with shapes checked against what the
//!   model expects, every failure a [`ModelError`] naming the tensor.
//! - [`gguf`]: GGUF files (metadata, tokenizer vocabulary, block-quantized tensors).
//! - [`bert`]: BERT-family sentence embedders (all-MiniLM-L6-v2, bge-small, …) behind
//!   the engine's [`Embedder`](crate::embed::Embedder) trait.
//! - [`footprint`]: the memory a model will take, from its file's header alone.

pub mod bert;
pub use linear::Precision;
pub mod footprint;
pub mod gguf;
pub(crate) mod linear;
pub mod llama;
pub mod weights;

/// Why a model could not be loaded or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("the weights file is not valid safetensors: {0}")]
    Safetensors(String),
    #[error("tensor `{0}` is missing from the weights")]
    MissingTensor(String),
    #[error("tensor `{name}` has shape {found:?}, expected {expected:?}")]
    Shape {
        name: String,
        found: Vec<usize>,
        expected: Vec<usize>,
    },
    #[error("tensor `{name}` has data type {dtype}, which this model cannot use")]
    DType { name: String, dtype: String },
    #[error("the model configuration cannot be used: {0}")]
    Config(String),
    #[error("the tokenizer cannot be used: {0}")]
    Tokenizer(String),
    #[error("the device failed: {0}")]
    Device(String),
}
