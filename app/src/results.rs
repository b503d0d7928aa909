//! The benchmark viewer (`#/results`): a results bundle made by `gatepath bench-all`,
//! read from the site (`results/bundle.json.gz`, or `#/results?bundle=<relative URL>`) or
//! from a file the user opens. It shows the strategy × dataset table (sortable), the
//! scores per category, the questions with filters, and a drill-down that replays a
//! question's stored answer in the same gated-path and strategy views the ask page
//! draws — read-only, no worker and no model.

use std::sync::Arc;

use answer_view::bundle::{Bundle, Filter, Metric, Rerun, SortKey};
use gatepath_app::protocol::{AnswerView, Ask, Citation, DocumentIn, Progress};
use gatepath_app::route::DEFAULT_BUNDLE;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::ask::{chip_title, path_items, source_document};
use crate::client;
use crate::graph::GatedGraph;
use crate::progress::ProgressBar;
use crate::strategy::StrategyPanel;
use crate::view::WorkerStart;

/// A bundle and where it came from.
#[derive(Clone)]
struct Loaded {
    source: String,
    bundle: Arc<Bundle>,
}

#[component]
pub fn ResultsPage(bundle_url: Signal<String>) -> impl IntoView {
    let loaded = RwSignal::new(None::<Result<Loaded, String>>);
    Effect::new(move |_| {
        let url = bundle_url.get();
        loaded.set(None);
        spawn_local(async move { loaded.set(Some(fetch_bundle(&url).await)) });
    });
    let open_file = move |ev: leptos::ev::Event| {
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|input| input.files())
            .and_then(|files| files.get(0))
        else {
            return;
        };
        let name = file.name();
        loaded.set(None);
        spawn_local(async move {
            let read = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
            let result = match read {
                Ok(buffer) => {
                    Bundle::from_bytes(&js_sys::Uint8Array::new(&buffer).to_vec()).map(|b| Loaded {
                        source: name.clone(),
                        bundle: Arc::new(b),
                    })
                }
                Err(_) => Err("it could not be read".to_string()),
            }
            .map_err(|e| format!("{name}: {e}"));
            loaded.set(Some(result));
        });
    };
    let body = move || {
        match loaded.get() {
        None => view! { <p class="hint" data-testid="results-state" data-state="loading">"Loading the results…"</p> }
            .into_any(),
        Some(Err(message)) => view! {
            <p class="notice" data-testid="results-state" data-state="error">{message}</p>
        }
        .into_any(),
        Some(Ok(l)) => view! { <Results loaded=l /> }.into_any(),
    }
    };
    view! {
        <section class="panel results" aria-labelledby="results-title">
            <h2 id="results-title">"Benchmark results"</h2>
            <p class="hint">
                "Every strategy over the evaluation sets, as " <code>"gatepath bench-all"</code>
                " measured them. Open a question to see the answer as the page drew it: the "
                "gated paths, the blocked edges and the strategy's own view. Nothing here runs a model."
            </p>
            <p class="open-bundle">
                <label class="file">
                    "Open a results bundle…"
                    <input type="file" accept=".json,.gz,application/json,application/gzip" data-testid="bundle-file" on:change=open_file />
                </label>
            </p>
            {body}
        </section>
    }
}

/// Fetches and reads the bundle at `url` (relative to the page).
async fn fetch_bundle(url: &str) -> Result<Loaded, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| format!("could not fetch {url}: {e}"))?;
    if response.status() == 404 {
        return Err(format!(
            "No results are published with this site ({url} is not there). Make them with \
             `bash scripts/run.sh` (or `gatepath bench-all … --out dist/{DEFAULT_BUNDLE}`), \
             or open a bundle file above."
        ));
    }
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let bytes = response
        .binary()
        .await
        .map_err(|e| format!("{url} could not be read: {e}"))?;
    let bundle = Bundle::from_bytes(&bytes).map_err(|e| format!("{url}: {e}"))?;
    Ok(Loaded {
        source: url.to_string(),
        bundle: Arc::new(bundle),
    })
}

#[component]
fn Results(loaded: Loaded) -> impl IntoView {
    let bundle = loaded.bundle.clone();
    let models = bundle
        .models
        .iter()
        .map(|m| {
            let files = m
                .files
                .iter()
                .map(|f| format!("{} sha256 {}", f.name, f.sha256))
                .collect::<Vec<_>>()
                .join(", ");
            view! { <li>{format!("{} ({}): {files}", m.name, m.role)}</li> }
        })
        .collect_view();
    let datasets = bundle
        .datasets
        .iter()
        .map(|d| {
            view! {
                <li>
                    {format!("{} — {}, {} questions, ", d.path, d.format, d.n)}
                    <span class="hash">{format!("sha256 {}", d.sha256)}</span>
                </li>
            }
        })
        .collect_view();
    let provenance = format!(
        "{} · made {} by gatepath {} · {} runs",
        loaded.source,
        bundle.created,
        bundle.engine_version,
        bundle.runs.len()
    );
    let chosen = RwSignal::new(None::<(usize, String)>);
    // An opened question comes into view (it is drawn below the list).
    Effect::new(move |_| {
        if chosen.get().is_some() {
            request_animation_frame(|| {
                if let Some(e) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id("drilldown"))
                {
                    e.scroll_into_view();
                }
            });
        }
    });
    let live_bundle = bundle.clone();
    view! {
        <p class="hint" data-testid="results-state" data-state="ready" data-runs=bundle.runs.len().to_string()>
            {provenance}
        </p>
        <details class="provenance">
            <summary>"Datasets and models"</summary>
            <ul>{datasets}</ul>
            <ul>{models}</ul>
        </details>
        <ScoreTable bundle=bundle.clone() />
        <CategoryTable bundle=bundle.clone() />
        <QuestionList bundle=bundle.clone() chosen=chosen />
        {move || chosen.get().map(|(run, id)| view! { <DrillDown bundle=bundle.clone() run=run id=id chosen=chosen /> })}
        <LiveRun bundle=live_bundle />
    }
}

/// One figure: "97.5".
fn pct(x: f64) -> String {
    format!("{x:.1}")
}

/// The strategy × dataset table, sorted by a click on a header (again: the other way).
#[component]
fn ScoreTable(bundle: Arc<Bundle>) -> impl IntoView {
    let sort = RwSignal::new(None::<SortKey>);
    let header_button = move |label: String, testid: String, key: SortKey| {
        let is = move || match (sort.get(), key) {
            (Some(SortKey::Label { descending }), SortKey::Label { .. }) => Some(descending),
            (
                Some(SortKey::Dataset {
                    column,
                    metric,
                    descending,
                }),
                SortKey::Dataset {
                    column: c,
                    metric: m,
                    ..
                },
            ) if column == c && metric == m => Some(descending),
            _ => None,
        };
        let arrow = move || match is() {
            Some(true) => " ▼",
            Some(false) => " ▲",
            None => "",
        };
        let state = move || match is() {
            Some(true) => "descending",
            Some(false) => "ascending",
            None => "none",
        };
        view! {
            <button
                type="button"
                class="sort"
                data-testid=testid
                data-sort=state
                on:click=move |_| {
                    // First click: best first (scores) or A→Z (names); again: reversed.
                    let next = match (is(), key) {
                        (Some(d), SortKey::Label { .. }) => SortKey::Label { descending: !d },
                        (Some(d), SortKey::Dataset { column, metric, .. }) => {
                            SortKey::Dataset { column, metric, descending: !d }
                        }
                        (None, SortKey::Label { .. }) => SortKey::Label { descending: false },
                        (None, SortKey::Dataset { column, metric, .. }) => {
                            SortKey::Dataset { column, metric, descending: true }
                        }
                    };
                    sort.set(Some(next));
                }
            >
                {label}
                {arrow}
            </button>
        }
    };
    let heads = bundle
        .datasets
        .iter()
        .enumerate()
        .map(|(c, d)| {
            let accuracy = d.format == "pubmedqa";
            let em_label = if accuracy { "accuracy" } else { "EM" };
            let em = header_button(
                em_label.to_string(),
                format!("sort-{c}-em"),
                SortKey::Dataset {
                    column: c,
                    metric: Metric::Em,
                    descending: true,
                },
            );
            let f1 = (!accuracy).then(|| {
                header_button(
                    "F1".to_string(),
                    format!("sort-{c}-f1"),
                    SortKey::Dataset {
                        column: c,
                        metric: Metric::F1,
                        descending: true,
                    },
                )
            });
            view! {
                <th scope="col">
                    <span class="dataset">{format!("{} (N {})", d.label(), d.n)}</span>
                    <span class="metrics">{em}{f1}</span>
                </th>
            }
        })
        .collect_view();
    let label_head = header_button(
        "Strategy".to_string(),
        "sort-label".to_string(),
        SortKey::Label { descending: false },
    );
    let rows = move || {
        let mut rows = bundle.table();
        if let Some(key) = sort.get() {
            bundle.sort(&mut rows, key);
        }
        rows.into_iter()
            .map(|row| {
                let cells = row
                    .cells
                    .iter()
                    .map(|cell| match cell.and_then(|i| bundle.runs.get(i)) {
                        None => view! { <td class="score missing" data-testid="cell">"—"</td> }
                            .into_any(),
                        Some(run) => {
                            let text = if run.is_accuracy() {
                                pct(run.em)
                            } else {
                                format!("{} / {}", pct(run.em), pct(run.f1))
                            };
                            view! {
                                <td
                                    class="score"
                                    data-testid="cell"
                                    data-em=pct(run.em)
                                    data-f1=pct(run.f1)
                                    title=format!("N {} · {:.1} s", run.n, run.seconds)
                                >
                                    {text}
                                </td>
                            }
                            .into_any()
                        }
                    })
                    .collect_view();
                view! {
                    <tr data-testid="result-row" data-label=row.label.clone()>
                        <th scope="row">{row.label.clone()}</th>
                        {cells}
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <h3>"Strategies × datasets"</h3>
        <p class="hint">"EM / F1 (percent), or accuracy for PubMedQA's yes / no / maybe. Click a header to sort."</p>
        <div class="table-wrap">
            <table class="scores" data-testid="score-table">
                <thead><tr><th scope="col">{label_head}</th>{heads}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// EM / F1 per category of one dataset, one row per configuration.
#[component]
fn CategoryTable(bundle: Arc<Bundle>) -> impl IntoView {
    let dataset = RwSignal::new(0usize);
    let options = bundle
        .datasets
        .iter()
        .enumerate()
        .map(|(i, d)| view! { <option value=i.to_string()>{d.label()}</option> })
        .collect_view();
    let table = move || {
        let d = dataset.get();
        let path = bundle.datasets.get(d)?.path.clone();
        let categories = bundle.categories(&path);
        let heads = categories
            .iter()
            .map(|c| view! { <th scope="col">{if c.is_empty() { "(none)".to_string() } else { c.clone() }}</th> })
            .collect_view();
        let rows = bundle
            .runs_on(&path)
            .into_iter()
            .map(|i| {
                let run = &bundle.runs[i];
                let cells = categories
                    .iter()
                    .map(|c| match run.categories.get(c) {
                        Some(s) => view! {
                            <td class="score" data-testid="category-cell" data-category=c.clone() data-em=pct(s.em)>
                                {format!("{} / {} ({})", pct(s.em), pct(s.f1), s.n)}
                            </td>
                        }
                        .into_any(),
                        None => view! { <td class="score missing">"—"</td> }.into_any(),
                    })
                    .collect_view();
                view! { <tr><th scope="row">{run.label()}</th>{cells}</tr> }
            })
            .collect_view();
        Some(view! {
            <div class="table-wrap">
                <table class="scores" data-testid="category-table">
                    <thead><tr><th scope="col">"Strategy"</th>{heads}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        })
    };
    view! {
        <h3>"Per category"</h3>
        <p class="controls">
            <label>
                "Dataset "
                <select data-testid="category-dataset" on:change=move |ev| {
                    dataset.set(event_target_value(&ev).parse().unwrap_or(0))
                }>{options}</select>
            </label>
            <span class="hint">" EM / F1 (N)"</span>
        </p>
        {table}
    }
}

/// The questions of one dataset as one run answered them, filtered.
#[component]
fn QuestionList(bundle: Arc<Bundle>, chosen: RwSignal<Option<(usize, String)>>) -> impl IntoView {
    let dataset = RwSignal::new(0usize);
    let run = RwSignal::new(
        bundle
            .runs_on(&dataset_path(&bundle, 0))
            .first()
            .copied()
            .unwrap_or(0),
    );
    let filter = RwSignal::new(Filter::default());
    let dataset_options = bundle
        .datasets
        .iter()
        .enumerate()
        .map(|(i, d)| view! { <option value=i.to_string()>{d.label()}</option> })
        .collect_view();
    let b = bundle.clone();
    let run_options = move || {
        let path = dataset_path(&b, dataset.get());
        b.runs_on(&path)
            .into_iter()
            .map(|i| {
                view! {
                    <option value=i.to_string() selected=move || run.get() == i>{b.runs[i].label()}</option>
                }
            })
            .collect_view()
    };
    let b = bundle.clone();
    let category_options = move || {
        b.categories(&dataset_path(&b, dataset.get()))
            .into_iter()
            .filter(|c| !c.is_empty())
            .map(|c| view! { <option value=c.clone()>{c.clone()}</option> })
            .collect_view()
    };
    let b = bundle.clone();
    let list = move || {
        let path = dataset_path(&b, dataset.get());
        let rows = b.questions(&path, run.get(), &filter.get());
        let total = b.runs.get(run.get()).map_or(0, |r| r.items.len());
        let count = format!("{} of {total} questions", rows.len());
        let chosen_run = run.get();
        let items = rows
            .into_iter()
            .map(|q| {
                let right = q.em >= 1.0;
                let id = q.id.clone();
                let predicted = q
                    .prediction
                    .clone()
                    .unwrap_or_else(|| "insufficient evidence".into());
                let line = format!(
                    "{}{} — predicted “{predicted}”, gold “{}” · {}/{} runs right{}",
                    q.id,
                    if q.category.is_empty() {
                        String::new()
                    } else {
                        format!(" · {}", q.category)
                    },
                    q.gold,
                    q.correct_runs,
                    q.runs,
                    if q.disagree { " · runs disagree" } else { "" }
                );
                let open = {
                    let id = q.id.clone();
                    move || chosen.get().is_some_and(|(r, i)| r == chosen_run && i == id)
                };
                view! {
                    <li class=if right { "right" } else { "wrong" } class:chosen=open.clone() aria-current=move || open().then_some("true")>
                        <button
                            type="button"
                            class="question-row"
                            data-testid="result-question"
                            data-id=q.id.clone()
                            data-em=pct(q.em * 100.0)
                            data-category=q.category.clone()
                            data-disagree=q.disagree.to_string()
                            on:click=move |_| chosen.set(Some((chosen_run, id.clone())))
                        >
                            <span class="mark">{if right { "✓" } else { "×" }}</span>
                            <span class="q">{q.question.clone()}</span>
                            <span class="hint">{line}</span>
                        </button>
                    </li>
                }
            })
            .collect_view();
        view! {
            <p class="hint" data-testid="question-count">{count}</p>
            <ol class="questions">{items}</ol>
        }
    };
    let b = bundle.clone();
    view! {
        <h3>"Questions"</h3>
        <div class="controls">
            <label>
                "Dataset "
                <select data-testid="list-dataset" on:change=move |ev| {
                    let d = event_target_value(&ev).parse().unwrap_or(0);
                    dataset.set(d);
                    run.set(b.runs_on(&dataset_path(&b, d)).first().copied().unwrap_or(0));
                    filter.update(|f| f.category = None);
                }>{dataset_options}</select>
            </label>
            <label>
                "Answered by "
                <select data-testid="list-run" on:change=move |ev| {
                    run.set(event_target_value(&ev).parse().unwrap_or(0))
                }>{run_options}</select>
            </label>
            <label>
                "Category "
                <select data-testid="filter-category" on:change=move |ev| {
                    let c = event_target_value(&ev);
                    filter.update(|f| f.category = (!c.is_empty()).then_some(c));
                }>
                    <option value="" selected=move || filter.get().category.is_none()>"all"</option>
                    {category_options}
                </select>
            </label>
            <label>
                <input type="checkbox" data-testid="filter-wrong" on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    filter.update(|f| f.wrong_only = on);
                } />
                " wrong only"
            </label>
            <label>
                <input type="checkbox" data-testid="filter-disagree" on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    filter.update(|f| f.disagreement = on);
                } />
                " strategies disagree"
            </label>
            <label>
                "Find "
                <input type="search" data-testid="filter-text" placeholder="words or id" on:input=move |ev| {
                    let text = event_target_value(&ev);
                    filter.update(|f| f.text = text);
                } />
            </label>
        </div>
        {list}
    }
}

fn dataset_path(bundle: &Bundle, index: usize) -> String {
    bundle
        .datasets
        .get(index)
        .map(|d| d.path.clone())
        .unwrap_or_default()
}

/// One question: every run's prediction, and the chosen run's answer replayed.
#[component]
fn DrillDown(
    bundle: Arc<Bundle>,
    run: usize,
    id: String,
    chosen: RwSignal<Option<(usize, String)>>,
) -> impl IntoView {
    let Some(first) = bundle.runs.get(run) else {
        return ().into_any();
    };
    let Some(index) = first.items.iter().position(|i| i.id == id) else {
        return ().into_any();
    };
    let item = first.items[index].clone();
    let others = bundle
        .runs_on(&first.data)
        .into_iter()
        .map(|r| {
            let other = &bundle.runs[r];
            let answer = other
                .items
                .iter()
                .find(|i| i.id == id)
                .map(|i| (i.prediction.clone().unwrap_or_else(|| "insufficient evidence".into()), i.em, i.f1));
            let (prediction, em, f1) = answer.unwrap_or_else(|| ("—".into(), 0.0, 0.0));
            let id = id.clone();
            view! {
                <tr class=if r == run { "chosen" } else { "" } data-testid="drill-run" data-label=other.label()>
                    <th scope="row">
                        <button type="button" disabled=r == run on:click=move |_| chosen.set(Some((r, id.clone())))>
                            {other.label()}
                        </button>
                    </th>
                    <td>{prediction}</td>
                    <td class="score">{pct(em * 100.0)}</td>
                    <td class="score">{pct(f1 * 100.0)}</td>
                </tr>
            }
        })
        .collect_view();
    let accuracy = first.is_accuracy();
    let documents = bundle
        .question(&first.data, &id)
        .map(|q| q.documents.clone())
        .unwrap_or_default();
    let replay = match bundle.view(run, index) {
        Ok(view) => view! { <Replay view=view accuracy=accuracy documents=documents /> }.into_any(),
        Err(message) => {
            view! { <p class="notice" data-testid="drill-error">{message}</p> }.into_any()
        }
    };
    let aliases =
        (!item.aliases.is_empty()).then(|| format!(" (also: {})", item.aliases.join(", ")));
    view! {
        <section class="drilldown" id="drilldown" data-testid="drilldown" data-id=item.id.clone() data-run=first.label()>
            <p class="actions">
                <button type="button" data-testid="drill-close" on:click=move |_| chosen.set(None)>"Close"</button>
            </p>
            <h3>{format!("{} — as {} answered it", item.id, first.label())}</h3>
            <p class="answer-text">{item.question.clone()}</p>
            <p>
                <span class="label">"Gold: "</span><strong data-testid="drill-gold">{item.gold.clone()}</strong>{aliases}
                " · " <span class="label">"Predicted: "</span>
                <strong data-testid="drill-prediction">{item.prediction.clone().unwrap_or_else(|| "insufficient evidence".into())}</strong>
                {if item.em >= 1.0 { " ✓" } else { " ×" }}
            </p>
            <table class="scores" data-testid="drill-runs">
                <thead><tr><th scope="col">"Run"</th><th scope="col">"Prediction"</th><th scope="col">{if accuracy { "accuracy" } else { "EM" }}</th><th scope="col">"F1"</th></tr></thead>
                <tbody>{others}</tbody>
            </table>
            {replay}
        </section>
    }
    .into_any()
}

/// A stored answer as the ask page drew it, read-only: the chips show each condition's
/// value for the patient but cannot be flipped (no worker holds this graph).
#[component]
fn Replay(view: AnswerView, accuracy: bool, documents: Vec<String>) -> impl IntoView {
    let highlight = RwSignal::new(None::<Citation>);
    let answer = view
        .answer
        .clone()
        .unwrap_or_else(|| "Insufficient evidence in these documents.".into());
    let label = if accuracy {
        "Graph answer: "
    } else {
        "Answer: "
    };
    // With the documents in the bundle, a citation shows its sentence in its document.
    let citations = view
        .citations
        .iter()
        .cloned()
        .map(|c| {
            let label = format!("{} — {}", c.text, c.doc_name);
            match documents.is_empty() {
                true => view! { <li>{label}</li> }.into_any(),
                false => view! {
                    <li>
                        <button type="button" class="citation" data-testid="citation" on:click=move |_| highlight.set(Some(c.clone()))>
                            {label}
                        </button>
                    </li>
                }
                .into_any(),
            }
        })
        .collect_view();
    let source = move || {
        highlight.get().map(|c| {
            let text = documents.get(c.doc).cloned().unwrap_or_default();
            source_document(&c, &text)
        })
    };
    let chips = view
        .table
        .iter()
        .map(|row| {
            view! {
                <span
                    class=format!("chip {}", row.truth.id())
                    data-testid="chip"
                    data-phrase=row.phrase.clone()
                    data-truth=row.truth.id()
                    title=chip_title(row, false)
                >
                    <span class="phrase">{row.phrase.clone()}</span>
                    <span class="truth">{row.truth.id()}</span>
                </span>
            }
        })
        .collect_view();
    let paths = path_items(&view.paths);
    let summary = format!(
        "{} documents, {} statements, {} edges",
        view.documents, view.tuples, view.graph_edges
    );
    view! {
        <div class="answer replay" data-testid="replay" data-answer=view.answer.clone().unwrap_or_default()>
            <p class="answer-text"><span class="label">{label}</span><strong>{answer}</strong></p>
            <p class="hint">{summary}</p>
            <h3>"Citations"</h3>
            <ol class="citations">{citations}</ol>
            {source}
            <h3>"Patient conditions"</h3>
            <p class="hint">"Each condition the documents attach to a statement, as the question put the patient."</p>
            <div class="chips" data-testid="chips">{chips}</div>
            <h3>"Gated paths"</h3>
            <GatedGraph view=view.clone() />
            <StrategyPanel view=view.strategy.clone() />
            <h3>"Evidence paths"</h3>
            <ol class="paths">{paths}</ol>
        </div>
    }
}

/// The questions of a dataset answered again in this browser — the worker, the
/// compute backend and the sentence embedder chosen under Models — and compared with
/// the bundle's run of the same strategy: EM / F1 of each over the same questions, and
/// the questions whose answers differ.
#[component]
fn LiveRun(bundle: Arc<Bundle>) -> impl IntoView {
    let worker = use_context::<WorkerStart>();
    let dataset = RwSignal::new(0usize);
    let strategy = RwSignal::new("cgr".to_string());
    let running = RwSignal::new(None::<u32>);
    let progress = RwSignal::new(None::<Progress>);
    let stop = RwSignal::new(false);
    let reruns = RwSignal::new(Vec::<Rerun>::new());
    // The embedder the browser answered with ("lexical" or the neural model's name).
    let embedder = RwSignal::new(String::new());
    // The dataset and strategy the answers below are for.
    let ran = RwSignal::new(None::<(usize, String)>);
    let runnable: Vec<usize> = (0..bundle.datasets.len())
        .filter(|&i| !bundle.datasets[i].questions.is_empty())
        .collect();
    if runnable.is_empty() {
        return view! {
            <h3>"Run it in this browser"</h3>
            <p class="hint">"This bundle keeps no documents, so its questions cannot be run here."</p>
        }
        .into_any();
    }
    dataset.set(runnable[0]);
    let dataset_options = runnable
        .iter()
        .map(|&i| view! { <option value=i.to_string()>{bundle.datasets[i].label()}</option> })
        .collect_view();
    let b = bundle.clone();
    let strategy_options = move || {
        let path = dataset_path(&b, dataset.get());
        let mut names: Vec<String> = b
            .runs_on(&path)
            .into_iter()
            .map(|i| b.runs[i].strategy.clone())
            .collect();
        names.dedup();
        names
            .into_iter()
            .map(|n| view! { <option value=n.clone() selected={ let n = n.clone(); move || strategy.get() == n }>{n.clone()}</option> })
            .collect_view()
    };
    let b = bundle.clone();
    let start = move |_| {
        if running.get_untracked().is_some() {
            return;
        }
        if let Some(w) = worker {
            w.ensure();
        }
        let d = dataset.get_untracked();
        let Some(set) = b.datasets.get(d).cloned() else {
            return;
        };
        let chosen = strategy.get_untracked();
        ran.set(Some((d, chosen.clone())));
        reruns.set(Vec::new());
        stop.set(false);
        progress.set(None);
        running.set(Some(client::next_id()));
        spawn_local(async move {
            let total = set.questions.len() as u64;
            for (done, q) in set.questions.iter().enumerate() {
                if stop.get_untracked() {
                    break;
                }
                let request = Ask {
                    documents: q
                        .documents
                        .iter()
                        .enumerate()
                        .map(|(i, text)| DocumentIn {
                            name: format!("doc {}", i + 1),
                            text: text.clone(),
                        })
                        .collect(),
                    question: q.question.clone(),
                    patient: String::new(),
                    conditions: Vec::new(),
                    strategy: chosen.clone(),
                    with_llm: false,
                    yes_no: set.format == "pubmedqa",
                };
                running.set(Some(client::next_id()));
                let answered = client::ask(&request, move |mut p| {
                    // The bar counts questions; the worker's step shows in its label.
                    p.stage = format!("question {} of {total}: {}", done + 1, p.stage);
                    p.done = done as u64;
                    p.total = total;
                    progress.set(Some(p));
                })
                .await;
                let rerun = match answered {
                    Ok(view) => {
                        embedder.set(view.embedder.clone());
                        let prediction = match set.format.as_str() {
                            "pubmedqa" => view.verdict.clone(),
                            _ => view.answer.clone(),
                        };
                        Rerun::scored(q, prediction)
                    }
                    Err(e) if stop.get_untracked() => {
                        let _ = e;
                        break;
                    }
                    Err(e) => Rerun::failed(q, e),
                };
                reruns.update(|r| r.push(rerun));
            }
            running.set(None);
        });
    };
    let cancel = move |_| {
        stop.set(true);
        if let Some(id) = running.get_untracked() {
            client::cancel(id);
        }
    };
    let b = bundle.clone();
    let report = move || {
        let done = reruns.get();
        let (d, chosen) = ran.get()?;
        if done.is_empty() {
            return None;
        }
        let path = dataset_path(&b, d);
        let name = embedder.get();
        let neural = !name.is_empty() && name != "lexical";
        let run = b.run_of(&path, &chosen, neural)?;
        let native = &b.runs[run];
        let c = b.compare(run, &done);
        let metric = if native.is_accuracy() {
            "accuracy"
        } else {
            "EM"
        };
        let differing = c
            .differing
            .iter()
            .map(|d| {
                let show = |p: &Option<String>| {
                    p.clone().unwrap_or_else(|| "insufficient evidence".into())
                };
                let here = d
                    .error
                    .clone()
                    .map_or_else(|| show(&d.here), |e| format!("failed: {e}"));
                view! {
                    <li data-testid="live-difference" data-id=d.id.clone()>
                        {format!("{}: here “{here}”, in the bundle “{}”", d.id, show(&d.native))}
                    </li>
                }
            })
            .collect_view();
        let errors = done.iter().filter(|r| r.error.is_some()).count();
        Some(view! {
            <table
                class="scores"
                data-testid="live-report"
                data-n=c.n.to_string()
                data-em=pct(c.em)
                data-native-em=pct(c.native_em)
                data-same=c.same.to_string()
                data-errors=errors.to_string()
            >
                <thead><tr><th scope="col">""</th><th scope="col">"N"</th><th scope="col">{metric}</th><th scope="col">"F1"</th></tr></thead>
                <tbody>
                    <tr><th scope="row">{format!("this browser ({})", if name.is_empty() { "—".to_string() } else { name.clone() })}</th>
                        <td class="score">{c.n}</td><td class="score">{pct(c.em)}</td><td class="score">{pct(c.f1)}</td></tr>
                    <tr><th scope="row">{format!("the bundle: {}{}", native.label(), if native.embedder == "lexical" { " · lexical" } else { "" })}</th>
                        <td class="score">{c.n}</td><td class="score">{pct(c.native_em)}</td><td class="score">{pct(c.native_f1)}</td></tr>
                </tbody>
            </table>
            <p class="hint">{format!("The same answer on {} of {} questions.", c.same, c.n)}</p>
            <ul class="differences">{differing}</ul>
        })
    };
    view! {
        <h3>"Run it in this browser"</h3>
        <p class="hint">
            "Answer a dataset's questions again here, with this browser's backend and the "
            "sentence embedder chosen under Models, and compare with the bundle's run of the "
            "same strategy. Documents and answers stay in this tab."
        </p>
        <div class="controls">
            <label>
                "Dataset "
                <select data-testid="live-dataset" on:change=move |ev| dataset.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {dataset_options}
                </select>
            </label>
            <label>
                "Strategy "
                <select data-testid="live-strategy" on:change=move |ev| strategy.set(event_target_value(&ev))>
                    {strategy_options}
                </select>
            </label>
            <button type="button" data-testid="live-run" disabled=move || running.get().is_some() on:click=start>
                "Run"
            </button>
        </div>
        {move || worker.and_then(|w| w.status.get()).map(|s| match s {
            Ok(s) => view! { <p class="hint" data-testid="live-backend" data-backend=s.backend.clone()>{format!("Backend: {}", s.backend_label)}</p> }.into_any(),
            Err(e) => view! { <p class="bad" data-testid="live-backend" data-backend="error">{format!("The worker could not start: {e}")}</p> }.into_any(),
        })}
        <ProgressBar running=running progress=progress testid="live-progress" cancel_testid=None />
        {move || running.get().map(|_| view! {
            <button type="button" data-testid="live-stop" on:click=cancel>"Stop"</button>
        })}
        {report}
    }
    .into_any()
}
