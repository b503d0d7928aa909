//! The shipped sentence embedder (all-MiniLM-L6-v2) in the worker: its three files from
//! the cache or the site (see [`files::load`]), loaded onto the worker's backend. Both
//! the answering session and the check hooks load it here.

use engine::model::bert::{BertEmbedder, ModelFiles, Pooling};
use engine::model::Precision;
use gatepath_app::manifest;

use crate::compute;
use crate::files::{self, Origin};

/// The model's id in `models/manifest.json`.
const MODEL: &str = "all-minilm-l6-v2";

/// The embedder at `precision`, with where each of its files came from; `on_bytes`
/// hears the bytes of its files read so far and in all.
pub async fn load(
    precision: Precision,
    on_bytes: &dyn Fn(u64, u64),
) -> Result<(BertEmbedder, Vec<Origin>), String> {
    let compute = compute::active().ok_or("the compute backend did not start")?;
    let manifest = manifest::fetch_manifest().await?;
    let model = manifest.require(MODEL)?;
    let total = model.size();
    let mut base = 0;
    let mut contents = Vec::new();
    let mut origins = Vec::new();
    for name in ["config.json", "model.safetensors", "tokenizer.json"] {
        let file = model.require_file(name)?;
        let loaded = files::load(&model.url(file), file, &|n| on_bytes(base + n, total)).await?;
        base += file.size;
        contents.push(loaded.bytes);
        origins.push(loaded.origin);
    }
    let files = ModelFiles {
        config: &contents[0],
        weights: &contents[1],
        tokenizer: &contents[2],
    };
    let embedder = BertEmbedder::load_with(&model.name, files, Pooling::Mean, precision, &compute)
        .map_err(|e| format!("{}: {e}", model.name))?;
    Ok((embedder, origins))
}
