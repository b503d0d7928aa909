//! One progress bar for a request to the worker: its steps, the first of which fills
//! with the bytes of model files as they load, with a button that cancels the request
//! (when the request can be cancelled).

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
    /// `None`: the request cannot be cancelled, and the bar has no button.
    cancel_testid: Option<&'static str>,
) -> impl IntoView {
    move || {
        running.get().map(|_| {
            let p = progress.get();
            let (value, label) = measure(p.as_ref());
            let step = p.as_ref().map_or(0, |p| p.done + 1);
            let cancel = cancel_testid.map(|testid| {
                view! {
                    <button
                        type="button"
                        data-testid=testid
                        on:click=move |_| {
                            if let Some(id) = running.get_untracked() {
                                client::cancel(id);
                            }
                        }
                    >
                        "Cancel"
                    </button>
                }
            });
            view! {
                <div class="progress" data-testid=testid data-step=step.to_string()>
                    <progress max=SCALE.to_string() value=value.to_string()></progress>
                    <span>{label} "…"</span>
                    {cancel}
                </div>
            }
        })
    }
}

/// The bar's maximum: steps and bytes become a share of it.
const SCALE: u64 = 1000;

/// The bar's value (of [`SCALE`]) and its words: each step an equal share, the first
/// filled by bytes while model files load.
fn measure(p: Option<&Progress>) -> (u64, String) {
    let Some(p) = p else {
        return (0, "starting".into());
    };
    let total = p.total.max(1);
    let loading = p.bytes_total > 0 && p.done == 0;
    let within = match loading {
        true => p.bytes_done.min(p.bytes_total) as f64 / p.bytes_total as f64,
        false => 0.0,
    };
    let value = ((p.done.min(total) as f64 + within) / total as f64 * SCALE as f64) as u64;
    let bytes = match loading {
        true => format!(
            ", {} of {}",
            human_size(p.bytes_done),
            human_size(p.bytes_total)
        ),
        false => String::new(),
    };
    let label = format!("{} (step {} of {}{bytes})", p.stage, p.done + 1, p.total);
    (value, label)
}
