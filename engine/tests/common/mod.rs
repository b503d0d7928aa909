//! What the model tests share: files under the repository root (weights in `models/`,
//! reference outputs in `tests/fixtures/`).

#![allow(dead_code)]

use std::path::PathBuf;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A file under the repository root; a missing weights file says how to get it.
pub fn read(relative: &str) -> Vec<u8> {
    let path = root().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} — run `bash scripts/setup.sh` (it fetches the model weights into models/)",
            path.display()
        )
    })
}

/// The shipped SmolLM2-135M-Instruct (Q4_1), relative to the repository root.
pub const SMOLLM2: &str = "models/smollm2-135m-instruct-q4_1/SmolLM2-135M-Instruct.Q4_1.gguf";

/// The shipped SmolLM2 on the CPU at `precision`, loaded once per test binary.
pub fn smollm2(precision: engine::model::Precision) -> &'static engine::model::llama::LlamaModel {
    use engine::model::{llama::LlamaModel, Precision};
    use std::sync::OnceLock;
    static F32: OnceLock<LlamaModel> = OnceLock::new();
    static Q8: OnceLock<LlamaModel> = OnceLock::new();
    let slot = match precision {
        Precision::F32 => &F32,
        _ => &Q8,
    };
    slot.get_or_init(|| {
        LlamaModel::load(
            "SmolLM2-135M-Instruct",
            &read(SMOLLM2),
            precision,
            &engine::compute::Compute::cpu(),
        )
        .expect("the shipped GGUF loads")
    })
}

/// A JSON fixture from `tests/fixtures/`.
pub fn fixture(name: &str) -> serde_json::Value {
    serde_json::from_slice(&read(&format!("tests/fixtures/{name}"))).expect("fixture is JSON")
}

/// A JSON array of numbers.
pub fn numbers<T>(v: &serde_json::Value, convert: impl Fn(f64) -> T) -> Vec<T> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| convert(x.as_f64().expect("number")))
        .collect()
}
