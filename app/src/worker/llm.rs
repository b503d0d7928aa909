//! The language model in the worker: the model chosen under Models (SmolLM2-135M-Instruct
//! Q4_1 as shipped, or a Llama/Qwen2 GGUF the user downloaded), its file from the cache
//! or the network (see [`files::load_all`]), loaded once per precision onto the
//! worker's backend and self-checked (one layer on the device against the host; 8-bit
//! weights that disagree fall back to f32).

use std::cell::RefCell;
use std::rc::Rc;

use engine::model::llama::{LlamaModel, SelfCheck};
use engine::model::Precision;
use gatepath_app::models::ModelSource;

use crate::compute;
use crate::files::{self, Event, Fetch, Origin};

/// A loaded model: whose (its source's key), at which precision.
type Entry = (String, Precision, Rc<LlamaModel>, SelfCheck);

thread_local! {
    static MODELS: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// A loaded model, its self-check, and where its file came from (`None`: it was
/// already loaded).
pub struct Loaded {
    pub model: Rc<LlamaModel>,
    pub check: SelfCheck,
    pub origin: Option<Origin>,
}

/// The model of `source` at `precision`, loading it on first use; `report` hears what
/// loading does, with the file's bytes in all.
pub async fn load(
    source: &ModelSource,
    precision: Precision,
    fetch: Fetch,
    report: &dyn Fn(Event, u64),
) -> Result<Loaded, String> {
    let key = source.key();
    let loaded = MODELS.with(|cell| {
        cell.borrow()
            .iter()
            .find(|(k, p, _, _)| *k == key && *p == precision)
            .map(|(_, _, m, c)| (m.clone(), *c))
    });
    if let Some((model, check)) = loaded {
        return Ok(Loaded {
            model,
            check,
            origin: None,
        });
    }
    let compute = compute::active().ok_or("the compute backend is not ready yet")?;
    let file = files::load_all(source, fetch, report)
        .await?
        .pop()
        .ok_or_else(|| format!("{} has no file", source.name))?;
    report(Event::Uploading, source.size().unwrap_or(0));
    let (model, check) = LlamaModel::load_checked(&source.name, &file.bytes, precision, &compute)
        .await
        .map_err(|e| format!("{}: {e}", source.name))?;
    let model = Rc::new(model);
    MODELS.with(|cell| {
        cell.borrow_mut()
            .push((key, precision, model.clone(), check))
    });
    Ok(Loaded {
        model,
        check,
        origin: Some(file.origin),
    })
}

/// Releases every loaded model but `source`'s (after the user switched models: a tab
/// rarely has memory for two).
pub fn keep_only(source: &ModelSource) {
    let key = source.key();
    MODELS.with(|cell| cell.borrow_mut().retain(|(k, _, _, _)| *k == key));
}
