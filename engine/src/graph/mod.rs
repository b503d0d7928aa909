//! The condition-aware knowledge graph: nodes are normalised entities, edges are tuples
//! with their conditions and evidence. Built once per document set, never edited by a
//! query — gating ([`crate::gate`]) is a predicate over edges, so one graph serves many
//! questions and the blocked edges stay visible.

mod tuple;

pub use tuple::{Condition, Relation, Stance, Tuple};

use std::collections::{BTreeSet, HashMap};

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::text::{normalize_term, Span};

/// A node of a [`KnowledgeGraph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// An edge of a [`KnowledgeGraph`]; edge ids are dense, `0..graph.edge_count()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeId(pub u32);

/// A distinct condition phrase of the graph (the domain of the condition table L).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConditionId(pub u32);

/// A normalised entity and the ways the documents wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// The comparison key ([`normalize_term`]).
    pub key: String,
    /// The label shown: the first surface form seen.
    pub label: String,
    /// Every surface form and alias seen, including the label.
    pub surfaces: BTreeSet<String>,
}

/// An edge: a relation that holds under conditions, with where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub relation: Relation,
    /// Conditions with their polarity; `ConditionId` indexes [`KnowledgeGraph::condition_phrases`].
    pub conditions: Vec<(ConditionId, bool)>,
    /// Every sentence that stated this edge.
    pub evidence: Vec<Span>,
}

/// Something graph construction had to skip or change, for the user to see.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub evidence: Option<Span>,
    pub message: String,
}

/// The graph. Construct with [`GraphBuilder`].
#[derive(Debug, Clone, Default)]
pub struct KnowledgeGraph {
    graph: DiGraph<Entity, Edge, u32>,
    by_key: HashMap<String, NodeId>,
    condition_phrases: Vec<String>,
}

impl KnowledgeGraph {
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.graph.node_indices().map(|n| NodeId(n.index() as u32))
    }

    pub fn edges(&self) -> impl Iterator<Item = EdgeId> + '_ {
        self.graph.edge_indices().map(|e| EdgeId(e.index() as u32))
    }

    /// The entity of a node. Ids come from this graph; a foreign id gives `None`.
    pub fn entity(&self, node: NodeId) -> Option<&Entity> {
        self.graph.node_weight(NodeIndex::new(node.0 as usize))
    }

    pub fn edge(&self, edge: EdgeId) -> Option<&Edge> {
        self.graph.edge_weight(EdgeIndex::new(edge.0 as usize))
    }

    /// The edge's (subject, object).
    pub fn endpoints(&self, edge: EdgeId) -> Option<(NodeId, NodeId)> {
        self.graph
            .edge_endpoints(EdgeIndex::new(edge.0 as usize))
            .map(|(a, b)| (NodeId(a.index() as u32), NodeId(b.index() as u32)))
    }

    /// The node whose key `term` normalises to, if any.
    pub fn find(&self, term: &str) -> Option<NodeId> {
        self.by_key.get(&normalize_term(term)).copied()
    }

    /// Edges touching `node`, each with the neighbour and whether the edge points away
    /// from `node` (`true`) or into it.
    pub fn incident(&self, node: NodeId) -> impl Iterator<Item = (EdgeId, NodeId, bool)> + '_ {
        let n = NodeIndex::new(node.0 as usize);
        let out = self.graph.edges_directed(n, Direction::Outgoing).map(|e| {
            (
                EdgeId(e.id().index() as u32),
                NodeId(e.target().index() as u32),
                true,
            )
        });
        let into = self.graph.edges_directed(n, Direction::Incoming).map(|e| {
            (
                EdgeId(e.id().index() as u32),
                NodeId(e.source().index() as u32),
                false,
            )
        });
        out.chain(into)
    }

    /// Every distinct condition phrase, indexed by [`ConditionId`].
    pub fn condition_phrases(&self) -> &[String] {
        &self.condition_phrases
    }

    /// A condition of an edge as a [`Condition`] value.
    pub fn condition(&self, id: ConditionId, negated: bool) -> Option<Condition> {
        self.condition_phrases
            .get(id.0 as usize)
            .map(|phrase| Condition {
                phrase: phrase.clone(),
                negated,
            })
    }

    /// The edge as a readable tuple (labels, relation, conditions).
    pub fn describe(&self, edge: EdgeId) -> Option<String> {
        let data = self.edge(edge)?;
        let (u, v) = self.endpoints(edge)?;
        let conditions: Vec<String> = data
            .conditions
            .iter()
            .filter_map(|&(c, neg)| self.condition(c, neg).map(|c| c.to_string()))
            .collect();
        Some(format!(
            "⟨{}, {}, {}, [{}]⟩",
            self.entity(u)?.label,
            data.relation,
            self.entity(v)?.label,
            conditions.join(", ")
        ))
    }
}

/// Names of one entity: a union-find over [`normalize_term`] keys whose representative
/// is the longest key (the most explicit name).
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    parent: HashMap<String, String>,
}

impl Aliases {
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that `a` and `b` name the same entity.
    pub fn join(&mut self, a: &str, b: &str) {
        let (a, b) = (normalize_term(a), normalize_term(b));
        if a.is_empty() || b.is_empty() {
            return;
        }
        let (ra, rb) = (self.root(&a), self.root(&b));
        if ra != rb {
            let (keep, merge) = if (ra.len(), &ra) >= (rb.len(), &rb) {
                (ra, rb)
            } else {
                (rb, ra)
            };
            self.parent.insert(merge, keep);
        }
    }

    /// The representative key of a term.
    pub fn key(&self, term: &str) -> String {
        self.root(&normalize_term(term))
    }

    /// The representative of an already normalised key.
    fn root(&self, key: &str) -> String {
        let mut current = key.to_string();
        // Bounded: every union links a root to another root, so chains end.
        for _ in 0..=self.parent.len() {
            match self.parent.get(&current) {
                Some(next) if *next != current => current = next.clone(),
                _ => break,
            }
        }
        current
    }
}

/// What makes two tuples one edge: endpoints, relation and conditions.
type EdgeKey = (NodeId, Relation, NodeId, Vec<(ConditionId, bool)>);

/// Collects tuples and aliases, then builds a [`KnowledgeGraph`].
#[derive(Debug, Default)]
pub struct GraphBuilder {
    tuples: Vec<Tuple>,
    /// `alias(a, b)` makes them one node.
    aliases: Aliases,
    diagnostics: Vec<Diagnostic>,
}

impl GraphBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that `alias` names the same entity as `term` ("MDD" and "major
    /// depressive disorder").
    pub fn alias(&mut self, term: &str, alias: &str) {
        self.aliases.join(term, alias);
    }

    /// Adds a tuple; a tuple with an empty subject or object, or the same entity on
    /// both sides, is skipped with a diagnostic.
    pub fn add(&mut self, tuple: Tuple) {
        let (s, o) = (
            normalize_term(&tuple.subject),
            normalize_term(&tuple.object),
        );
        if s.is_empty() || o.is_empty() {
            self.diagnostics.push(Diagnostic {
                evidence: Some(tuple.evidence.clone()),
                message: format!("skipped {tuple}: an empty subject or object"),
            });
            return;
        }
        self.tuples.push(tuple);
    }

    /// Builds the graph: one node per entity key (after aliases), one edge per distinct
    /// (subject, relation, object, conditions), evidence merged.
    pub fn build(mut self) -> (KnowledgeGraph, Vec<Diagnostic>) {
        let mut kg = KnowledgeGraph::default();
        let mut condition_ids: HashMap<String, ConditionId> = HashMap::new();
        let mut edge_ids: HashMap<EdgeKey, EdgeIndex> = HashMap::new();
        let tuples = std::mem::take(&mut self.tuples);
        for tuple in tuples {
            let u = self.node(&mut kg, &tuple.subject);
            let v = self.node(&mut kg, &tuple.object);
            if u == v {
                self.diagnostics.push(Diagnostic {
                    evidence: Some(tuple.evidence.clone()),
                    message: format!("skipped {tuple}: subject and object are the same entity"),
                });
                continue;
            }
            let mut conditions: Vec<(ConditionId, bool)> = Vec::new();
            for condition in &tuple.conditions {
                let key = condition.key();
                if key.is_empty() {
                    continue;
                }
                let id = *condition_ids.entry(key).or_insert_with(|| {
                    kg.condition_phrases
                        .push(condition.phrase.trim().to_string());
                    ConditionId(kg.condition_phrases.len() as u32 - 1)
                });
                if !conditions.contains(&(id, condition.negated)) {
                    conditions.push((id, condition.negated));
                }
            }
            conditions.sort();
            let key = (u, tuple.relation.clone(), v, conditions.clone());
            match edge_ids.get(&key) {
                Some(&e) => {
                    if let Some(edge) = kg.graph.edge_weight_mut(e) {
                        if !edge.evidence.contains(&tuple.evidence) {
                            edge.evidence.push(tuple.evidence);
                        }
                    }
                }
                None => {
                    let e = kg.graph.add_edge(
                        NodeIndex::new(u.0 as usize),
                        NodeIndex::new(v.0 as usize),
                        Edge {
                            relation: tuple.relation,
                            conditions,
                            evidence: vec![tuple.evidence],
                        },
                    );
                    edge_ids.insert(key, e);
                }
            }
        }
        // Aliases that never occurred in a tuple still resolve to their entity.
        let alias_keys: Vec<String> = self.aliases.parent.keys().cloned().collect();
        for key in alias_keys {
            let root = self.root(&key);
            if let Some(&node) = kg.by_key.get(&root) {
                kg.by_key.entry(key).or_insert(node);
            }
        }
        (kg, self.diagnostics)
    }

    fn root(&self, key: &str) -> String {
        self.aliases.root(key)
    }

    fn node(&self, kg: &mut KnowledgeGraph, surface: &str) -> NodeId {
        let key = normalize_term(surface);
        let root = self.root(&key);
        let surface = surface.trim().to_string();
        if let Some(&id) = kg.by_key.get(&root) {
            if let Some(entity) = kg.graph.node_weight_mut(NodeIndex::new(id.0 as usize)) {
                entity.surfaces.insert(surface);
            }
            kg.by_key.entry(key).or_insert(id);
            return id;
        }
        let index = kg.graph.add_node(Entity {
            key: root.clone(),
            label: surface.clone(),
            surfaces: BTreeSet::from([surface]),
        });
        let id = NodeId(index.index() as u32);
        kg.by_key.insert(root, id);
        kg.by_key.insert(key, id);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span() -> Span {
        Span {
            doc: 0,
            range: 0..1,
        }
    }

    #[test]
    fn builds_multi_edges_merges_duplicates_and_keeps_condition_polarity() {
        let mut b = GraphBuilder::new();
        let t = |v: &str, c: Vec<Condition>| {
            Tuple::new("hypertension", Relation::TreatedBy, v, c, span())
        };
        b.add(t(
            "lisinopril",
            vec![
                Condition::excludes("BRAS"),
                Condition::excludes("pregnancy"),
            ],
        ));
        b.add(t(
            "Lisinopril",
            vec![
                Condition::excludes("pregnancy"),
                Condition::excludes("BRAS"),
            ],
        ));
        b.add(t("lisinopril", vec![]));
        b.add(t("amlodipine", vec![]));
        let (g, diagnostics) = b.build();
        assert!(diagnostics.is_empty());
        assert_eq!(g.node_count(), 3);
        // The two conditioned statements are one edge; the unconditioned one is another.
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.condition_phrases(), ["BRAS", "pregnancy"]);
        let lisinopril = g.find("LISINOPRIL").expect("node");
        let entity = g.entity(lisinopril).expect("entity");
        assert_eq!(entity.surfaces.len(), 2);
        let described: Vec<String> = g.edges().filter_map(|e| g.describe(e)).collect();
        assert!(
            described.contains(
                &"⟨hypertension, treated_by, lisinopril, [¬BRAS, ¬pregnancy]⟩".to_string()
            ),
            "{described:?}"
        );
    }

    #[test]
    fn aliases_resolve_to_one_node_in_either_order() {
        let mut b = GraphBuilder::new();
        b.alias("major depressive disorder", "MDD");
        b.add(Tuple::new(
            "MDD",
            Relation::TreatedBy,
            "bupropion",
            vec![],
            span(),
        ));
        b.add(Tuple::new(
            "major depressive disorders",
            Relation::TreatedBy,
            "sertraline",
            vec![],
            span(),
        ));
        let (g, _) = b.build();
        assert_eq!(g.node_count(), 3);
        let mdd = g.find("mdd").expect("alias resolves");
        assert_eq!(g.find("Major depressive disorder"), Some(mdd));
        assert_eq!(g.incident(mdd).count(), 2);
    }

    #[test]
    fn empty_and_self_referencing_tuples_become_diagnostics() {
        let mut b = GraphBuilder::new();
        b.add(Tuple::new("  ", Relation::TreatedBy, "x", vec![], span()));
        b.add(Tuple::new(
            "Aspirin",
            Relation::IsA,
            "aspirin",
            vec![],
            span(),
        ));
        let (g, diagnostics) = b.build();
        assert_eq!(g.edge_count(), 0);
        assert_eq!(diagnostics.len(), 2);
        assert!(diagnostics[1].message.contains("same entity"));
    }
}
