//! IKR, iterative evidence-subgraph refinement (paper 002, §3.3–3.5, Algorithms 1–2):
//! from the top-ranked entity, its 1-hop neighbours are scored for relevance to the
//! question and the top m kept; 2-hop neighbours are searched only from the kept 1-hop
//! ones (top m again); the next retrieved entity is added while the evidence is not yet
//! sufficient; and the subgraph is read out depth-first as a multi-level list whose
//! indices encode depth (how many parts) and breadth (the last part).
//!
//! The paper trains a two-layer MLP to score neighbours and a GNN to prune triples; with
//! no training data here, a neighbour's score is the cosine similarity between the
//! question and the text of the triple that reaches it ("lyme disease treated by
//! amoxicillin"), the same signal the paper's dense retriever ranks entities with.

use std::collections::{BTreeMap, BTreeSet};

use crate::gate::Gate;
use crate::graph::{KnowledgeGraph, NodeId};

/// k: entities retrieved (and added one at a time), m: neighbours kept per hop.
pub const K: usize = 5;
pub const M: usize = 5;

/// The evidence subgraph of one entity: the entity, its kept 1-hop neighbours, and the
/// kept 2-hop neighbours reached from those.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expansion {
    pub top: NodeId,
    pub one_hop: Vec<NodeId>,
    pub two_hop: Vec<NodeId>,
}

impl Expansion {
    /// Every node of the expansion.
    pub fn nodes(&self) -> BTreeSet<NodeId> {
        std::iter::once(self.top)
            .chain(self.one_hop.iter().copied())
            .chain(self.two_hop.iter().copied())
            .collect()
    }
}

/// Expands from `top` over the edges `gate` leaves open: the `m` best-scored 1-hop
/// neighbours, then the `m` best-scored 2-hop neighbours reachable from them (not `top`
/// nor a kept 1-hop node). `score(from, to)` rates reaching `to` from `from`; ties go to
/// the lower node id.
pub fn expand(
    graph: &KnowledgeGraph,
    gate: &Gate,
    top: NodeId,
    score: impl Fn(NodeId, NodeId) -> f32,
    m: usize,
) -> Expansion {
    let neighbours = |from: NodeId| -> BTreeMap<NodeId, f32> {
        let mut best: BTreeMap<NodeId, f32> = BTreeMap::new();
        for (edge, to, _) in graph.incident(from) {
            if gate.is_open(edge) && to != from {
                let s = score(from, to);
                let slot = best.entry(to).or_insert(f32::NEG_INFINITY);
                *slot = slot.max(s);
            }
        }
        best
    };
    let top_m = |scored: BTreeMap<NodeId, f32>| -> Vec<NodeId> {
        let mut v: Vec<(NodeId, f32)> = scored.into_iter().collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v.into_iter().take(m).map(|(n, _)| n).collect()
    };
    let one_hop = top_m(neighbours(top));
    let mut second: BTreeMap<NodeId, f32> = BTreeMap::new();
    for &n in &one_hop {
        for (to, s) in neighbours(n) {
            if to != top && !one_hop.contains(&to) {
                let slot = second.entry(to).or_insert(f32::NEG_INFINITY);
                *slot = slot.max(s);
            }
        }
    }
    Expansion {
        top,
        one_hop,
        two_hop: top_m(second),
    }
}

/// Algorithm 2, the topological readout: a depth-first traversal from `root` over
/// `neighbours` (in their order) that gives each node, when first seen, its parent's
/// index followed by its rank among the parent's new children and a dot: the root
/// "", its children "1.", "2.", a grandchild "2.1.". Nodes come out in the order they
/// were indexed. A stack is used, so the last child found is expanded first, as in the
/// paper.
pub fn readout<N: Copy + Ord>(root: N, neighbours: impl Fn(N) -> Vec<N>) -> Vec<(N, String)> {
    let mut index: BTreeMap<N, String> = BTreeMap::new();
    let mut order = vec![root];
    index.insert(root, String::new());
    let mut stack = vec![root];
    while let Some(t) = stack.pop() {
        let prefix = index.get(&t).cloned().unwrap_or_default();
        let mut rank = 1;
        for n in neighbours(t) {
            if index.contains_key(&n) {
                continue;
            }
            index.insert(n, format!("{prefix}{rank}."));
            order.push(n);
            stack.push(n);
            rank += 1;
        }
    }
    order
        .into_iter()
        .map(|n| {
            let i = index.get(&n).cloned().unwrap_or_default();
            (n, i)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// a: [b, c]; b: [a, d]; c: [a, e, d]. Pop a → b "1.", c "2."; pop c (last pushed)
    /// → e "2.1.", d "2.2."; d and e and b find nothing new. d is indexed under c, not
    /// under b, because the stack reached c first.
    #[test]
    fn the_readout_indexes_depth_first_from_the_stack() {
        let adjacency = |n: char| -> Vec<char> {
            match n {
                'a' => vec!['b', 'c'],
                'b' => vec!['a', 'd'],
                'c' => vec!['a', 'e', 'd'],
                'd' => vec!['b', 'c'],
                'e' => vec!['c'],
                _ => vec![],
            }
        };
        let out = readout('a', adjacency);
        let got: Vec<(char, &str)> = out.iter().map(|(n, i)| (*n, i.as_str())).collect();
        assert_eq!(
            got,
            [
                ('a', ""),
                ('b', "1."),
                ('c', "2."),
                ('e', "2.1."),
                ('d', "2.2.")
            ]
        );
        assert_eq!(readout('z', |_| Vec::new()), vec![('z', String::new())]);
    }

    /// A hub with six neighbours, m = 2: the two best-scored 1-hop neighbours are kept;
    /// 2-hop candidates come only from those two, never the hub or a kept 1-hop node.
    #[test]
    fn expansion_keeps_the_top_m_per_hop_and_searches_two_hops_from_kept_ones() {
        use crate::gate::{ConditionTable, GateConfig};
        use crate::graph::{GraphBuilder, Relation, Tuple};
        use crate::text::Span;
        let mut b = GraphBuilder::new();
        let mut add = |s: &str, o: &str| {
            b.add(Tuple::new(
                s,
                Relation::Other("r".into()),
                o,
                Vec::new(),
                Span {
                    doc: 0,
                    range: 0..0,
                },
            ))
        };
        for n in ["n1", "n2", "n3", "n4", "n5", "n6"] {
            add("hub", n);
        }
        add("n1", "x1");
        add("n2", "x2");
        add("n3", "x3");
        add("n1", "n2");
        let (graph, _) = b.build();
        let table = ConditionTable::new();
        let gate = Gate::new(&graph, &table, GateConfig { enabled: true });
        let id = |s: &str| graph.find(s).expect(s);
        let name = |n: NodeId| graph.entity(n).map(|e| e.label.clone()).unwrap_or_default();
        // Scores by the target's name: n2 > n1 > the rest; x2 > x1 > x3.
        let score = |_: NodeId, to: NodeId| match name(to).as_str() {
            "n2" => 0.9,
            "n1" => 0.8,
            "x2" => 0.7,
            "x1" => 0.6,
            "x3" => 0.99,
            _ => 0.1,
        };
        let e = expand(&graph, &gate, id("hub"), score, 2);
        let names = |v: &[NodeId]| v.iter().map(|&n| name(n)).collect::<Vec<_>>();
        assert_eq!(names(&e.one_hop), ["n2", "n1"]);
        // x3 scores highest but hangs off n3, which was not kept.
        assert_eq!(names(&e.two_hop), ["x2", "x1"]);
        assert_eq!(e.nodes().len(), 5);
    }
}
