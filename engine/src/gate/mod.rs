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
    /// The truth of each distinct condition phrase, by [`ConditionId`]: the reason an
    /// edge is closed is recomputed from it on demand instead of stored per edge.
    truths: Vec<Truth>,
}

impl Gate {
    /// Evaluates Eq. 1 for every edge of `graph` under `table`, once: O(|E| · |C_e|),
    /// each condition looked up by id.
    pub fn new(graph: &KnowledgeGraph, table: &ConditionTable, config: GateConfig) -> Gate {
        let mut open = FixedBitSet::with_capacity(graph.edge_count());
        open.insert_range(..);
        // Resolve each distinct condition once.
        let truths: Vec<Truth> = if config.enabled {
            graph
                .condition_phrases()
                .iter()
                .map(|p| table.phrase(p))
                .collect()
        } else {
            vec![Truth::Unknown; graph.condition_phrases().len()]
        };
        let any_false_possible = truths.iter().any(|t| *t != Truth::Unknown);
        let mut gate = Gate { open, truths };
        if any_false_possible {
            for edge in graph.edges() {
                if gate.closing_condition(graph, edge).is_some() {
                    gate.open.set(edge.0 as usize, false);
                }
            }
        }
        gate
    }

    /// Whether the edge may be traversed.
    pub fn is_open(&self, edge: EdgeId) -> bool {
        self.open.contains(edge.0 as usize)
    }

    /// The condition that closes the edge, with its polarity: the first of its
    /// conditions that evaluates false. `None` for an open edge.
    pub fn blocked_by(&self, graph: &KnowledgeGraph, edge: EdgeId) -> Option<(ConditionId, bool)> {
        if self.is_open(edge) {
            return None;
        }
        self.closing_condition(graph, edge)
    }

    fn closing_condition(
        &self,
        graph: &KnowledgeGraph,
        edge: EdgeId,
    ) -> Option<(ConditionId, bool)> {
        graph
            .edge(edge)?
            .conditions
            .iter()
            .copied()
            .find(|&(id, negated)| {
                let value = self
                    .truths
                    .get(id.0 as usize)
                    .copied()
                    .unwrap_or(Truth::Unknown);
                let value = if negated { value.negate() } else { value };
                value == Truth::False
            })
    }

    /// Every closed edge, in id order.
    pub fn blocked(&self) -> Vec<EdgeId> {
        self.open.zeroes().map(|e| EdgeId(e as u32)).collect()
    }

    /// The truth the gate used for a condition (unknown when gating is off).
    pub fn truth(&self, id: ConditionId) -> Truth {
        self.truths
            .get(id.0 as usize)
            .copied()
            .unwrap_or(Truth::Unknown)
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
        let (id, negated) = gate.blocked_by(&g, blocked[0]).expect("reason");
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
