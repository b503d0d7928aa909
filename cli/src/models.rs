//! Loading the shipped sentence embedder from a directory on disk.

use std::path::Path;

use engine::compute::Compute;
use engine::model::bert::{BertEmbedder, ModelFiles, Pooling};

/// all-MiniLM-L6-v2 from `dir` (config.json, model.safetensors, tokenizer.json) on the
/// CPU backend.
pub fn load_minilm(dir: &Path) -> Result<BertEmbedder, String> {
    let read = |name: &str| {
        std::fs::read(dir.join(name)).map_err(|e| {
            format!(
                "{}: {e} (run scripts/setup.sh to fetch the models)",
                dir.join(name).display()
            )
        })
    };
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
