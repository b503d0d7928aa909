//! Loading the shipped models from disk, and the process's peak memory for the
//! benchmarks.

use std::path::Path;

use engine::compute::Compute;
use engine::language::Language;
use engine::model::bert::{BertEmbedder, ModelFiles, Pooling};
use engine::model::llama::LlamaModel;
use engine::model::Precision;

/// all-MiniLM-L6-v2 from `dir` (config.json, model.safetensors, tokenizer.json) on the
/// CPU backend.
pub fn load_minilm(dir: &Path) -> Result<BertEmbedder, String> {
    let read = |name: &str| read_setup_file(dir, name);
    let (config, weights, tokenizer) = (
        read("config.json")?,
        read("model.safetensors")?,
        read("tokenizer.json")?,
    );
    let files = ModelFiles {
        config: &config,
        weights: &weights,
        tokenizer: &tokenizer,
    };
    BertEmbedder::load("all-MiniLM-L6-v2", files, Pooling::Mean, &Compute::cpu())
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// The language resources (tagger data and drug lexicon) from `dir`, as
/// `scripts/build_lexicons.py` writes them.
pub fn load_language(dir: &Path) -> Result<Language, String> {
    let read = |name: &str| read_setup_file(dir, name);
    Language::from_bytes(&read("tagger.txt")?, &read("drugs.tsv")?)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// A file that `scripts/setup.sh` puts in place; a missing one says so.
fn read_setup_file(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    std::fs::read(dir.join(name)).map_err(|e| {
        format!(
            "{}: {e} (run scripts/setup.sh to fetch the models and build the lexicons)",
            dir.join(name).display()
        )
    })
}

/// The shipped small LLM.
pub const SMOLLM2: &str = "models/smollm2-135m-instruct-q4_1/SmolLM2-135M-Instruct.Q4_1.gguf";

/// A GGUF language model from `path` on the CPU backend (f32 weights: burn-flex's fastest
/// matmul; 8-bit blocks would be expanded to f32 for every product).
pub fn load_llm(path: &Path) -> Result<LlamaModel, String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "{}: {e} (run scripts/setup.sh to fetch the models)",
            path.display()
        )
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "model".to_string(), |s| s.to_string_lossy().into_owned());
    LlamaModel::load(&name, &bytes, Precision::F32, &Compute::cpu())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The process's peak resident memory (VmHWM) in KiB, where /proc says it.
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}
