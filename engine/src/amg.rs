//! AMG, confidence-guided exploration (paper 001, §3.2 and Algorithm 1): every relation
//! carries a confidence score from 1 to 10 (Appendix A's scale), a node reached from a
//! question term has the confidence of its parent times the relation's score (as a
//! fraction of 10), and exploration goes on through a child only while that product is
//! at least τ. Each term gets its own trace: what it reached, how confidently, by which
//! chain.
//!
//! The paper has an LLM score each relation it infers. Here the score comes from what
//! the sentence that states the relation commits to: the relation's kind (a stated
//! preference or contraindication is Appendix A's "directly and strongly related", 10; a
//! listed option 8; a risk factor 6 …) less 2 for each hedge in the sentence ("may",
//! "possibly", "some studies" …), never below 1.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

use crate::gate::Gate;
use crate::graph::{EdgeId, KnowledgeGraph, NodeId, Relation};
use crate::text::Document;

/// The exploration threshold τ the strategy uses: a chain of two listed options
/// (0.8 · 0.8 = 0.64) passes, a third hop or a hedged link (0.6) stops.
pub const DEFAULT_TAU: f32 = 0.5;

/// Words that make a statement tentative; each costs 2 points of confidence.
const HEDGES: [&str; 10] = [
    "may", "might", "could", "possibly", "possible", "perhaps", "suggest", "suggests", "unclear",
    "limited",
];

/// The confidence (1–10) of a relation of kind `relation` stated by `sentence`.
pub fn confidence(relation: &Relation, sentence: &str) -> u8 {
    let base: u8 = match relation {
        Relation::PreferredTreatment
        | Relation::PreferredTest
        | Relation::ContraindicatedIn
        | Relation::SafeIn => 10,
        Relation::IsA => 9,
        Relation::TreatedBy
        | Relation::DiagnosedBy
        | Relation::Causes
        | Relation::InteractsWith => 8,
        Relation::AlternativeTreatment | Relation::Replaces => 7,
        Relation::RiskFactor => 6,
        Relation::Other(_) => 5,
    };
    let lower = sentence.to_lowercase();
    let hedges = crate::text::words(&lower)
        .into_iter()
        .filter(|w| w.is_word && HEDGES.contains(&w.text(&lower)))
        .count()
        + usize::from(lower.contains("some studies") || lower.contains("some evidence"));
    let penalty = u8::try_from(hedges.saturating_mul(2)).unwrap_or(u8::MAX);
    base.saturating_sub(penalty).max(1)
}

/// An edge's relation score in (0, 1]: the confidence of the best-stated of its
/// sentences, over 10.
pub fn edge_score(graph: &KnowledgeGraph, docs: &[Document], edge: EdgeId) -> f32 {
    graph.edge(edge).map_or(0.0, |e| {
        e.evidence
            .iter()
            .map(|span| {
                let sentence = docs
                    .get(span.doc)
                    .and_then(|d| d.text.get(span.range.clone()))
                    .unwrap_or_default();
                f32::from(confidence(&e.relation, sentence)) / 10.0
            })
            .fold(0.0, f32::max)
    })
}

/// A node a term reached, with its confidence and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Reached {
    pub node: NodeId,
    /// s(n_j): the product of the relation scores along the chain (1.0 for the term).
    pub confidence: f32,
    /// The chain from the term: edges in order.
    pub via: Vec<EdgeId>,
}

/// One term's exploration.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub term: NodeId,
    /// The term first, then every node reached at ≥ τ, most confident first.
    pub reached: Vec<Reached>,
}

/// A trace as shown: labels instead of ids.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceView {
    pub term: String,
    /// (label, confidence, hops), most confident first; the term itself first.
    pub reached: Vec<(String, f32, usize)>,
}

impl Trace {
    pub fn view(&self, graph: &KnowledgeGraph) -> TraceView {
        let label = |n: NodeId| graph.entity(n).map(|e| e.label.clone()).unwrap_or_default();
        TraceView {
            term: label(self.term),
            reached: self
                .reached
                .iter()
                .map(|r| (label(r.node), r.confidence, r.via.len()))
                .collect(),
        }
    }
}

/// Explores from `term` through the edges `gate` leaves open, in either direction, to
/// every node whose best chain keeps confidence ≥ `tau` (at most `max_depth` edges).
/// `score` gives each edge's relation score in (0, 1]. Best-first: a product of scores
/// never grows along a chain, so the first time a node is taken from the queue its
/// confidence is its best.
pub fn explore(
    graph: &KnowledgeGraph,
    gate: &Gate,
    term: NodeId,
    score: impl Fn(EdgeId) -> f32,
    tau: f32,
    max_depth: usize,
) -> Trace {
    let mut best: BTreeMap<NodeId, Reached> = BTreeMap::new();
    let mut queue = BinaryHeap::new();
    queue.push(Entry(Reached {
        node: term,
        confidence: 1.0,
        via: Vec::new(),
    }));
    while let Some(Entry(here)) = queue.pop() {
        if best.contains_key(&here.node) {
            continue;
        }
        if here.via.len() < max_depth {
            for (edge, next, _) in graph.incident(here.node) {
                if !gate.is_open(edge) || best.contains_key(&next) {
                    continue;
                }
                let confidence = here.confidence * score(edge);
                if confidence >= tau {
                    let mut via = here.via.clone();
                    via.push(edge);
                    queue.push(Entry(Reached {
                        node: next,
                        confidence,
                        via,
                    }));
                }
            }
        }
        best.insert(here.node, here);
    }
    let mut reached: Vec<Reached> = best.into_values().collect();
    reached.sort_by(|a, b| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(a.via.len().cmp(&b.via.len()))
            .then(a.node.cmp(&b.node))
    });
    Trace { term, reached }
}

/// The queue's order: most confident first, then fewer hops, then the lower node id.
struct Entry(Reached);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .confidence
            .total_cmp(&other.0.confidence)
            .then(other.0.via.len().cmp(&self.0.via.len()))
            .then(other.0.node.cmp(&self.0.node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::{ConditionTable, GateConfig};
    use crate::graph::{GraphBuilder, Tuple};
    use crate::text::Span;

    fn tuple(s: &str, r: Relation, o: &str) -> Tuple {
        Tuple::new(
            s,
            r,
            o,
            Vec::new(),
            Span {
                doc: 0,
                range: 0..0,
            },
        )
    }

    #[test]
    fn confidence_follows_the_relation_and_loses_two_points_per_hedge() {
        let s = "Amoxicillin is recommended for Lyme disease.";
        assert_eq!(confidence(&Relation::PreferredTreatment, s), 10);
        assert_eq!(confidence(&Relation::TreatedBy, s), 8);
        assert_eq!(confidence(&Relation::RiskFactor, s), 6);
        let hedged = "Cefuroxime may possibly be used when amoxicillin is not tolerated.";
        assert_eq!(confidence(&Relation::AlternativeTreatment, hedged), 3);
        assert_eq!(
            confidence(
                &Relation::Other("x".into()),
                "It may, perhaps, possibly help."
            ),
            1
        );
        assert_eq!(
            confidence(&Relation::Causes, "Some studies link X to Y."),
            6
        );
    }

    /// a —0.9— b —0.8— c —0.6— d, and a —0.5— d; τ = 0.5.
    /// b: 0.9; c: 0.72; d through c: 0.432 < τ, so d's confidence is the direct 0.5.
    /// With τ = 0.6 the direct link (0.5) is cut and d through c (0.432) too: d is not
    /// reached. Depth 1 stops at a's neighbours.
    #[test]
    fn child_confidence_is_parent_times_relation_and_exploration_stops_below_tau() {
        let mut b = GraphBuilder::new();
        b.add(tuple("a", Relation::Other("r1".into()), "b"));
        b.add(tuple("b", Relation::Other("r2".into()), "c"));
        b.add(tuple("c", Relation::Other("r3".into()), "d"));
        b.add(tuple("a", Relation::Other("r4".into()), "d"));
        let (graph, _) = b.build();
        let table = ConditionTable::new();
        let gate = Gate::new(&graph, &table, GateConfig { enabled: true });
        let name = |n: NodeId| graph.entity(n).map(|e| e.label.clone()).unwrap_or_default();
        let score = |e: EdgeId| match graph
            .edge(e)
            .map(|x| x.relation.name().to_string())
            .as_deref()
        {
            Some("r1") => 0.9,
            Some("r2") => 0.8,
            Some("r3") => 0.6,
            _ => 0.5,
        };
        let a = graph.find("a").expect("a");
        let trace = explore(&graph, &gate, a, score, 0.5, 5);
        let got: Vec<(String, f32, usize)> = trace
            .reached
            .iter()
            .map(|r| {
                (
                    name(r.node),
                    (r.confidence * 1000.0).round() / 1000.0,
                    r.via.len(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("a".into(), 1.0, 0),
                ("b".into(), 0.9, 1),
                ("c".into(), 0.72, 2),
                ("d".into(), 0.5, 1)
            ]
        );
        let strict = explore(&graph, &gate, a, score, 0.6, 5);
        let names: Vec<String> = strict.reached.iter().map(|r| name(r.node)).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let shallow = explore(&graph, &gate, a, score, 0.0, 1);
        let names: Vec<String> = shallow.reached.iter().map(|r| name(r.node)).collect();
        assert_eq!(names, ["a", "b", "d"]);
    }
}
