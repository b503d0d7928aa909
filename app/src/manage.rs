//! The model manager on the page: which models are in use, the models this site ships
//! (sizes before anything is downloaded), and another model from a URL — checked first
//! (size, architecture, what it will take on this backend, whether it fits), then
//! downloaded, verified, loaded and warmed up behind one progress bar.

use gatepath_app::manifest::{human_size, Manifest};
use gatepath_app::models::{ModelSource, Origin, Role};
use gatepath_app::protocol::{Inspection, ModelsState, Progress, Status, UseReport};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::client;
use crate::progress::ProgressBar;
use crate::view::CacheChanges;

#[component]
pub fn ModelsPanel(
    manifest: ReadSignal<Option<Result<Manifest, String>>>,
    status: ReadSignal<Option<Result<Status, String>>>,
) -> impl IntoView {
    let state = RwSignal::new(None::<Result<ModelsState, String>>);
    let changes = CacheChanges::find();
    let refresh = move || {
        spawn_local(async move { state.set(Some(client::models().await)) });
    };
    Effect::new(move |_| {
        if let Some(c) = changes {
            c.0.track();
        }
        if matches!(status.get(), Some(Ok(_))) {
            refresh();
        }
    });
    // The switch in progress (its request id), its progress and outcome.
    let running = RwSignal::new(None::<u32>);
    let progress = RwSignal::new(None::<Progress>);
    let outcome = RwSignal::new(None::<Result<UseReport, String>>);
    // The model last checked in the form; gone once it is in use.
    let inspection = RwSignal::new(None::<Result<Inspection, String>>);
    let switch = move |source: ModelSource| {
        if running.get_untracked().is_some() {
            return;
        }
        outcome.set(None);
        progress.set(None);
        running.set(Some(client::next_id()));
        spawn_local(async move {
            let result = client::use_model(&source, move |p| progress.set(Some(p))).await;
            if result.is_ok() {
                inspection.set(None);
            }
            outcome.set(Some(result));
            running.set(None);
            // Nothing stale is shown while the models in use are read again.
            state.set(None);
            match changes {
                Some(c) => c.bump(),
                None => refresh(),
            }
        });
    };
    let in_use = move || {
        state.get().map(|s| match s {
            Err(message) => view! { <p class="bad" data-testid="models-in-use" data-state="error">{message}</p> }.into_any(),
            Ok(s) => {
                let shipped = manifest.get().and_then(Result::ok);
                let rows = s
                    .models
                    .into_iter()
                    .map(|m| {
                        let role = m.source.role;
                        let size = m.source.size().map(human_size).unwrap_or_default();
                        let origin = match m.source.origin {
                            Origin::Shipped => "shipped with this site",
                            Origin::Url => "from a URL you chose",
                            Origin::Local => "from a file on this computer",
                        };
                        let stored = match m.cached {
                            true => "stored in this browser",
                            false => "downloaded when first needed",
                        };
                        let reset = match (m.source.origin, shipped.as_ref()) {
                            (Origin::Url | Origin::Local, Some(manifest)) => manifest
                                .models
                                .iter()
                                .find(|e| e.role == role.id())
                                .and_then(|e| ModelSource::shipped(e).ok())
                                .map(|source| {
                                    let label = format!("Back to {}", source.name);
                                    view! {
                                        <button
                                            type="button"
                                            data-testid=format!("model-reset-{}", role.id())
                                            disabled=move || running.get().is_some()
                                            on:click=move |_| switch(source.clone())
                                        >
                                            {label}
                                        </button>
                                    }
                                }),
                            _ => None,
                        };
                        view! {
                            <li data-role=role.id() data-name=m.source.name.clone() data-origin=format!("{:?}", m.source.origin).to_lowercase() data-cached=m.cached.to_string()>
                                <span class="role">{role.label()} ": "</span>
                                <strong>{m.source.name.clone()}</strong>
                                {format!(" — {origin} · {size} · {stored} ")}
                                {reset}
                            </li>
                        }
                    })
                    .collect_view();
                view! { <ul class="models" data-testid="models-in-use" data-state="ready">{rows}</ul> }.into_any()
            }
        })
    };
    let report = move || {
        outcome.get().map(|o| match o {
            Err(message) => view! { <p class="bad" role="alert" data-testid="model-error">{message}</p> }.into_any(),
            Ok(r) => {
                let steps = r
                    .steps
                    .iter()
                    .map(|s| format!("{} {:.1} s", s.name, s.millis / 1000.0))
                    .collect::<Vec<_>>()
                    .join(" · ");
                let fetched = match (r.downloaded_bytes, r.source.origin) {
                    (0, _) => "nothing downloaded (every file was in this browser)".to_string(),
                    (n, Origin::Local) => format!("{} read from this computer", human_size(n)),
                    (n, _) => format!("{} downloaded", human_size(n)),
                };
                let note = r.note.clone().map(|n| view! { <p class="notice">{n}</p> });
                view! {
                    <div data-testid="model-used" data-name=r.source.name.clone() data-downloaded=r.downloaded_bytes.to_string() data-cached=r.files_cached.to_string()>
                        <p class="good">
                            {format!("Now using {} for the {}: {fetched}; {steps}.", r.source.name, r.source.role.label())}
                        </p>
                        <p class="hint">{format!("Warm-up: {}.", r.warm_up)}</p>
                        {note}
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="panel" aria-labelledby="models-title">
            <h2 id="models-title">"Models"</h2>
            {in_use}
            <ProgressBar running=running progress=progress testid="model-progress" cancel_testid=None />
            {report}
            <AnotherModel running=running switch=switch inspection=inspection />
            <h3>"Shipped with this site"</h3>
            <Shipped manifest=manifest />
            <p class="hint">
                "The shipped models are downloaded from this site only when a step needs them. "
                "A model from another site is fetched only when you press "
                "\u{201c}Download and use\u{201d}; questions never fetch from another site."
            </p>
        </section>
    }
}

/// The form for a model at a URL: check it, then download and use it.
#[component]
fn AnotherModel(
    running: RwSignal<Option<u32>>,
    switch: impl Fn(ModelSource) + Copy + Send + Sync + 'static,
    inspection: RwSignal<Option<Result<Inspection, String>>>,
) -> impl IntoView {
    let role = RwSignal::new(Role::Llm);
    let url = RwSignal::new(String::new());
    let pooling = RwSignal::new("mean".to_string());
    let checking = RwSignal::new(false);
    // Files chosen from this computer (name, size); when there are any, the address is
    // not used.
    let chosen = RwSignal::new(Vec::<(String, u64)>::new());
    let pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
        else {
            return;
        };
        let files: Vec<web_sys::File> = input
            .files()
            .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
            .unwrap_or_default();
        client::offer_files(&files);
        chosen.set(files.iter().map(|f| (f.name(), f.size() as u64)).collect());
        inspection.set(None);
    };
    let check = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if checking.get_untracked() {
            return;
        }
        inspection.set(None);
        let files = chosen.get_untracked();
        let (role, pooling) = (role.get_untracked(), pooling.get_untracked());
        let source = match files.is_empty() {
            true => ModelSource::from_url(role, &url.get_untracked(), &pooling),
            false => ModelSource::from_files(role, &files, &pooling),
        };
        let source = match source {
            Ok(s) => s,
            Err(message) => {
                inspection.set(Some(Err(message)));
                return;
            }
        };
        checking.set(true);
        spawn_local(async move {
            inspection.set(Some(client::inspect(&source).await));
            checking.set(false);
        });
    };
    let found = move || {
        inspection.get().map(|i| match i {
            Err(message) => view! { <p class="bad" role="alert" data-testid="model-inspection" data-state="error">{message}</p> }.into_any(),
            Ok(i) => {
                let f = &i.footprint;
                let fits = i.problems.is_empty();
                let files = i.source.files.len();
                let size = i.source.size().map(human_size).unwrap_or_else(|| "size unknown".into());
                let download = match i.download_bytes {
                    0 => "already stored in this browser".to_string(),
                    n => format!("{} to download", human_size(n)),
                };
                let weights = match i.precision.as_str() {
                    "q8" => "8-bit weights",
                    _ => "f32 weights",
                };
                let (place, limit) = match i.backend.as_str() {
                    "webgpu" => ("on the GPU", i.max_buffer.map(|m| format!(" of the {} one buffer may hold", human_size(m))).unwrap_or_default()),
                    _ => ("in memory", String::new()),
                };
                let per_token = match f.bytes_per_token {
                    0 => String::new(),
                    n => format!(", plus {} per token of context", human_size(n)),
                };
                let cost = format!(
                    "Here ({}, {weights}): about {} {place}{per_token}; largest buffer {} ({}){limit}; about {} of this tab's memory while loading.",
                    i.backend, human_size(f.device_bytes), human_size(f.largest_buffer), f.largest_name, human_size(f.host_bytes)
                );
                let problems = i.problems.iter().map(|p| view! { <li class="bad" data-testid="model-problem">{p.clone()}</li> }).collect_view();
                let warnings = i.warnings.iter().map(|w| view! { <li class="notice">{w.clone()}</li> }).collect_view();
                let source = i.source.clone();
                view! {
                    <div data-testid="model-inspection" data-state=if fits { "fits" } else { "too-big" }
                        data-size=i.source.size().unwrap_or(0).to_string() data-download=i.download_bytes.to_string()
                        data-architecture=i.architecture.clone() data-parameters=f.parameters.to_string()>
                        <p>
                            <strong>{i.source.name.clone()}</strong>
                            {format!(" — {} · {} parameters · {files} file{} · {size} · {download}", i.architecture, count(f.parameters), if files == 1 { "" } else { "s" })}
                        </p>
                        <p class="hint">{i.description.clone()}</p>
                        <p class="hint">{cost}</p>
                        <ul class="problems">{problems}{warnings}</ul>
                        <button
                            type="button"
                            data-testid="model-use"
                            disabled=move || !fits || running.get().is_some()
                            on:click=move |_| switch(source.clone())
                        >
                            "Download and use"
                        </button>
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <details class="another-model" data-testid="another-model">
            <summary>"Use another model"</summary>
            <form on:submit=check>
                <label>
                    "For the "
                    <select data-testid="model-role" on:change=move |ev| {
                        role.set(match event_target_value(&ev).as_str() {
                            "embedder" => Role::Embedder,
                            _ => Role::Llm,
                        });
                        inspection.set(None);
                    }>
                        <option value="llm" selected=true>"language model (a Llama or Qwen2 GGUF file)"</option>
                        <option value="embedder">"sentence embedder (a BERT-family folder)"</option>
                    </select>
                </label>
                <label class="wide">
                    "Address "
                    <input
                        type="text"
                        data-testid="model-url"
                        spellcheck="false"
                        placeholder=move || match role.get() {
                            Role::Llm => "https://huggingface.co/…/resolve/main/model.Q8_0.gguf",
                            Role::Embedder => "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/",
                        }
                        prop:value=move || url.get()
                        on:input=move |ev| url.set(event_target_value(&ev))
                    />
                </label>
                {move || (role.get() == Role::Embedder).then(|| view! {
                    <label>
                        "Pooling "
                        <select data-testid="model-pooling" on:change=move |ev| pooling.set(event_target_value(&ev))>
                            <option value="mean" selected=true>"mean (sentence-transformers)"</option>
                            <option value="cls">"CLS token (bge, e5)"</option>
                        </select>
                    </label>
                })}
                <label>
                    "or files from this computer "
                    <input type="file" multiple=true accept=".gguf,.json,.safetensors" data-testid="model-files" data-chosen=move || chosen.get().len().to_string() on:change=pick />
                </label>
                <button type="submit" data-testid="model-check" disabled=move || checking.get()>
                    {move || if checking.get() { "Checking…" } else { "Check" }}
                </button>
            </form>
            <p class="hint">
                "The language model reads GGUF files of F32, F16, Q8_0, Q4_0 or Q4_1 tensors; the "
                "embedder needs config.json, model.safetensors and tokenizer.json in one folder. "
                "Checking reads only the file's size and header; nothing is downloaded until you "
                "say so. Files from this computer are read here and never uploaded. This site may "
                "fetch models from itself and from huggingface.co."
            </p>
            {found}
        </details>
    }
}

/// A parameter count as people write it: `134.5 M`, `1.5 B`, `9504`.
fn count(n: u64) -> String {
    match n {
        0..1_000_000 => n.to_string(),
        1_000_000..1_000_000_000 => format!("{:.1} M", n as f64 / 1e6),
        _ => format!("{:.1} B", n as f64 / 1e9),
    }
}

/// The models this site ships, with their files and sizes.
#[component]
fn Shipped(manifest: ReadSignal<Option<Result<Manifest, String>>>) -> impl IntoView {
    move || {
        match manifest.get() {
        None => view! { <p data-testid="models" data-state="pending">"Reading the model list…"</p> }.into_any(),
        Some(Err(message)) => view! {
            <p data-testid="models" data-state="error" class="bad">{message}</p>
        }
        .into_any(),
        Some(Ok(m)) => view! {
            <ul data-testid="models" data-state="ready" class="models">
                {m.models
                    .into_iter()
                    .map(|model| {
                        let bytes = model.size();
                        let size = human_size(bytes);
                        let detail = format!("{} · {} · {}", model.role, model.architecture, model.format);
                        let files = model
                            .files
                            .into_iter()
                            .map(|f| {
                                view! {
                                    <li>
                                        <code>{f.name}</code> " " {human_size(f.size)}
                                        " · sha256 " <code class="hash">{f.sha256}</code>
                                    </li>
                                }
                            })
                            .collect_view();
                        view! {
                            <li data-model=model.id data-size=bytes.to_string()>
                                <strong>{model.name}</strong>
                                " — " {detail} " — " <span class="size">{size}</span>
                                <details>
                                    <summary>"Files"</summary>
                                    <ul class="files">{files}</ul>
                                </details>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
        .into_any(),
    }
    }
}
