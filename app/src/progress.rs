//! One progress bar for a request to the worker: the bytes of model files while they
//! load, the steps otherwise, with a button that cancels the request.

use gatepath_app::manifest::human_size;
use gatepath_app::protocol::Progress;
use leptos::prelude::*;

use crate::client;

/// Shown while `running` holds a request id; `testid` names the bar and
/// `cancel_testid` its button for the browser tests.
#[component]
pub fn ProgressBar(
    running: RwSignal<Option<u32>>,
    progress: RwSignal<Option<Progress>>,
    testid: &'static str,
    cancel_testid: &'static str,
) -> impl IntoView {
    move || {
        running.get().map(|_| {
            let (done, total, label) = measure(progress.get());
            view! {
                <div class="progress" data-testid=testid>
                    <progress max=total.to_string() value=done.to_string()></progress>
                    <span>{label} "…"</span>
                    <button
                        type="button"
                        data-testid=cancel_testid
                        on:click=move |_| {
                            if let Some(id) = running.get_untracked() {
                                client::cancel(id);
                            }
                        }
                    >
                        "Cancel"
                    </button>
                </div>
            }
        })
    }
}

/// Value, maximum and words for a progress report.
fn measure(p: Option<Progress>) -> (u64, u64, String) {
    match p {
        Some(p) if p.bytes_total > 0 => (
            p.bytes_done,
            p.bytes_total,
            format!(
                "{} ({} of {})",
                p.stage,
                human_size(p.bytes_done),
                human_size(p.bytes_total)
            ),
        ),
        Some(p) => (
            p.done,
            p.total.max(1),
            format!("{} (step {} of {})", p.stage, p.done + 1, p.total),
        ),
        None => (0, 1, "starting".into()),
    }
}
