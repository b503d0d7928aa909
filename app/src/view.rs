//! The page: compute status with its self-check, the ask view, the models this site
//! ships, and what the browser stores for it.
//!
//! Elements carry `data-testid` / `data-state` attributes so the browser tests read the
//! same thing the user sees.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::ask::AskPanel;
use crate::client;
use crate::manage::ModelsPanel;
use crate::results::ResultsPage;
use gatepath_app::manifest::{self, human_size, Manifest};
use gatepath_app::protocol::{CacheSummary, Status};
use gatepath_app::route::{Route, DEFAULT_BUNDLE};

/// Bumped whenever a request may have changed what the worker caches, so the storage
/// panel reads it again.
#[derive(Clone, Copy)]
pub struct CacheChanges(pub RwSignal<u32>);

impl CacheChanges {
    /// The app's counter, read while a component is created (tasks have no context).
    pub fn find() -> Option<CacheChanges> {
        use_context::<CacheChanges>()
    }

    /// Says the cache may have changed.
    pub fn bump(self) {
        self.0.update(|n| *n += 1);
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_context(CacheChanges(RwSignal::new(0)));
    let (status, set_status) = signal(None::<Result<Status, String>>);
    let (manifest, set_manifest) = signal(None::<Result<Manifest, String>>);
    let route = RwSignal::new(current_route());
    let _ = window_event_listener(leptos::ev::hashchange, move |_| route.set(current_route()));
    // The worker (compute backend, models) starts when the ask view is first shown, or
    // when the results viewer runs questions: looking at results needs none.
    let worker = WorkerStart {
        started: StoredValue::new(false),
        status,
        set_status,
        set_manifest,
    };
    provide_context(worker);
    Effect::new(move |_| {
        if !route.get().is_results() {
            worker.ensure();
        }
    });
    let on_results = move || route.get().is_results();
    let bundle_url = Signal::derive(move || match route.get() {
        Route::Results { bundle } => bundle,
        Route::Ask => DEFAULT_BUNDLE.to_string(),
    });

    view! {
        <header class="masthead">
            <h1>"gatepath"</h1>
            <p class="tagline">
                "Biomedical questions answered from your own documents, privately: "
                "every step runs in this browser tab."
            </p>
            <nav class="views">
                <a href="#/" data-testid="nav-ask" aria-current=move || (!on_results()).then_some("page")>"Ask your documents"</a>
                <a href="#/results" data-testid="nav-results" aria-current=move || on_results().then_some("page")>"Benchmark results"</a>
            </nav>
        </header>
        // The ask view stays mounted while the results are shown, so coming back finds
        // the documents, the answer and the models as they were.
        <main hidden=on_results>
            <AskPanel status=status />
            <ComputePanel status=status />
            <ModelsPanel manifest=manifest status=status />
            <StoragePanel status=status />
        </main>
        {move || on_results().then(|| view! { <main><ResultsPage bundle_url=bundle_url /></main> })}
    }
}

/// Starts the worker once, for whichever view needs it first.
#[derive(Clone, Copy)]
pub struct WorkerStart {
    started: StoredValue<bool>,
    /// The backend and its self-check, once the worker reports them.
    pub status: ReadSignal<Option<Result<Status, String>>>,
    set_status: WriteSignal<Option<Result<Status, String>>>,
    set_manifest: WriteSignal<Option<Result<Manifest, String>>>,
}

impl WorkerStart {
    /// Starts the worker (and reads the model manifest) unless that was done.
    pub fn ensure(self) {
        if self.started.get_value() {
            return;
        }
        self.started.set_value(true);
        let (set_status, set_manifest) = (self.set_status, self.set_manifest);
        client::start(cpu_requested(), move |s| set_status.set(Some(s)));
        spawn_local(async move { set_manifest.set(Some(manifest::fetch_manifest().await)) });
    }
}

/// The route the page's URL names now.
fn current_route() -> Route {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    Route::parse(&hash)
}

/// `?backend=cpu` in the URL forces the CPU (useful when a GPU driver misbehaves).
fn cpu_requested() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| {
            q.trim_start_matches('?')
                .split('&')
                .any(|kv| kv == "backend=cpu")
        })
}

#[component]
fn ComputePanel(status: ReadSignal<Option<Result<Status, String>>>) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="compute-title">
            <h2 id="compute-title">"Compute"</h2>
            {move || match status.get() {
                None => view! {
                    <p data-testid="backend" data-backend="pending">"Looking for a GPU…"</p>
                }
                .into_any(),
                Some(Err(message)) => view! {
                    <p data-testid="backend" data-backend="error" class="bad">{message}</p>
                }
                .into_any(),
                Some(Ok(s)) => view! { <ComputeReport status=s /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn ComputeReport(status: Status) -> impl IntoView {
    let backend_id = status.backend.clone();
    let backend_line = format!("Backend: {}", status.backend_label);
    let adapter = status.adapter.filter(|_| backend_id == "webgpu").map(|a| {
        let name = if a.description.is_empty() {
            "undisclosed".into()
        } else {
            a.description
        };
        view! {
            <p data-testid="adapter" class="detail">
                {format!(
                    "Adapter: {name}; largest buffer {}, largest storage binding {}.",
                    human_size(a.max_buffer_size as u64),
                    human_size(a.max_storage_binding as u64)
                )}
            </p>
        }
    });
    let fallback = status.fallback_reason.map(|reason| {
        view! {
            <p class="notice" data-testid="fallback-reason">
                "WebGPU is not in use — running on the CPU instead. Reason: " {reason}
            </p>
        }
    });
    let check = match status.check {
        Ok(v) => {
            let passed = v.passed;
            let against = if backend_id == "cpu" {
                format!(
                    "max |Δ| to an f64 reference = {:.1e}",
                    v.reference_max_abs_diff
                )
            } else {
                format!(
                    "max |Δ| to the CPU backend = {:.1e}, to an f64 reference = {:.1e}",
                    v.cpu_max_abs_diff, v.reference_max_abs_diff
                )
            };
            let verdict = if passed { "passed" } else { "FAILED" };
            let first_row: Vec<String> =
                v.values.iter().take(8).map(|x| format!("{x:.5}")).collect();
            let values_json = serde_json::to_string(&v.values).unwrap_or_default();
            view! {
                <p
                    data-testid="selfcheck"
                    data-state=if passed { "passed" } else { "failed" }
                    data-cpu-max-abs-diff=v.cpu_max_abs_diff.to_string()
                    data-reference-max-abs-diff=v.reference_max_abs_diff.to_string()
                    data-values=values_json
                    class=if passed { "ok" } else { "bad" }
                >
                    {format!(
                        "Self-check {verdict}: {} on {}: {against} (tolerance {:.0e}), {:.0} ms.",
                        v.shape, status.backend_label, v.tolerance, v.millis
                    )}
                </p>
                <p class="values">"First row: " <code>{first_row.join("  ")}</code></p>
            }
            .into_any()
        }
        Err(message) => view! {
            <p data-testid="selfcheck" data-state="error" class="bad">
                "Self-check could not run: " {message}
            </p>
        }
        .into_any(),
    };
    view! {
        <p data-testid="backend" data-backend=backend_id class="backend">{backend_line}</p>
        {adapter}
        {fallback}
        {check}
    }
}

/// What the browser keeps for this site (model files, embeddings, read documents), with
/// a way to clear it.
#[component]
fn StoragePanel(status: ReadSignal<Option<Result<Status, String>>>) -> impl IntoView {
    let summary = RwSignal::new(None::<Result<CacheSummary, String>>);
    let busy = RwSignal::new(false);
    let refresh = move |clear: bool| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        spawn_local(async move {
            let result = match clear {
                true => client::clear_cache().await,
                false => client::cache().await,
            };
            summary.set(Some(result));
            busy.set(false);
        });
    };
    // Read once the worker is up, and again after each request that may have cached.
    let changes = use_context::<CacheChanges>();
    Effect::new(move |_| {
        if let Some(c) = changes {
            c.0.track();
        }
        if matches!(status.get(), Some(Ok(_))) {
            refresh(false);
        }
    });
    let body = move || {
        summary.get().map(|s| match s {
            Err(message) => {
                view! { <p class="bad" data-testid="storage" data-state="error">{message}</p> }
                    .into_any()
            }
            Ok(s) => {
                let total: u64 = s.stores.iter().map(|st| st.entries).sum();
                let usage = if s.quota_bytes > 0.0 {
                    format!(
                        "{} used of {} this browser allows the site",
                        human_size(s.usage_bytes as u64),
                        human_size(s.quota_bytes as u64)
                    )
                } else {
                    String::new()
                };
                let stores = s
                    .stores
                    .into_iter()
                    .map(|st| {
                        let label = match st.name.as_str() {
                            "files" => "model files",
                            "embeddings" => "sentence embeddings",
                            "extractions" => "read document sets",
                            other => other,
                        }
                        .to_string();
                        let files = st
                            .files
                            .into_iter()
                            .map(|f| view! { <li><code>{f}</code></li> })
                            .collect_view();
                        view! {
                            <li data-store=st.name.clone() data-entries=st.entries.to_string()>
                                {label} ": " {st.entries}
                                <ul class="files">{files}</ul>
                            </li>
                        }
                    })
                    .collect_view();
                let note = s
                    .note
                    .map(|n| view! { <p class="notice" data-testid="storage-note">{n}</p> });
                view! {
                    <div data-testid="storage" data-state="ready" data-entries=total.to_string()>
                        <ul class="stores">{stores}</ul>
                        <p class="hint">{usage}</p>
                        {note}
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="panel" aria-labelledby="storage-title">
            <h2 id="storage-title">"Stored in this browser"</h2>
            <p class="hint">
                "Model files (checked against their sha256 each time they are read), sentence "
                "embeddings and the documents you read are kept in this browser so the next "
                "visit is fast. Nothing here leaves the browser."
            </p>
            {body}
            <p class="actions">
                <button type="button" data-testid="storage-refresh" disabled=move || busy.get() on:click=move |_| refresh(false)>
                    "Refresh"
                </button>
                <button type="button" data-testid="storage-clear" disabled=move || busy.get() on:click=move |_| refresh(true)>
                    "Clear"
                </button>
            </p>
        </section>
    }
}
