//! The page: compute status with its self-check, and the models this site ships.
//!
//! Elements carry `data-testid` / `data-state` attributes so the browser tests read the
//! same thing the user sees.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::compute::{self, ComputeStatus};
use crate::models::{self, human_size, Manifest};
use engine::compute::check::TOLERANCE;

#[component]
pub fn App() -> impl IntoView {
    let (status, set_status) = signal(None::<ComputeStatus>);
    let (manifest, set_manifest) = signal(None::<Result<Manifest, String>>);
    spawn_local(async move { set_status.set(Some(compute::start().await)) });
    spawn_local(async move { set_manifest.set(Some(models::fetch_manifest().await)) });

    view! {
        <header class="masthead">
            <h1>"gatepath"</h1>
            <p class="tagline">
                "Biomedical questions answered from your own documents, privately: "
                "every step runs in this browser tab."
            </p>
        </header>
        <main>
            <ComputePanel status=status />
            <ModelsPanel manifest=manifest />
        </main>
    }
}

#[component]
fn ComputePanel(status: ReadSignal<Option<ComputeStatus>>) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="compute-title">
            <h2 id="compute-title">"Compute"</h2>
            {move || match status.get() {
                None => view! {
                    <p data-testid="backend" data-backend="pending">"Looking for a GPU…"</p>
                }
                .into_any(),
                Some(s) => view! { <ComputeReport status=s /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn ComputeReport(status: ComputeStatus) -> impl IntoView {
    let backend_id = status.backend.id();
    let backend_line = format!("Backend: {}", status.backend);
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
        Ok(summary) => {
            let v = &summary.verification;
            let passed = v.passed();
            let shape = format!(
                "softmax(A·B), {}×{} · {}×{}",
                summary.input.m, summary.input.k, summary.input.k, summary.input.n
            );
            let against = if v.backend.id() == "cpu" {
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
                        "Self-check {verdict}: {shape} on {}: {against} (tolerance {TOLERANCE:.0e}), {:.0} ms.",
                        v.backend, summary.millis
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

#[component]
fn ModelsPanel(manifest: ReadSignal<Option<Result<Manifest, String>>>) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="models-title">
            <h2 id="models-title">"Models"</h2>
            {move || match manifest.get() {
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
                                let detail = format!(
                                    "{} · {} · {}",
                                    model.role, model.architecture, model.format
                                );
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
            }}
            <p class="hint">"Models are downloaded from this site only when a step needs them."</p>
        </section>
    }
}
