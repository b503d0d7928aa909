//! "Explain": the shipped LLM restates the answer's evidence in a few sentences, its
//! text appearing as the model writes it, with a button that stops it. The model sees
//! only what the answer shows (engine `explanation_messages`), and the page says which
//! model wrote the text and how long it took.

use gatepath_app::protocol::{Explain, Explanation, Progress};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::client;
use crate::progress::ProgressBar;
use crate::view::CacheChanges;

/// Tokens an explanation may take: three short sentences.
const MAX_TOKENS: usize = 96;

#[component]
pub fn ExplainPanel(
    /// Whether another request (asking, re-gating) holds the worker.
    busy: Signal<bool>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let running = RwSignal::new(None::<u32>);
    let progress = RwSignal::new(None::<Progress>);
    let outcome = RwSignal::new(None::<Result<Explanation, String>>);
    let cache_changes = CacheChanges::find();
    let start = move |_| {
        if running.get_untracked().is_some() {
            return;
        }
        text.set(String::new());
        outcome.set(None);
        progress.set(None);
        running.set(Some(client::next_id()));
        spawn_local(async move {
            let result = client::explain(
                &Explain {
                    max_tokens: MAX_TOKENS,
                },
                move |p| progress.set(Some(p)),
                move |piece| text.update(|t| t.push_str(&piece)),
            )
            .await;
            outcome.set(Some(result));
            running.set(None);
            if let Some(c) = cache_changes {
                c.bump();
            }
        });
    };
    let state = move || match (running.get(), outcome.get()) {
        (Some(_), _) => "writing",
        (None, None) => "idle",
        (None, Some(Err(_))) => "error",
        (None, Some(Ok(e))) if e.stop == "cancelled" => "cancelled",
        (None, Some(Ok(_))) => "done",
    };
    let detail = move || {
        outcome.get().map(|o| match o {
            Err(message) => view! { <p class="bad" role="alert">{message}</p> }.into_any(),
            Ok(e) => {
                let stopped = match e.stop.as_str() {
                    "cancelled" => " · stopped",
                    "length" => " · cut at the length limit",
                    "context" => " · the model's context is full",
                    _ => "",
                };
                let from = if e.model_from_cache { " (from this browser's cache)" } else { "" };
                view! {
                    <p class="hint" data-testid="explanation-detail" data-tokens=e.tokens.to_string() data-stop=e.stop.clone()>
                        {format!(
                            "Written by {}{from}, {} weights, {} tokens in {:.1} s{stopped}. \
                             A small model can still misread the facts: check them against the citations.",
                            e.model, e.precision, e.tokens, e.millis / 1000.0
                        )}
                    </p>
                }
                .into_any()
            }
        })
    };
    view! {
        <div class="explain" data-testid="explain" data-state=state>
            <button
                type="button"
                data-testid="explain-button"
                disabled=move || running.get().is_some() || busy.get()
                on:click=start
            >
                "Explain in words"
            </button>
            <span class="hint">" the language model chosen under Models restates the evidence above (downloaded once, then kept in this browser)"</span>
            <ProgressBar running=running progress=progress testid="explain-progress" cancel_testid=Some("explain-cancel") />
            <p class="explanation" data-testid="explanation" aria-live="polite">{move || text.get()}</p>
            {detail}
        </div>
    }
}
