//! Condition gating (CGR Eq. 1, Algorithm 1) and the breadth-first walk over what the
//! gate leaves open.
//!
//! The condition table L gives every condition phrase of the graph a [`Truth`] for one
//! patient. An edge is traversable unless one of its conditions is false — a condition
//! with polarity "¬c" is false when c is true. Unknown never blocks. The gate is a
//! bitset over edge ids: the graph is not touched, so the blocked edges can be shown
//! with the condition that blocked each.

mod walk;

pub use walk::{reachable, walk, Path, Step, WalkConfig, WalkOutcome};

use std::collections::HashMap;

use fixedbitset::FixedBitSet;

use crate::graph::{Condition, ConditionId, EdgeId, KnowledgeGraph};

/// The value of a condition for a patient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    /// The value of "¬c" given the value of c.
    pub fn negate(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }
}

/// The lookup table L: condition phrase key → truth for one question. Phrases not in
/// the table are unknown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConditionTable {
    values: HashMap<String, Truth>,
}

impl ConditionTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the truth of a condition phrase (any surface form of it).
    pub fn set(&mut self, phrase: &str, truth: Truth) {
        self.values.insert(Condition::holds(phrase).key(), truth);
    }

    /// The truth of a phrase, ignoring polarity.
    pub fn phrase(&self, phrase: &str) -> Truth {
        self.values
            .get(&Condition::holds(phrase).key())
            .copied()
            .unwrap_or(Truth::Unknown)
    }

    /// The truth of a condition with its polarity.
    pub fn get(&self, condition: &Condition) -> Truth {
        let value = self.phrase(&condition.phrase);
        if condition.negated {
            value.negate()
        } else {
            value
        }
    }

    /// Every phrase with a known value.
    pub fn entries(&self) -> impl Iterator<Item = (&str, Truth)> {
        self.values.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

/// Whether gating is applied; off is the paper's "w/o gating" ablation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateConfig {
    pub enabled: bool,
}

impl Default for GateConfig {
    fn default() -> Self {
        GateConfig { enabled: true }
    }
}

/// Which edges a patient's conditions leave open, and why the others are closed.
#[derive(Debug, Clone)]
pub struct Gate {
    open: FixedBitSet,
    /// For each closed edge, the first of its conditions that evaluated false.
    blocked_by: HashMap<EdgeId, (ConditionId, bool)>,
}

impl Gate {
    /// Evaluates Eq. 1 for every edge of `graph` under `table`, once: O(|E| · |C_e|),
    /// each condition looked up by id.
    pub fn new(graph: &KnowledgeGraph, table: &ConditionTable, config: GateConfig) -> Gate {
        let mut open = FixedBitSet::with_capacity(graph.edge_count());
        open.insert_range(..);
        let mut blocked_by = HashMap::new();
        if config.enabled {
            // Resolve each distinct condition once.
            let truths: Vec<Truth> = graph
                .condition_phrases()
                .iter()
                .map(|p| table.phrase(p))
                .collect();
            for edge in graph.edges() {
                let Some(data) = graph.edge(edge) else {
                    continue;
                };
                let blocking = data.conditions.iter().find(|&&(id, negated)| {
                    let value = truths.get(id.0 as usize).copied().unwrap_or(Truth::Unknown);
                    let value = if negated { value.negate() } else { value };
                    value == Truth::False
                });
                if let Some(&condition) = blocking {
                    open.set(edge.0 as usize, false);
                    blocked_by.insert(edge, condition);
                }
            }
        }
        Gate { open, blocked_by }
    }

    /// Whether the edge may be traversed.
    pub fn is_open(&self, edge: EdgeId) -> bool {
        self.open.contains(edge.0 as usize)
    }

    /// The condition that closed the edge, with its polarity, if it is closed.
    pub fn blocked_by(&self, edge: EdgeId) -> Option<(ConditionId, bool)> {
        self.blocked_by.get(&edge).copied()
    }

    /// Every closed edge, in id order.
    pub fn blocked(&self) -> Vec<EdgeId> {
        let mut edges: Vec<EdgeId> = self.blocked_by.keys().copied().collect();
        edges.sort();
        edges
    }

    pub fn open_count(&self) -> usize {
        self.open.count_ones(..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{GraphBuilder, Relation, Tuple};
    use crate::text::Span;

    /// The paper's Figure 2: hypertension with bilateral renal artery stenosis.
    fn figure_2() -> KnowledgeGraph {
        let span = Span {
            doc: 0,
            range: 0..1,
        };
        let mut b = GraphBuilder::new();
        b.alias("bilateral renal artery stenosis", "BRAS");
        let t = |v: &str, c: Vec<Condition>| {
            Tuple::new("hypertension", Relation::TreatedBy, v, c, span.clone())
        };
        b.add(t(
            "lisinopril",
            vec![
                Condition::excludes("BRAS"),
                Condition::excludes("pregnancy"),
            ],
        ));
        b.add(t("losartan", vec![Condition::excludes("BRAS")]));
        b.add(t("amlodipine", vec![]));
        b.build().0
    }

    #[test]
    fn figure_2_blocks_lisinopril_and_losartan_and_keeps_amlodipine() {
        let g = figure_2();
        let mut table = ConditionTable::new();
        table.set("BRAS", Truth::True);
        // pregnancy: unknown for a 68-year-old unless stated; it must not block.
        let gate = Gate::new(&g, &table, GateConfig::default());
        let status: Vec<(String, bool)> = g
            .edges()
            .map(|e| {
                let (_, v) = g.endpoints(e).expect("edge");
                (g.entity(v).expect("node").label.clone(), gate.is_open(e))
            })
            .collect();
        assert_eq!(
            status,
            [
                ("lisinopril".to_string(), false),
                ("losartan".to_string(), false),
                ("amlodipine".to_string(), true)
            ]
        );
        let blocked = gate.blocked();
        let (id, negated) = gate.blocked_by(blocked[0]).expect("reason");
        assert_eq!(
            g.condition(id, negated).map(|c| c.to_string()).as_deref(),
            Some("¬BRAS")
        );
    }

    #[test]
    fn unknown_never_blocks_and_gating_can_be_switched_off() {
        let g = figure_2();
        let gate = Gate::new(&g, &ConditionTable::new(), GateConfig::default());
        assert_eq!(gate.open_count(), 3);
        let mut table = ConditionTable::new();
        table.set("bras", Truth::True);
        let gate = Gate::new(&g, &table, GateConfig { enabled: false });
        assert_eq!(gate.open_count(), 3);
        assert!(gate.blocked().is_empty());
    }

    #[test]
    fn a_required_condition_blocks_when_false_and_negation_flips() {
        let mut table = ConditionTable::new();
        table.set("in adults", Truth::False);
        assert_eq!(table.get(&Condition::holds("In adults")), Truth::False);
        assert_eq!(table.get(&Condition::excludes("in adults")), Truth::True);
        assert_eq!(table.get(&Condition::holds("in children")), Truth::Unknown);
        assert_eq!(
            table.get(&Condition::excludes("in children")),
            Truth::Unknown
        );
    }
}
