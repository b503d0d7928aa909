//! Breadth-first walks from entry nodes over open edges (CGR §4.3.1). Edges are walked
//! in both directions — a tuple read backwards is its inverse relation — and a path
//! never revisits a node. A path stops at `max_depth` edges, when no open edge leads
//! on, or at a leaf; every path of one or more edges is a candidate.

use std::collections::VecDeque;

use fixedbitset::FixedBitSet;

use super::Gate;
use crate::graph::{EdgeId, KnowledgeGraph, NodeId};

/// Limits of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkConfig {
    /// d_max: the most edges in a path.
    pub max_depth: usize,
    /// Stop collecting after this many paths (the outcome says so), so that a dense
    /// graph cannot exhaust memory.
    pub max_paths: usize,
}

impl Default for WalkConfig {
    fn default() -> Self {
        WalkConfig {
            max_depth: 2,
            max_paths: 20_000,
        }
    }
}

/// One edge of a path, walked forwards (subject → object) or backwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    pub edge: EdgeId,
    pub forward: bool,
    /// The node this step arrives at.
    pub to: NodeId,
}

/// A path from an entry node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Path {
    pub start: NodeId,
    pub steps: Vec<Step>,
}

impl Path {
    /// The last node of the path.
    pub fn end(&self) -> NodeId {
        self.steps.last().map_or(self.start, |s| s.to)
    }

    /// The nodes in order, start first.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::once(self.start).chain(self.steps.iter().map(|s| s.to))
    }
}

/// The paths a walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkOutcome {
    pub paths: Vec<Path>,
    /// Whether `max_paths` cut the walk short.
    pub truncated: bool,
}

/// All simple paths of 1..=`max_depth` open edges from each entry node, shortest first.
pub fn walk(
    graph: &KnowledgeGraph,
    gate: &Gate,
    entries: &[NodeId],
    config: WalkConfig,
) -> WalkOutcome {
    let mut paths = Vec::new();
    let mut queue: VecDeque<Path> = VecDeque::new();
    let mut seen_entry = FixedBitSet::with_capacity(graph.node_count());
    for &entry in entries {
        if (entry.0 as usize) < graph.node_count() && !seen_entry.put(entry.0 as usize) {
            queue.push_back(Path {
                start: entry,
                steps: Vec::new(),
            });
        }
    }
    while let Some(path) = queue.pop_front() {
        if path.steps.len() >= config.max_depth {
            continue;
        }
        let end = path.end();
        for (edge, next, forward) in graph.incident(end) {
            if !gate.is_open(edge) || path.nodes().any(|n| n == next) {
                continue;
            }
            if paths.len() >= config.max_paths {
                return WalkOutcome {
                    paths,
                    truncated: true,
                };
            }
            let mut longer = path.clone();
            longer.steps.push(Step {
                edge,
                forward,
                to: next,
            });
            paths.push(longer.clone());
            queue.push_back(longer);
        }
    }
    WalkOutcome {
        paths,
        truncated: false,
    }
}

/// The nodes reachable from `entries` within `max_depth` open edges, and how many edge
/// visits that took: the O(|V| + |E|) breadth-first pass, without path enumeration.
pub fn reachable(
    graph: &KnowledgeGraph,
    gate: &Gate,
    entries: &[NodeId],
    max_depth: usize,
) -> (FixedBitSet, usize) {
    let mut seen = FixedBitSet::with_capacity(graph.node_count());
    let mut frontier: Vec<NodeId> = Vec::new();
    for &entry in entries {
        if (entry.0 as usize) < graph.node_count() && !seen.put(entry.0 as usize) {
            frontier.push(entry);
        }
    }
    let mut visits = 0;
    for _ in 0..max_depth {
        let mut next_frontier = Vec::new();
        for node in frontier {
            for (edge, next, _) in graph.incident(node) {
                visits += 1;
                if gate.is_open(edge) && !seen.put(next.0 as usize) {
                    next_frontier.push(next);
                }
            }
        }
        if next_frontier.is_empty() {
            break;
        }
        frontier = next_frontier;
    }
    (seen, visits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::{ConditionTable, GateConfig, Truth};
    use crate::graph::{Condition, GraphBuilder, Relation, Tuple};
    use crate::text::Span;

    fn graph(edges: &[(&str, &str, &[Condition])]) -> KnowledgeGraph {
        let mut b = GraphBuilder::new();
        for (u, v, c) in edges {
            b.add(Tuple::new(
                *u,
                Relation::TreatedBy,
                *v,
                c.to_vec(),
                Span {
                    doc: 0,
                    range: 0..1,
                },
            ));
        }
        b.build().0
    }

    fn labels(g: &KnowledgeGraph, p: &Path) -> String {
        p.nodes()
            .map(|n| g.entity(n).map_or("?", |e| e.label.as_str()))
            .collect::<Vec<_>>()
            .join(" - ")
    }

    #[test]
    fn walks_both_directions_to_max_depth_without_revisiting() {
        // a → b → c → d, and e → b
        let g = graph(&[
            ("a", "b", &[]),
            ("b", "c", &[]),
            ("c", "d", &[]),
            ("e", "b", &[]),
        ]);
        let gate = Gate::new(&g, &ConditionTable::new(), GateConfig::default());
        let a = g.find("a").expect("a");
        let out = walk(
            &g,
            &gate,
            &[a],
            WalkConfig {
                max_depth: 2,
                max_paths: 100,
            },
        );
        let got: Vec<String> = out.paths.iter().map(|p| labels(&g, p)).collect();
        assert_eq!(got, ["a - b", "a - b - c", "a - b - e"]);
        assert!(!out.truncated);
        assert!(!out.paths[2].steps[1].forward, "e → b is walked backwards");
    }

    #[test]
    fn closed_edges_stop_the_walk_and_the_cap_truncates() {
        let blocked = [Condition::holds("in adults")];
        let g = graph(&[("a", "b", &blocked), ("a", "c", &[]), ("c", "d", &[])]);
        let mut table = ConditionTable::new();
        table.set("in adults", Truth::False);
        let gate = Gate::new(&g, &table, GateConfig::default());
        let a = g.find("a").expect("a");
        let out = walk(&g, &gate, &[a], WalkConfig::default());
        let got: Vec<String> = out.paths.iter().map(|p| labels(&g, p)).collect();
        assert_eq!(got, ["a - c", "a - c - d"]);
        let out = walk(
            &g,
            &gate,
            &[a],
            WalkConfig {
                max_depth: 2,
                max_paths: 1,
            },
        );
        assert_eq!(out.paths.len(), 1);
        assert!(out.truncated);
        let (seen, _) = reachable(&g, &gate, &[a], 2);
        assert_eq!(seen.count_ones(..), 3, "a, c, d");
    }

    #[test]
    fn foreign_or_repeated_entry_ids_are_ignored() {
        let g = graph(&[("a", "b", &[])]);
        let gate = Gate::new(&g, &ConditionTable::new(), GateConfig::default());
        let a = g.find("a").expect("a");
        let out = walk(&g, &gate, &[a, a, NodeId(99)], WalkConfig::default());
        assert_eq!(out.paths.len(), 1);
        let (seen, _) = reachable(&g, &gate, &[NodeId(99)], 2);
        assert_eq!(seen.count_ones(..), 0);
    }
}
