//! The shipped small LLM (SmolLM2-135M-Instruct, Q4_1 GGUF) in the worker: its file
//! from the cache or the site (see [`files::load`]), loaded once per precision onto the
//! worker's backend and self-checked (one layer on the device against the host; 8-bit
//! weights that disagree fall back to f32).

use std::cell::RefCell;
use std::rc::Rc;

use engine::model::llama::{LlamaModel, SelfCheck};
use engine::model::Precision;
use gatepath_app::manifest;

use crate::compute;
use crate::files::{self, Origin};

/// The model's id in `models/manifest.json`.
const MODEL: &str = "smollm2-135m-instruct-q4_1";

thread_local! {
    static MODELS: RefCell<Vec<(Precision, Rc<LlamaModel>, SelfCheck)>> = const { RefCell::new(Vec::new()) };
}

/// A loaded model, its self-check, and where its file came from (`None`: it was
/// already loaded).
pub struct Loaded {
    pub model: Rc<LlamaModel>,
    pub check: SelfCheck,
    pub origin: Option<Origin>,
}

/// The model at `precision`, loading it on first use; `on_bytes` hears the bytes of its
/// file read so far and in all.
pub async fn load(precision: Precision, on_bytes: &dyn Fn(u64, u64)) -> Result<Loaded, String> {
    let loaded = MODELS.with(|cell| {
        cell.borrow()
            .iter()
            .find(|(p, _, _)| *p == precision)
            .map(|(_, m, c)| (m.clone(), *c))
    });
    if let Some((model, check)) = loaded {
        return Ok(Loaded {
            model,
            check,
            origin: None,
        });
    }
    let compute = compute::active().ok_or("the compute backend is not ready yet")?;
    let manifest = manifest::fetch_manifest().await?;
    let entry = manifest.require(MODEL)?;
    let file = entry
        .files
        .first()
        .ok_or_else(|| format!("models/manifest.json lists no file for `{MODEL}`"))?;
    let url = entry.url(file);
    let total = file.size;
    let bytes = files::load(&url, file, &|n| on_bytes(n, total)).await?;
    let (model, check) = LlamaModel::load_checked(&entry.name, &bytes.bytes, precision, &compute)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    let model = Rc::new(model);
    MODELS.with(|cell| cell.borrow_mut().push((precision, model.clone(), check)));
    Ok(Loaded {
        model,
        check,
        origin: Some(bytes.origin),
    })
}
