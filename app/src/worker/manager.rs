//! The model manager: which model serves each role (the shipped ones unless the user
//! chose another; the choice is kept in the cache's settings store), what a model will
//! cost before it is downloaded (its size from the server, its header from its first
//! bytes, checked against this backend's limits), and switching to one — download →
//! verify → upload → warm-up, reported as one progress bar.

use std::cell::RefCell;
use std::ops::ControlFlow;

use engine::model::footprint::{self, Placement};
use engine::model::gguf::{Gguf, GgufError};
use engine::model::llama::{Generate, Sampling};
use engine::model::weights::Header;
use engine::model::Precision;
use gatepath_app::manifest;
use gatepath_app::models::{check_fit, Limits, ModelSource, Origin as Source, Role};
use gatepath_app::protocol::{
    ActiveModel, Inspection, ModelsState, Progress, StepTime, UseReport, USE_STEPS,
};
use js_sys::Reflect;

use crate::compute;
use crate::files::{self, Event, Fetch, Origin};
use crate::hooks::now_ms;
use crate::store::{self, SETTINGS};
use crate::{embedder, llm, session};

/// The most of a GGUF read to find its directory (a large vocabulary's tokenizer is a
/// few megabytes).
const MAX_HEADER: u64 = 64 << 20;

thread_local! {
    /// The site's manifest once fetched: it changes only with a new deployment, which a
    /// new worker serves.
    static MANIFEST: RefCell<Option<manifest::Manifest>> = const { RefCell::new(None) };
}

/// The site's manifest, fetched once per worker (a failed fetch is tried again next time).
async fn site_manifest() -> Result<manifest::Manifest, String> {
    if let Some(known) = MANIFEST.with(|m| m.borrow().clone()) {
        return Ok(known);
    }
    let fetched = manifest::fetch_manifest().await?;
    MANIFEST.with(|m| *m.borrow_mut() = Some(fetched.clone()));
    Ok(fetched)
}

/// The model this site ships for `role`.
pub async fn shipped(role: Role) -> Result<ModelSource, String> {
    let manifest = site_manifest().await?;
    let entry = manifest
        .models
        .iter()
        .find(|m| m.role == role.id())
        .ok_or_else(|| format!("models/manifest.json lists no {}", role.label()))?;
    ModelSource::shipped(entry)
}

/// The model serving `role`: the user's choice, else the shipped one.
pub async fn active(role: Role) -> Result<ModelSource, String> {
    let chosen = store::get(SETTINGS, role.id())
        .await
        .and_then(|v| v.as_string())
        .and_then(|json| serde_json::from_str::<ModelSource>(&json).ok())
        .filter(|s| s.role == role && s.verified());
    match chosen {
        Some(source) => Ok(source),
        None => shipped(role).await,
    }
}

/// The models in use and whether their files are cached.
pub async fn state() -> ModelsState {
    let mut models = Vec::new();
    let mut note = None;
    for role in [Role::Embedder, Role::Llm] {
        match active(role).await {
            Ok(source) => {
                let mut cached = true;
                for f in &source.files {
                    cached &= match &f.sha256 {
                        Some(sha) => files::cached(sha).await,
                        None => false,
                    };
                }
                models.push(ActiveModel { source, cached });
            }
            Err(e) => note = Some(e),
        }
    }
    ModelsState { models, note }
}

/// What `source` will take on this backend, read without downloading it.
pub async fn inspect(mut source: ModelSource) -> Result<Inspection, String> {
    let compute = compute::active().ok_or("the compute backend did not start")?;
    let precision = Precision::for_backend(compute.backend());
    let adapter = compute::adapter();
    let placement = match adapter {
        Some(_) => Placement::Gpu,
        None => Placement::Cpu,
    };
    let mut download_bytes = 0;
    for f in &mut source.files {
        let in_cache = match &f.sha256 {
            Some(sha) => files::cached(sha).await,
            None => false,
        };
        if f.size.is_none() {
            f.size = files::remote_size(&f.url).await?;
        }
        if !in_cache {
            download_bytes += f.size.unwrap_or(0);
        }
    }
    let size_of = |name: &str| -> Result<u64, String> {
        source
            .file(name)
            .and_then(|f| f.size)
            .ok_or_else(|| format!("the server does not say how big {name} is"))
    };
    let (architecture, description, footprint) = match source.role {
        Role::Llm => {
            let file = source.files.first().ok_or("the model has no file")?;
            let len = size_of(&file.name)?;
            let mut want = 1u64 << 20;
            let bytes = loop {
                let bytes = files::head(&file.url, file.sha256.as_deref(), want.min(len)).await?;
                match Gguf::parse_prefix(&bytes, len) {
                    Ok(_) => break bytes,
                    Err(GgufError::Truncated(_)) if want < len.min(MAX_HEADER) => want *= 4,
                    Err(e) => return Err(format!("{}: {e}", file.name)),
                }
            };
            let gguf =
                Gguf::parse_prefix(&bytes, len).map_err(|e| format!("{}: {e}", file.name))?;
            let (config, footprint) = footprint::llama(&gguf, len, precision, placement)
                .map_err(|e| format!("{}: {e}", file.name))?;
            let mut kinds: Vec<String> =
                gguf.tensors().iter().map(|t| t.kind.to_string()).collect();
            kinds.sort();
            kinds.dedup();
            let title = gguf
                .str("general.name")
                .map(|n| format!("{n} · "))
                .unwrap_or_default();
            let description = format!(
                "{title}{} layer{}, hidden {}, {} heads ({} key/value), context {}, {} tokens · {}",
                config.num_layers,
                if config.num_layers == 1 { "" } else { "s" },
                config.hidden_size,
                config.num_heads,
                config.num_kv_heads,
                config.context_length,
                config.vocab_size,
                kinds.join(", ")
            );
            (
                config.architecture.name().to_string(),
                description,
                footprint,
            )
        }
        Role::Embedder => {
            let config_file = source
                .file("config.json")
                .ok_or("the model has no config.json")?;
            let config =
                files::head(&config_file.url, config_file.sha256.as_deref(), 1 << 20).await?;
            let weights = source
                .file("model.safetensors")
                .ok_or("the model has no model.safetensors")?;
            let len = size_of("model.safetensors")?;
            let sha = weights.sha256.as_deref();
            let start = files::head(&weights.url, sha, 8).await?;
            let needed = Header::needed(&start)
                .filter(|&n| n <= MAX_HEADER.min(len))
                .ok_or("model.safetensors does not start with a safetensors header")?;
            let head = files::head(&weights.url, sha, needed).await?;
            let header =
                Header::parse_prefix(&head, len).map_err(|e| format!("model.safetensors: {e}"))?;
            let (config, footprint) = footprint::bert(&config, &header, len, precision, placement)
                .map_err(|e| format!("{}: {e}", source.name))?;
            let description = format!(
                "{} layers, hidden {}, {} heads, {} positions, {} tokens · {} pooling",
                config.num_hidden_layers,
                config.hidden_size,
                config.num_attention_heads,
                config.max_position_embeddings,
                config.vocab_size,
                source.pooling.as_deref().unwrap_or("mean")
            );
            ("bert".to_string(), description, footprint)
        }
    };
    let max_buffer = adapter.map(|a| a.max_buffer_size.min(a.max_storage_binding) as u64);
    let limits = Limits {
        placement,
        max_buffer,
        device_memory: device_memory(),
    };
    let (problems, warnings) = check_fit(&footprint, &limits);
    Ok(Inspection {
        source,
        architecture,
        description,
        footprint,
        precision: precision.id().to_string(),
        backend: compute.backend().id().to_string(),
        max_buffer,
        download_bytes,
        problems,
        warnings,
    })
}

/// Downloads (what the cache lacks), verifies, loads and warms up `source`, then makes
/// it the model for its role. Refused without downloading when it cannot fit.
pub async fn use_model(
    source: ModelSource,
    progress: impl Fn(Progress),
) -> Result<UseReport, String> {
    let _busy = session::Busy::take()?;
    let started = now_ms();
    let inspection = inspect(source).await?;
    if !inspection.problems.is_empty() {
        return Err(format!(
            "{} cannot run here: {}",
            inspection.source.name,
            inspection.problems.join("; ")
        ));
    }
    let mut source = inspection.source;
    let total_bytes = source.size().unwrap_or(0);
    let gpu = compute::adapter().is_some();
    let words = [
        "downloading",
        "verifying (sha256)",
        if gpu {
            "uploading to the GPU"
        } else {
            "loading the weights"
        },
        "warming up",
    ];
    // Time spent in each step, summed over files (download and verify alternate when
    // a model has several): the step in progress, since when, and the totals.
    let timer = std::cell::RefCell::new((0usize, now_ms(), [0.0f64; USE_STEPS.len()]));
    let enter = |index: usize| {
        let mut t = timer.borrow_mut();
        let now = now_ms();
        let current = t.0;
        t.2[current] += now - t.1;
        t.0 = index;
        t.1 = now;
    };
    let step = |index: usize, bytes_done: u64| {
        enter(index);
        progress(Progress {
            stage: words[index].to_string(),
            done: index as u64,
            total: USE_STEPS.len() as u64,
            bytes_done,
            bytes_total: total_bytes,
        })
    };
    step(0, 0);
    // Files never downloaded before: fetched and hashed once, their size and sha256
    // recorded in the source, so from here on they load like shipped files.
    let mut downloaded = 0u64;
    let mut base = 0u64;
    for f in &mut source.files {
        if f.sha256.is_none() {
            let at = base;
            let report = |event| match event {
                Event::Bytes(n) => step(0, at + n),
                Event::Verifying | Event::Uploading => step(1, at + f.size.unwrap_or(0)),
            };
            let (_, file) = files::fetch_new(&f.url, &f.name, f.size, &report).await?;
            downloaded += file.size;
            f.size = Some(file.size);
            f.sha256 = Some(file.sha256);
        }
        base += f.size.unwrap_or(0);
    }
    // Files are read (cache or network) and verified once, inside the model's load.
    let report = |event, _total| match event {
        Event::Bytes(n) => step(0, n),
        Event::Verifying => step(1, total_bytes),
        Event::Uploading => step(2, total_bytes),
    };
    let compute = compute::active().ok_or("the compute backend did not start")?;
    let precision = Precision::for_backend(compute.backend());
    let warm_up;
    let origins: Vec<Origin>;
    match source.role {
        Role::Llm => {
            llm::keep_only(&source);
            let loaded = llm::load(&source, precision, Fetch::Anywhere, &report).await?;
            // Already loaded: nothing was read, as if every file came from the cache.
            origins = vec![loaded.origin.unwrap_or(Origin::Cache)];
            let model = loaded.model;
            step(3, total_bytes);
            // A vocabulary without these letters (a test model) warms up on token 0.
            let ids = model
                .tokenize("Hello")
                .ok()
                .filter(|ids| !ids.is_empty())
                .unwrap_or_else(|| vec![0]);
            let settings = Generate {
                max_tokens: 1,
                sampling: Sampling::Greedy,
            };
            let run = model
                .generate(&ids, &settings, |_| ControlFlow::Continue(()))
                .await
                .map_err(|e| format!("{}: the warm-up failed: {e}", source.name))?;
            warm_up = format!(
                "{} → {}",
                model.tokenizer.decode(&ids).trim(),
                match run.text.trim() {
                    "" => format!("token {}", run.tokens.first().copied().unwrap_or(0)),
                    text => format!("\u{201c}{text}\u{201d}"),
                }
            );
        }
        Role::Embedder => {
            let (mut model, read) =
                embedder::load(&source, precision, Fetch::Anywhere, &report).await?;
            origins = read;
            step(3, total_bytes);
            let vectors = model
                .embed_texts(&["Amoxicillin treats Lyme disease.".to_string()])
                .await
                .map_err(|e| format!("{}: the warm-up failed: {e}", source.name))?;
            let width = vectors.first().map_or(0, |v| v.vector.len());
            warm_up = format!("one sentence → a vector of {width} values");
            session::install_embedder(model);
        }
    }
    enter(0);
    let finished = now_ms();
    let totals = timer.into_inner().2;
    let steps = USE_STEPS
        .iter()
        .zip(totals)
        .map(|(name, millis)| StepTime {
            name: name.to_string(),
            millis,
        })
        .collect();
    // The choice is kept (the shipped model is the default, so choosing it forgets any
    // other choice).
    match source.origin {
        Source::Shipped => store::delete(SETTINGS, source.role.id()).await,
        Source::Url | Source::Local => {
            let json = serde_json::to_string(&source).map_err(|e| e.to_string())?;
            store::put_many(SETTINGS, vec![(source.role.id().to_string(), json.into())]).await;
        }
    }
    Ok(UseReport {
        files_cached: origins.iter().filter(|o| **o == Origin::Cache).count(),
        downloaded_bytes: downloaded
            + origins
                .iter()
                .zip(&source.files)
                .filter(|(o, _)| **o != Origin::Cache)
                .map(|(_, f)| f.size.unwrap_or(0))
                .sum::<u64>(),
        source,
        steps,
        warm_up,
        millis: finished - started,
        note: store::note(),
    })
}

/// `navigator.deviceMemory` in bytes (browsers round it, and cap it at 8 GB).
fn device_memory() -> Option<u64> {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let gb = Reflect::get(&navigator, &"deviceMemory".into())
        .ok()?
        .as_f64()?;
    (gb > 0.0).then(|| (gb * f64::from(1u32 << 30)) as u64)
}
