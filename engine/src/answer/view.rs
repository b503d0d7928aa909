//! Plain values that describe edges, paths and citations for display and export, so
//! that callers never need the graph's internals to show an answer.

use crate::gate::{Gate, Path, Truth};
use crate::graph::{EdgeId, KnowledgeGraph};
use crate::text::Span;

use super::Prepared;

/// Where a statement was read: document, byte range and the sentence itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    pub doc: usize,
    pub doc_id: String,
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// A condition of an edge with its polarity and its truth for the patient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionView {
    pub phrase: String,
    pub negated: bool,
    pub truth: Truth,
}

/// An edge as shown to people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeView {
    pub id: u32,
    pub subject: String,
    pub relation: String,
    pub object: String,
    pub conditions: Vec<ConditionView>,
    pub citations: Vec<Citation>,
}

/// An edge the gate closed and the condition (with polarity) that closed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedEdge {
    pub edge: EdgeView,
    pub condition: String,
    pub negated: bool,
}

/// One path of the evidence package (Eq. 3): entities V_p, edges E_p with their
/// snippets S_p and conditions C_p.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidencePath {
    pub nodes: Vec<String>,
    pub edges: Vec<EdgeView>,
    pub score: f32,
}

pub(super) fn edge_view(prepared: &Prepared, gate: &Gate, edge: EdgeId) -> Option<EdgeView> {
    let graph = &prepared.graph;
    let data = graph.edge(edge)?;
    let (u, v) = graph.endpoints(edge)?;
    let conditions = data
        .conditions
        .iter()
        .filter_map(|&(id, negated)| {
            let c = graph.condition(id, negated)?;
            Some(ConditionView {
                phrase: c.phrase,
                negated,
                truth: gate.truth(id),
            })
        })
        .collect();
    let citations = data
        .evidence
        .iter()
        .filter_map(|span| citation(prepared, span))
        .collect();
    Some(EdgeView {
        id: edge.0,
        subject: graph.entity(u)?.label.clone(),
        relation: data.relation.name().to_string(),
        object: graph.entity(v)?.label.clone(),
        conditions,
        citations,
    })
}

/// The citation of a span of the documents.
pub(super) fn citation(prepared: &Prepared, span: &Span) -> Option<Citation> {
    let doc = prepared.docs.get(span.doc)?;
    Some(Citation {
        doc: span.doc,
        doc_id: doc.id.clone(),
        start: span.range.start,
        end: span.range.end,
        text: doc.text.get(span.range.clone())?.to_string(),
    })
}

pub(super) fn blocked_edge(prepared: &Prepared, gate: &Gate, edge: EdgeId) -> Option<BlockedEdge> {
    let (id, negated) = gate.blocked_by(&prepared.graph, edge)?;
    let phrase = prepared.graph.condition(id, negated)?.phrase;
    Some(BlockedEdge {
        edge: edge_view(prepared, gate, edge)?,
        condition: phrase,
        negated,
    })
}

pub(super) fn evidence_path(
    prepared: &Prepared,
    gate: &Gate,
    path: &Path,
    score: f32,
) -> Option<EvidencePath> {
    let graph = &prepared.graph;
    let nodes = path
        .nodes()
        .map(|n| graph.entity(n).map(|e| e.label.clone()))
        .collect::<Option<Vec<_>>>()?;
    let edges = path
        .steps
        .iter()
        .map(|s| edge_view(prepared, gate, s.edge))
        .collect::<Option<Vec<_>>>()?;
    Some(EvidencePath {
        nodes,
        edges,
        score,
    })
}

/// The path as text for Eq. 2: ⟨e1, r1, e2, r2, …⟩ joined by spaces, relations read in
/// the direction walked.
pub(super) fn linearise(graph: &KnowledgeGraph, path: &Path) -> String {
    let mut out = graph
        .entity(path.start)
        .map(|e| e.label.clone())
        .unwrap_or_default();
    for step in &path.steps {
        if let Some(e) = graph.edge(step.edge) {
            let name = if step.forward {
                e.relation.name().to_string()
            } else {
                e.relation.inverse_name()
            };
            out.push(' ');
            out.push_str(&name.replace('_', " "));
        }
        if let Some(n) = graph.entity(step.to) {
            out.push(' ');
            out.push_str(&n.label);
        }
    }
    out
}
