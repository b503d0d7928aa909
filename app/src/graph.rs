//! The gated-path view: the graph around the question in layers from the entry nodes
//! (left) to the answer, kept edges solid, blocked edges dashed in red with the
//! condition that blocked each. Pointing at (or focusing) an edge shows its relation,
//! conditions and evidence below the drawing.

use gatepath_app::protocol::{AnswerView, GraphEdge, Truth};
use leptos::prelude::*;

/// Column pitch: a node and room between columns for an edge's label.
const COLUMN: f64 = 360.0;
const ROW: f64 = 70.0;
const NODE_WIDTH: f64 = 180.0;
const NODE_HEIGHT: f64 = 36.0;
const MARGIN: f64 = 24.0;
const BOW: f64 = 70.0;

fn centre(layer: usize, order: usize) -> (f64, f64) {
    (
        MARGIN + layer as f64 * COLUMN + NODE_WIDTH / 2.0,
        MARGIN + order as f64 * ROW + NODE_HEIGHT / 2.0,
    )
}

/// Shortens a label to what fits in a node box.
fn fit(label: &str) -> String {
    const MAX: usize = 24;
    if label.chars().count() <= MAX {
        label.to_string()
    } else {
        let head: String = label.chars().take(MAX - 1).collect();
        format!("{head}…")
    }
}

#[component]
pub fn GatedGraph(view: AnswerView) -> impl IntoView {
    let hovered = RwSignal::new(None::<usize>);
    let rows = view.nodes.iter().map(|n| n.order + 1).max().unwrap_or(1);
    // Room on the right for edges within the last layer, which bow out of it.
    let width = MARGIN * 2.0 + (view.layers.max(1) - 1) as f64 * COLUMN + NODE_WIDTH + BOW;
    let height = MARGIN * 2.0 + (rows - 1) as f64 * ROW + NODE_HEIGHT + 16.0;
    let nodes = view.nodes.clone();
    let edges = view.edges.clone();
    let edge_views = edges
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (Some(from), Some(to)) = (nodes.get(e.from), nodes.get(e.to)) else {
                return ().into_any();
            };
            let (mut x1, y1) = centre(from.layer, from.order);
            let (mut x2, y2) = centre(to.layer, to.order);
            // Leave and enter nodes at their sides; an edge within a layer bows out.
            let d = if from.layer == to.layer {
                x1 += NODE_WIDTH / 2.0;
                x2 += NODE_WIDTH / 2.0;
                let bow = x1 + BOW - 10.0;
                format!("M {x1} {y1} C {bow} {y1}, {bow} {y2}, {x2} {y2}")
            } else {
                let right = if x2 > x1 { 1.0 } else { -1.0 };
                x1 += right * NODE_WIDTH / 2.0;
                x2 -= right * NODE_WIDTH / 2.0;
                let mid = (x1 + x2) / 2.0;
                format!("M {x1} {y1} C {mid} {y1}, {mid} {y2}, {x2} {y2}")
            };
            let (state, label) = match &e.blocked {
                Some(b) => (
                    "blocked",
                    format!("✕ {}{}", if b.negated { "not " } else { "" }, b.condition),
                ),
                None => ("kept", e.edge.relation.replace('_', " ")),
            };
            // AMG: the relation's confidence beside its name.
            let label = match e.confidence {
                Some(c) if e.blocked.is_none() => format!("{label} · {c:.1}"),
                _ => label,
            };
            let confidence = e.confidence.map(|c| format!("{c:.2}"));
            let (lx, ly) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 - 6.0);
            let condition = e
                .blocked
                .as_ref()
                .map(|b| b.condition.clone())
                .unwrap_or_default();
            view! {
                <g
                    class=format!("edge {state}")
                    data-testid="graph-edge"
                    data-state=state
                    data-subject=e.edge.subject.clone()
                    data-object=e.edge.object.clone()
                    data-condition=condition
                    data-confidence=confidence
                    tabindex="0"
                    on:mouseenter=move |_| hovered.set(Some(i))
                    on:focus=move |_| hovered.set(Some(i))
                >
                    <path d=d marker-end="url(#arrow)" />
                    <text x=lx y=ly text-anchor="middle">{label}</text>
                </g>
            }
            .into_any()
        })
        .collect_view();
    let node_views = nodes
        .iter()
        .map(|n| {
            let (cx, cy) = centre(n.layer, n.order);
            view! {
                <g
                    class=format!("node {}", n.role)
                    data-testid="graph-node"
                    data-role=n.role.clone()
                    data-label=n.label.clone()
                >
                    <rect
                        x=cx - NODE_WIDTH / 2.0
                        y=cy - NODE_HEIGHT / 2.0
                        width=NODE_WIDTH
                        height=NODE_HEIGHT
                        rx="8"
                    />
                    <text x=cx y=cy + 5.0 text-anchor="middle">{fit(&n.label)}</text>
                </g>
            }
        })
        .collect_view();
    let details = move || {
        hovered
            .get()
            .and_then(|i| edges.get(i).cloned())
            .map(|e| view! { <EdgeDetails edge=e /> })
    };
    view! {
        <div class="graph" data-testid="graph">
            <svg
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
                role="img"
                aria-label="The graph around the question: kept and blocked edges"
            >
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" />
                    </marker>
                </defs>
                // Edges after nodes: their labels stay readable where they cross a node.
                {node_views}
                {edge_views}
            </svg>
            <p class="legend">
                <span class="key entry">"entry"</span>
                <span class="key answer">"answer"</span>
                <span class="key kept">"kept edge"</span>
                <span class="key blocked">"blocked edge (condition)"</span>
                " · point at an edge for its details"
            </p>
            <div class="edge-details" data-testid="edge-details">{details}</div>
        </div>
    }
}

#[component]
fn EdgeDetails(edge: GraphEdge) -> impl IntoView {
    let e = edge.edge;
    let conditions = if e.conditions.is_empty() {
        "none".to_string()
    } else {
        e.conditions
            .iter()
            .map(|c| {
                let truth = match c.truth {
                    Truth::True => "true",
                    Truth::False => "false",
                    Truth::Unknown => "unknown",
                };
                format!(
                    "{}{} ({truth} for this patient)",
                    if c.negated { "not " } else { "" },
                    c.phrase
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let verdict = match &edge.blocked {
        Some(b) => format!(
            "Blocked: the patient's value of “{}” rules it out.",
            b.condition
        ),
        None => "Kept: no condition of the patient rules it out.".to_string(),
    };
    let confidence = edge.confidence.map(|c| {
        view! { <p>{format!("Confidence (AMG): {:.0} of 10", c * 10.0)}</p> }
    });
    let evidence = e
        .citations
        .iter()
        .map(|c| view! { <li><q>{c.text.clone()}</q> " — " {c.doc_name.clone()}</li> })
        .collect_view();
    view! {
        <p>
            <strong>{e.subject.clone()}</strong>
            " " {e.relation.replace('_', " ")} " "
            <strong>{e.object.clone()}</strong>
        </p>
        <p>"Conditions: " {conditions}</p>
        <p>{verdict}</p>
        {confidence}
        <ul class="evidence">{evidence}</ul>
    }
}
