//! The ask view: documents (pasted, dropped or opened as .txt/.md files, or a sample
//! set), a question, the answer with its citations (a click shows the sentence in its
//! document), the condition table L as chips the user flips (the worker re-gates
//! without running a model), the gated-path view and exports.

use gatepath_app::protocol::{
    AnswerView, Ask, Citation, ConditionValue, DocumentIn, Path, Progress, Regate, Status, TableRow,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use wasm_bindgen::JsCast;

use crate::client;
use crate::explain::ExplainPanel;
use crate::graph::GatedGraph;
use crate::progress::ProgressBar;
use crate::save::download;
use crate::strategy::{StrategyPanel, StrategyPicker};
use crate::view::CacheChanges;
use gatepath_app::export;

const SAMPLES: &str = "public/samples/paper-examples.json";

/// Largest file the page reads (a larger one is refused with a message).
const MAX_FILE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

#[derive(Debug, Clone, Deserialize)]
struct Samples {
    sets: Vec<SampleSet>,
}

#[derive(Debug, Clone, Deserialize)]
struct SampleSet {
    id: String,
    title: String,
    documents: Vec<DocumentIn>,
    question: String,
}

#[component]
pub fn AskPanel(status: ReadSignal<Option<Result<Status, String>>>) -> impl IntoView {
    let documents = RwSignal::new(Vec::<DocumentIn>::new());
    let question = RwSignal::new(String::new());
    let patient = RwSignal::new(String::new());
    let strategy = RwSignal::new("cgr".to_string());
    let with_llm = RwSignal::new(false);
    let samples = RwSignal::new(None::<Result<Vec<SampleSet>, String>>);
    let running = RwSignal::new(None::<u32>);
    let progress = RwSignal::new(None::<Progress>);
    let result = RwSignal::new(None::<Result<AnswerView, String>>);
    let highlight = RwSignal::new(None::<Citation>);
    let regating = RwSignal::new(false);
    let notice = RwSignal::new(None::<String>);
    let cache_changes = CacheChanges::find();

    spawn_local(async move {
        let loaded = async {
            let response = gloo_net::http::Request::get(SAMPLES)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            response
                .json::<Samples>()
                .await
                .map(|s| s.sets)
                .map_err(|e| e.to_string())
        }
        .await;
        samples.set(Some(loaded));
    });

    let ready = move || matches!(status.get(), Some(Ok(_)));
    let ask = move || {
        if running.get_untracked().is_some() {
            return;
        }
        let request = Ask {
            documents: documents.get_untracked(),
            question: question.get_untracked(),
            patient: patient.get_untracked(),
            conditions: Vec::new(),
            strategy: strategy.get_untracked(),
            with_llm: with_llm.get_untracked(),
            yes_no: false,
        };
        let id = client::next_id();
        running.set(Some(id));
        highlight.set(None);
        progress.set(None);
        spawn_local(async move {
            let answer = client::ask(&request, move |p| progress.set(Some(p))).await;
            result.set(Some(answer));
            running.set(None);
            if let Some(c) = cache_changes {
                c.bump();
            }
        });
    };
    let flip = move |row: TableRow| {
        let Some(Ok(current)) = result.get_untracked() else {
            return;
        };
        if regating.get_untracked() || running.get_untracked().is_some() {
            return;
        }
        let conditions: Vec<ConditionValue> = current
            .table
            .iter()
            .map(|r| ConditionValue {
                phrase: r.phrase.clone(),
                truth: if r.phrase == row.phrase {
                    r.truth.next()
                } else {
                    r.truth
                },
            })
            .collect();
        regating.set(true);
        spawn_local(async move {
            let answer = client::regate(&Regate { conditions }).await;
            result.set(Some(answer));
            regating.set(false);
        });
    };
    let add_files = move |files: web_sys::FileList| {
        for i in 0..files.length() {
            let Some(file) = files.get(i) else { continue };
            let name = file.name();
            if file.size() > MAX_FILE_BYTES {
                notice.set(Some(format!(
                    "{name} is larger than {} MB; split it or paste the part you need.",
                    MAX_FILE_BYTES / (1024.0 * 1024.0)
                )));
                continue;
            }
            spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(text) => {
                        let text = text.as_string().unwrap_or_default();
                        documents.update(|d| d.push(DocumentIn { name, text }));
                    }
                    Err(_) => notice.set(Some(format!("{name} could not be read as text."))),
                }
            });
        }
    };

    let sample_buttons = move || match samples.get() {
        None => view! { <span class="hint">"Loading samples…"</span> }.into_any(),
        Some(Err(e)) => view! { <span class="bad">"Samples unavailable: " {e}</span> }.into_any(),
        Some(Ok(sets)) => sets
            .into_iter()
            .map(|set| {
                let SampleSet {
                    id,
                    title,
                    documents: docs,
                    question: q,
                } = set;
                view! {
                    <button
                        type="button"
                        data-testid="sample"
                        data-sample=id
                        on:click=move |_| {
                            documents.set(docs.clone());
                            question.set(q.clone());
                            patient.set(String::new());
                            result.set(None);
                            highlight.set(None);
                        }
                    >
                        {title}
                    </button>
                }
            })
            .collect_view()
            .into_any(),
    };

    let document_list = move || {
        documents
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, doc)| {
                view! {
                    <div class="doc" data-testid="document">
                        <input
                            class="doc-name"
                            aria-label="Document name"
                            prop:value=doc.name.clone()
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                documents.update(|d| if let Some(x) = d.get_mut(i) { x.name = v });
                            }
                        />
                        <textarea
                            data-testid="doc-text"
                            aria-label="Document text"
                            rows="4"
                            prop:value=doc.text.clone()
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                documents.update(|d| if let Some(x) = d.get_mut(i) { x.text = v });
                            }
                        ></textarea>
                        <button
                            type="button"
                            class="remove"
                            aria-label="Remove this document"
                            on:click=move |_| documents.update(|d| { if i < d.len() { d.remove(i); } })
                        >
                            "Remove"
                        </button>
                    </div>
                }
            })
            .collect_view()
    };

    let busy = Signal::derive(move || running.get().is_some() || regating.get());
    let answer_view = move || {
        result.get().map(|r| match r {
            Err(message) => view! {
                <p class="bad" data-testid="ask-error" role="alert">{message}</p>
            }
            .into_any(),
            Ok(view) => view! {
                <AnswerBlock view=view highlight=highlight flip=flip regating=regating documents=documents busy=busy />
            }
            .into_any(),
        })
    };

    view! {
        <section class="panel ask" aria-labelledby="ask-title" data-testid="ask">
            <h2 id="ask-title">"Ask your documents"</h2>
            <p class="samples">"Try a sample: " {sample_buttons}</p>
            <div
                class="documents"
                data-testid="documents"
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    if let Some(files) = ev.data_transfer().and_then(|t| t.files()) {
                        add_files(files);
                    }
                }
            >
                {document_list}
                <p class="hint">
                    "Drop .txt or .md files here, "
                    <label class="file">
                        "open files"
                        <input
                            type="file"
                            multiple
                            accept=".txt,.md,text/plain,text/markdown"
                            data-testid="files"
                            on:change=move |ev| {
                                let input = ev
                                    .target()
                                    .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
                                if let Some(files) = input.as_ref().and_then(|i| i.files()) {
                                    add_files(files);
                                }
                                if let Some(i) = input {
                                    i.set_value("");
                                }
                            }
                        />
                    </label>
                    ", or "
                    <button
                        type="button"
                        data-testid="add-document"
                        on:click=move |_| documents.update(|d| {
                            let name = format!("document {}.txt", d.len() + 1);
                            d.push(DocumentIn { name, text: String::new() });
                        })
                    >
                        "add one to paste into"
                    </button>
                    "."
                </p>
                {move || notice.get().map(|n| view! { <p class="notice">{n}</p> })}
            </div>
            <form
                class="question"
                on:submit=move |ev| {
                    ev.prevent_default();
                    ask();
                }
            >
                <label for="question">"Question"</label>
                <input
                    id="question"
                    data-testid="question"
                    placeholder="e.g. What antibiotic is recommended for Lyme disease in a pregnant patient?"
                    prop:value=move || question.get()
                    on:input=move |ev| question.set(event_target_value(&ev))
                />
                <button
                    type="submit"
                    data-testid="ask-button"
                    disabled=move || !ready() || running.get().is_some() || documents.get().is_empty()
                >
                    "Ask"
                </button>
                <label for="patient">"About the patient (optional)"</label>
                <input
                    id="patient"
                    data-testid="patient"
                    placeholder="e.g. not pregnant; eGFR 25; penicillin allergy"
                    prop:value=move || patient.get()
                    on:input=move |ev| patient.set(event_target_value(&ev))
                />
                <StrategyPicker strategy=strategy with_llm=with_llm />
            </form>
            <ProgressBar running=running progress=progress testid="progress" cancel_testid=Some("cancel") />
            {answer_view}
        </section>
    }
}

/// A chip's tooltip: the condition, its value for this patient, and what the question
/// implied when the user changed it.
pub fn chip_title(row: &TableRow, clickable: bool) -> String {
    format!(
        "{}: {} for this patient{}{}",
        row.phrase,
        row.truth.id(),
        if row.truth != row.evaluated {
            format!(" (the question implied {})", row.evaluated.id())
        } else {
            String::new()
        },
        if clickable {
            " — click to change"
        } else {
            ""
        }
    )
}

/// The document a citation comes from, its sentence marked.
pub fn source_document(citation: &Citation, text: &str) -> impl IntoView {
    let start = citation.start.min(text.len());
    let end = citation.end.clamp(start, text.len());
    let (before, marked, after) = match (text.get(..start), text.get(start..end), text.get(end..)) {
        (Some(a), Some(b), Some(c)) => (a.to_string(), b.to_string(), c.to_string()),
        _ => (text.to_string(), String::new(), String::new()),
    };
    view! {
        <figure class="source" data-testid="source-doc" data-doc=citation.doc_name.clone()>
            <figcaption>{citation.doc_name.clone()}</figcaption>
            <p>{before}<mark data-testid="source-mark">{marked}</mark>{after}</p>
        </figure>
    }
}

/// The evidence paths as list items, best first.
pub fn path_items(paths: &[Path]) -> impl IntoView {
    paths
        .iter()
        .map(|p| view! { <li>{path_line(p)}</li> })
        .collect_view()
}

/// An evidence path in one line: "amoxicillin —treats→ Lyme disease".
fn path_line(path: &Path) -> String {
    let mut line = path.nodes.first().cloned().unwrap_or_default();
    for (e, n) in path.edges.iter().zip(path.nodes.iter().skip(1)) {
        line.push_str(&format!(" —{}→ {}", e.relation.replace('_', " "), n));
    }
    line
}

#[component]
fn AnswerBlock(
    view: AnswerView,
    highlight: RwSignal<Option<Citation>>,
    flip: impl Fn(TableRow) + Copy + Send + Sync + 'static,
    regating: RwSignal<bool>,
    documents: RwSignal<Vec<DocumentIn>>,
    /// Whether a request holds the worker (the explain button waits for it).
    busy: Signal<bool>,
) -> impl IntoView {
    let (text, state) = match &view.answer {
        Some(a) => (a.clone(), "answered"),
        None => (
            "Insufficient evidence in these documents.".to_string(),
            "insufficient",
        ),
    };
    let citations = view
        .citations
        .iter()
        .cloned()
        .map(|c| {
            let label = format!("{} — {}", c.text, c.doc_name);
            view! {
                <li>
                    <button
                        type="button"
                        class="citation"
                        data-testid="citation"
                        on:click=move |_| highlight.set(Some(c.clone()))
                    >
                        {label}
                    </button>
                </li>
            }
        })
        .collect_view();
    let chips = view
        .table
        .iter()
        .cloned()
        .map(|row| {
            let changed = row.truth != row.evaluated;
            let title = chip_title(&row, true);
            view! {
                <button
                    type="button"
                    class=format!("chip {}{}", row.truth.id(), if changed { " changed" } else { "" })
                    data-testid="chip"
                    data-phrase=row.phrase.clone()
                    data-truth=row.truth.id()
                    title=title
                    disabled=move || regating.get()
                    on:click=move |_| flip(row.clone())
                >
                    <span class="phrase">{row.phrase.clone()}</span>
                    <span class="truth">{row.truth.id()}</span>
                </button>
            }
        })
        .collect_view();
    let paths = path_items(&view.paths);
    let source = move || {
        highlight.get().map(|c| {
            let docs = documents.get_untracked();
            let text = docs.get(c.doc).map(|d| d.text.clone()).unwrap_or_default();
            source_document(&c, &text)
        })
    };
    let work = if view.embedded == 0 {
        "no model ran".to_string()
    } else {
        format!("{} texts embedded by {}", view.embedded, view.embedder)
    };
    let summary = format!(
        "{} documents, {} statements, {} edges · {:.0} ms · {work}",
        view.documents, view.tuples, view.graph_edges, view.millis
    );
    let embedder_note = view.embedder_note.clone().map(|n| {
        view! {
            <p class="notice" data-testid="embedder-note">
                "The sentence embedder could not load, so paths were ranked by shared words instead: "
                {n}
            </p>
        }
    });
    let cache = &view.cache;
    let cache_line = {
        let mut parts = Vec::new();
        if cache.files_cached + cache.files_fetched > 0 {
            parts.push(format!(
                "model files: {} from this browser's cache, {} downloaded",
                cache.files_cached, cache.files_fetched
            ));
        }
        if cache.language_files_cached + cache.language_files_fetched > 0 {
            parts.push(format!(
                "language resources: {} from this browser's cache, {} downloaded",
                cache.language_files_cached, cache.language_files_fetched
            ));
        }
        if cache.files_repaired > 0 {
            parts.push(format!(
                "{} damaged cached file(s) replaced",
                cache.files_repaired
            ));
        }
        if cache.extraction_cached {
            parts.push("documents read before".into());
        }
        if cache.embeddings_cached > 0 {
            parts.push(format!(
                "{} embeddings from the cache",
                cache.embeddings_cached
            ));
        }
        parts.join(" · ")
    };
    let cache_note = cache.note.clone().map(|n| {
        view! { <p class="notice" data-testid="cache-note">{n}</p> }
    });
    let language_note = cache.language_note.clone().map(|n| {
        view! {
            <p class="notice" data-testid="language-note">
                "The tagger and drug lexicon could not load, so sentences were split at punctuation and function words instead: "
                {n}
            </p>
        }
    });
    let export_view = view.clone();
    view! {
        <div class="answer" data-testid="answer" data-state=state data-answer=view.answer.clone().unwrap_or_default()>
            <p class="answer-text"><span class="label">"Answer: "</span><strong>{text}</strong></p>
            <p class="hint" data-testid="answer-summary" data-embedded=view.embedded.to_string()>{summary}</p>
            {embedder_note}
            <p
                class="hint"
                data-testid="answer-cache"
                data-files-cached=cache.files_cached.to_string()
                data-files-fetched=cache.files_fetched.to_string()
                data-files-repaired=cache.files_repaired.to_string()
                data-extraction-cached=cache.extraction_cached.to_string()
                data-embeddings-cached=cache.embeddings_cached.to_string()
                data-language-cached=cache.language_files_cached.to_string()
                data-language-fetched=cache.language_files_fetched.to_string()
            >
                {cache_line}
            </p>
            {cache_note}
            {language_note}
            <h3>"Citations"</h3>
            <ol class="citations">{citations}</ol>
            {source}
            <h3>"Patient conditions"</h3>
            <p class="hint">"Each condition the documents attach to a statement, as it holds for this patient. Click one to change it: the answer is re-gated at once, without running a model."</p>
            <div class="chips" data-testid="chips">{chips}</div>
            <h3>"Gated paths"</h3>
            <GatedGraph view=view.clone() />
            <StrategyPanel view=view.strategy.clone() />
            <h3>"Evidence paths"</h3>
            <ol class="paths">{paths}</ol>
            <ExplainPanel busy=busy />
            <p class="exports">
                "Export: "
                <button type="button" data-testid="export-graph-json" on:click={
                    let v = export_view.clone();
                    move |_| download("gatepath-graph.json", "application/json", &export::graph_json(&v))
                }>"graph (JSON)"</button>
                <button type="button" data-testid="export-graphml" on:click={
                    let v = export_view.clone();
                    move |_| download("gatepath-graph.graphml", "application/graphml+xml", &export::graphml(&v))
                }>"graph (GraphML)"</button>
                <button type="button" data-testid="export-answer" on:click={
                    let v = export_view.clone();
                    move |_| download("gatepath-answer.json", "application/json", &export::answer_json(&v))
                }>"answer and evidence (JSON)"</button>
            </p>
        </div>
    }
}
