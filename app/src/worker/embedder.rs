//! The sentence embedder in the worker: the model chosen under Models (all-MiniLM-L6-v2
//! as shipped, or a BERT-family model the user downloaded from a URL), its three files
//! from the cache or the network (see [`files::load_all`]), loaded onto the worker's
//! backend. The answering session, the model manager and the check hooks load it here.

use engine::model::bert::{BertEmbedder, ModelFiles, Pooling};
use engine::model::Precision;
use gatepath_app::models::ModelSource;

use crate::compute;
use crate::files::{self, Event, Fetch, Origin};

/// The embedder of `source` at `precision`, with where each of its files came from;
/// `report` hears what loading does, with the bytes of all files in all.
pub async fn load(
    source: &ModelSource,
    precision: Precision,
    fetch: Fetch,
    report: &dyn Fn(Event, u64),
) -> Result<(BertEmbedder, Vec<Origin>), String> {
    let compute = compute::active().ok_or("the compute backend did not start")?;
    let loaded = files::load_all(source, fetch, report).await?;
    report(Event::Uploading, source.size().unwrap_or(0));
    let bytes = |name: &str| {
        source
            .files
            .iter()
            .position(|f| f.name == name)
            .map(|i| loaded[i].bytes.as_slice())
            .ok_or_else(|| format!("{} has no {name}", source.name))
    };
    let files = ModelFiles {
        config: bytes("config.json")?,
        weights: bytes("model.safetensors")?,
        tokenizer: bytes("tokenizer.json")?,
    };
    let pooling = match source.pooling.as_deref() {
        Some("cls") => Pooling::Cls,
        _ => Pooling::Mean,
    };
    let embedder = BertEmbedder::load_with(source.key(), files, pooling, precision, &compute)
        .map_err(|e| format!("{}: {e}", source.name))?;
    Ok((embedder, loaded.into_iter().map(|l| l.origin).collect()))
}
