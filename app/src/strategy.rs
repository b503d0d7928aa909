//! The strategy picker and each strategy's own view beside the gated paths: CLAIMS'
//! layered summaries as a tree that opens from each claim of interest outward, AMG's
//! exploration traces (its confidences are also drawn on the graph's edges), IKR's
//! multi-level readout and ReGraM's region with the mode that produced the answer.

use gatepath_app::protocol::{ClaimsView, HopView, InterestView, RegionView, StrategyView, Trace};
use leptos::prelude::*;

/// The strategies offered: name (as `bench --strategy` spells it), label, what it does.
pub const STRATEGIES: [(&str, &str, &str); 8] = [
    ("cgr", "CGR: condition-gated paths", "Closes the edges the patient's conditions rule out, walks the rest and ranks paths by similarity and matched conditions."),
    ("claims", "CLAIMS: layered claim summaries", "Claims of interest and a summary of each built from the outermost claims inward; the evidence keeps the claims the summaries keep."),
    ("amg", "AMG: confidence-weighted exploration", "Each relation gets a confidence; paths whose product falls below 0.5 are dropped."),
    ("ikr", "IKR: iterative subgraph", "Grows the subgraph entity by entity (5 neighbours per hop) until a path in it supports an answer, and reads it out as a list."),
    ("regram", "ReGraM: relation-weighted region", "The question as up to three hops (its topic, the patient, the kind of answer); each hop's 15 triples are chosen by relation-weighted MMR for the question's domain, and its mode says how many facts it had."),
    ("regram-nogate", "ReGraM without gating", "ReGraM's region over every edge, as the paper builds it: the patient's conditions close nothing."),
    ("cgr-nogate", "CGR without gating", "The ablation: no edge is closed and no condition is used."),
    ("cgr-nomatch", "CGR without condition matching", "Gating, with paths ranked by similarity alone."),
];

/// A select for the strategy the next question is answered with.
#[component]
pub fn StrategyPicker(strategy: RwSignal<String>, with_llm: RwSignal<bool>) -> impl IntoView {
    let options = STRATEGIES
        .iter()
        .map(|&(name, label, _)| view! { <option value=name>{label}</option> })
        .collect_view();
    let hint = move || {
        let chosen = strategy.get();
        STRATEGIES
            .iter()
            .find(|(name, _, _)| *name == chosen)
            .map_or("", |(_, _, hint)| *hint)
    };
    view! {
        <label for="strategy">"Strategy"</label>
        <select
            id="strategy"
            data-testid="strategy"
            prop:value=move || strategy.get()
            on:change=move |ev| strategy.set(event_target_value(&ev))
        >
            {options}
        </select>
        <p class="hint strategy-hint">{hint}</p>
        <label class="inline">
            <input
                type="checkbox"
                data-testid="with-llm"
                prop:checked=move || with_llm.get()
                on:change=move |ev| with_llm.set(event_target_checked(&ev))
            />
            " Use the language model while answering"
        </label>
        <p class="hint">
            "It decides conditions the rules leave unknown (only when the question clearly \
             says so), proposes ReGraM's hypotheses for the Reviewer to check, and guesses \
             where no document speaks (shown as a guess, never as the answer). Slower: \
             it loads the model and writes a few short replies."
        </p>
    }
}

/// The strategy's own results, under the answer.
#[component]
pub fn StrategyPanel(view: StrategyView) -> impl IntoView {
    let label = STRATEGIES
        .iter()
        .find(|(name, _, _)| *name == view.name)
        .map_or(view.name.clone(), |(_, label, _)| label.to_string());
    let body = if let Some(claims) = view.claims {
        view! { <ClaimsTree claims=claims /> }.into_any()
    } else if let Some(region) = view.region {
        view! { <RegionList region=region /> }.into_any()
    } else if !view.traces.is_empty() {
        view! { <Traces traces=view.traces /> }.into_any()
    } else if !view.readout.is_empty() {
        view! { <Readout lines=view.readout used=view.entities_used /> }.into_any()
    } else {
        return None;
    };
    Some(view! {
        <section class="strategy-view" data-testid="strategy-view" data-strategy=view.name.clone()>
            <h3>{label}</h3>
            {view.llm.map(|name| view! {
                <p class="hint" data-testid="strategy-llm">{format!("With the language model {name}.")}</p>
            })}
            {body}
        </section>
    })
}

/// CLAIMS: one tree per claim of interest. Its root shows the final summary; opening a
/// claim shows the claims one layer out whose summaries made its own.
#[component]
fn ClaimsTree(claims: ClaimsView) -> impl IntoView {
    let count = claims.interests.len();
    let interests = claims
        .interests
        .into_iter()
        .enumerate()
        .map(|(rank, interest)| view! { <Interest rank=rank interest=interest /> })
        .collect_view();
    view! {
        <p class="hint">
            {format!(
                "{count} claim(s) of interest among {} claims, each summarised layer by layer \
                 from the farthest claims inward ({} summaries). Open a claim to see the claims \
                 its summary was made from.",
                claims.claims, claims.summarizer
            )}
        </p>
        <ol class="claims-tree" data-testid="claims-tree">{interests}</ol>
    }
}

#[component]
fn Interest(rank: usize, interest: InterestView) -> impl IntoView {
    let root = interest.nodes.len().checked_sub(1);
    let nodes = interest.nodes.clone();
    let tree = root.map(|r| summary_node(&nodes, r, 0));
    let layers = interest.nodes.iter().map(|n| n.layer).max().unwrap_or(0);
    view! {
        <li class="interest" data-testid="claim-of-interest" data-rank=rank.to_string() data-layers=layers.to_string()>
            <p class="interest-summary">
                <span class="label">"Summary: "</span>
                <span data-testid="interest-summary">{interest.summary.clone()}</span>
                <span class="hint">{format!(" (test relevance {:.2}, {} layer(s))", interest.test_relevance, layers)}</span>
            </p>
            {tree}
        </li>
    }
}

/// A claim and, folded, the claims one layer out that fed its summary. Depth is bounded
/// by the layers (each child is one layer further out).
fn summary_node(
    nodes: &[gatepath_app::protocol::SummaryNodeView],
    at: usize,
    depth: usize,
) -> AnyView {
    let Some(node) = nodes.get(at) else {
        return ().into_any();
    };
    let children: Vec<AnyView> = node
        .children
        .iter()
        .filter(|&&c| nodes.get(c).is_some_and(|n| n.layer > node.layer))
        .map(|&c| view! { <li>{summary_node(nodes, c, depth + 1)}</li> }.into_any())
        .collect();
    let sources = node
        .citations
        .iter()
        .map(|c| format!("{} — {}", c.text, c.doc_name))
        .collect::<Vec<_>>()
        .join("\n");
    let summary = (!children.is_empty()).then(|| {
        view! { <p class="node-summary" data-testid="node-summary">{node.summary.clone()}</p> }
    });
    let head = view! {
        <span class="layer">{format!("layer {}", node.layer)}</span>
        <span class="claim" data-testid="claim" title=sources>{node.claim.clone()}</span>
    };
    if children.is_empty() {
        view! { <div class="summary-node leaf" data-layer=node.layer.to_string()>{head}</div> }
            .into_any()
    } else {
        view! {
            <details class="summary-node" data-layer=node.layer.to_string() open=depth == 0>
                <summary>{head}</summary>
                {summary}
                <ul>{children}</ul>
            </details>
        }
        .into_any()
    }
}

/// ReGraM: the domain, the mode, the region's triples and the Evidence Map (each hop's
/// sub-question, mode, facts, answer, reviewed hypotheses and any guess).
#[component]
fn RegionList(region: RegionView) -> impl IntoView {
    let facts = region
        .facts
        .iter()
        .map(|f| view! { <li><code>{f.clone()}</code></li> })
        .collect_view();
    let hops = region
        .hops
        .into_iter()
        .enumerate()
        .map(|(i, hop)| view! { <HopItem index=i + 1 hop=hop /> })
        .collect_view();
    view! {
        <p>
            "Domain " <strong data-testid="region-domain">{region.domain.clone()}</strong>
            " · mode " <strong class="mode" data-testid="region-mode">{region.mode.clone()}</strong>
            {format!(" · {} fact(s) in the region", region.facts.len())}
        </p>
        <h4>"Evidence map"</h4>
        <ol class="hops" data-testid="hops">{hops}</ol>
        <details>
            <summary>"The region's triples"</summary>
            <ol class="region" data-testid="region">{facts}</ol>
        </details>
    }
}

#[component]
fn HopItem(index: usize, hop: HopView) -> impl IntoView {
    let facts = hop
        .facts
        .iter()
        .map(|f| view! { <li><code>{f.clone()}</code></li> })
        .collect_view();
    let answers = match hop.answers.is_empty() {
        true => "nothing in the documents".to_string(),
        false => hop.answers.join(", "),
    };
    let hypotheses = (!hop.hypotheses.is_empty()).then(|| {
        let items = hop
            .hypotheses
            .iter()
            .map(|h| {
                let verdict = if h.accepted {
                    "✓ accepted"
                } else {
                    "× rejected"
                };
                let revised = (h.revisions > 0).then(|| {
                    format!(
                        " (proposed {}, revised {} time(s))",
                        h.proposed, h.revisions
                    )
                });
                view! {
                    <li class="hypothesis" data-accepted=h.accepted.to_string()>
                        <code>{h.triple.clone()}</code>
                        {format!(" — {verdict}, s = {:.2}: {}", h.score, h.reason)}
                        {revised}
                    </li>
                }
            })
            .collect_view();
        view! {
            <p>"Hypotheses (a language model's, checked by the Reviewer):"</p>
            <ul>{items}</ul>
        }
    });
    let guess = hop.guess.clone().map(|g| {
        view! {
            <p class="guess" data-testid="hop-guess">
                <em>{g}</em>
                " — a guess from the language model's general knowledge; no document says this."
            </p>
        }
    });
    view! {
        <li
            data-testid="hop"
            data-kind=hop.kind.clone()
            data-mode=hop.mode.clone()
            data-facts=hop.facts.len().to_string()
        >
            <strong>{format!("Hop {index} · {} · {}", hop.kind, hop.mode)}</strong>
            {format!(" ({} fact(s)): ", hop.facts.len())}
            <span class="hop-question">{hop.question.clone()}</span>
            <br />
            "→ " <span data-testid="hop-answers">{answers}</span>
            <details>
                <summary>"Facts"</summary>
                <ol>{facts}</ol>
            </details>
            {hypotheses}
            {guess}
        </li>
    }
}

/// AMG: what each entry term reached and with what confidence.
#[component]
fn Traces(traces: Vec<Trace>) -> impl IntoView {
    let items = traces
        .into_iter()
        .map(|t| {
            let reached = t
                .reached
                .iter()
                .skip(1)
                .map(|r| {
                    view! {
                        <li data-confidence=format!("{:.3}", r.confidence)>
                            {format!("{} — {:.2} after {} hop(s)", r.node, r.confidence, r.hops)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <li data-testid="trace">
                    <strong>{t.term.clone()}</strong>
                    <ul>{reached}</ul>
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="hint">
            "Each entry term explored while the product of relation confidences stayed at or above 0.5; the graph's edges show each relation's confidence."
        </p>
        <ul class="traces" data-testid="traces">{items}</ul>
    }
}

/// IKR: the topological readout, indented by its index depth (in the style sheet:
/// the CSP allows no inline style).
#[component]
fn Readout(lines: Vec<String>, used: usize) -> impl IntoView {
    let items = lines
        .into_iter()
        .map(|line| {
            let index = line.split(' ').next().unwrap_or_default();
            let depth = if index.ends_with('.') {
                index.matches('.').count()
            } else {
                0
            };
            view! {
                <li data-testid="readout-line" data-depth=depth.to_string()>
                    {line}
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="hint">{format!("The evidence subgraph was sufficient after {used} retrieved entit{}.", if used == 1 { "y" } else { "ies" })}</p>
        <ul class="readout" data-testid="readout">{items}</ul>
    }
}
