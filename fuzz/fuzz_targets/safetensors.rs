//! Arbitrary bytes as a model's weights: the safetensors parser, every tensor read back
//! with its declared shape, and a small BERT encoder loaded from them. Nothing may
//! panic; every failure must be an error value.
#![no_main]

use engine::compute::Compute;
use engine::model::bert::{BertConfig, Encoder, Precision};
use engine::model::weights::Weights;
use libfuzzer_sys::fuzz_target;

/// A BERT small enough to load thousands of times a second (hidden 4, one layer).
const CONFIG: &str = r#"{"model_type":"bert","vocab_size":8,"hidden_size":4,"num_hidden_layers":1,
  "num_attention_heads":2,"intermediate_size":8,"max_position_embeddings":4,"type_vocab_size":2}"#;

fuzz_target!(|data: &[u8]| {
    let Ok(weights) = Weights::from_safetensors(data) else {
        return;
    };
    for name in weights.names() {
        if let Some(shape) = weights.shape(&name) {
            let _ = weights.f32(&name, &shape);
        }
    }
    if let Ok(config) = BertConfig::from_json(CONFIG.as_bytes()) {
        let compute = Compute::cpu();
        if let Ok(encoder) = Encoder::load(&config, &weights, Precision::F32, compute.device()) {
            let _ = pollster::block_on(encoder.embed(&[vec![1, 2, 3]], engine::model::bert::Pooling::Mean));
        }
    }
});
