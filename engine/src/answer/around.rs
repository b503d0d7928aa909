//! The graph around a question, laid out in layers for the gated-path view: the
//! question's subject (entry nodes that are not candidate answers) in layer 0, then
//! each node at its hop distance from it (the answer usually last), with the edges of the evidence paths, the blocked edges that
//! touch them, and which condition blocked each. Layers read left to right from the
//! question to the answer, which a force layout of the same edges does not.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::{Answer, BlockedEdge, EdgeView};

/// Nodes in layers and the edges between them.
#[derive(Debug, Clone, PartialEq)]
pub struct Around {
    pub nodes: Vec<AroundNode>,
    pub edges: Vec<AroundEdge>,
    /// How many layers (the largest `layer` + 1).
    pub layers: usize,
}

/// What a node is to the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeRole {
    /// Matched the question's keywords: where the walk started.
    Entry,
    /// The answer.
    Answer,
    /// Any other node on an evidence path or at the end of a blocked edge.
    Other,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AroundNode {
    pub label: String,
    pub role: NodeRole,
    /// Hop distance from the nearest entry node over the edges shown.
    pub layer: usize,
    /// Position within the layer, 0 first (neighbours' mean position in the layer
    /// before, so edges cross little).
    pub order: usize,
}

/// Whether the gate kept an edge.
#[derive(Debug, Clone, PartialEq)]
pub enum EdgeState {
    /// Open, on one of the evidence paths.
    Kept,
    /// Closed by `condition` (`negated`: the edge holds only when it does not).
    Blocked { condition: String, negated: bool },
}

#[derive(Debug, Clone, PartialEq)]
pub struct AroundEdge {
    /// Indices into [`Around::nodes`]: the edge's subject and object.
    pub from: usize,
    pub to: usize,
    pub edge: EdgeView,
    pub state: EdgeState,
}

/// The layered graph around `answer`: its evidence paths and the blocked edges that
/// touch a node of them or an entry node.
pub fn around(answer: &Answer) -> Around {
    let mut labels: Vec<String> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut node = |label: &str, labels: &mut Vec<String>| -> usize {
        *index.entry(label.to_string()).or_insert_with(|| {
            labels.push(label.to_string());
            labels.len() - 1
        })
    };
    for entry in &answer.entries {
        node(entry, &mut labels);
    }
    let mut edges: Vec<AroundEdge> = Vec::new();
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    for path in &answer.evidence {
        for e in &path.edges {
            if seen.insert(e.id) {
                let from = node(&e.subject, &mut labels);
                let to = node(&e.object, &mut labels);
                edges.push(AroundEdge {
                    from,
                    to,
                    edge: e.clone(),
                    state: EdgeState::Kept,
                });
            }
        }
    }
    let shown: BTreeSet<String> = labels.iter().cloned().collect();
    for BlockedEdge {
        edge,
        condition,
        negated,
    } in &answer.blocked
    {
        let touches = shown.contains(&edge.subject) || shown.contains(&edge.object);
        if touches && seen.insert(edge.id) {
            let from = node(&edge.subject, &mut labels);
            let to = node(&edge.object, &mut labels);
            edges.push(AroundEdge {
                from,
                to,
                edge: edge.clone(),
                state: EdgeState::Blocked {
                    condition: condition.clone(),
                    negated: *negated,
                },
            });
        }
    }

    // Layers: breadth-first over the shown edges, both directions, from the entries the
    // question names (every word of the label among its keywords), else those that are
    // neither the answer nor another candidate. A neural embedder matches "antibiotic"
    // to every drug, making the drugs entries too; starting from them would put the
    // whole graph in one layer, where the reader wants the question's subject on the
    // left and the options to the right of it.
    let n = labels.len();
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &edges {
        neighbours[e.from].push(e.to);
        neighbours[e.to].push(e.from);
    }
    let answer_key = answer.text().map(str::to_lowercase);
    let is_answer = |label: &str| answer_key.as_deref() == Some(label.to_lowercase().as_str());
    let candidates: BTreeSet<String> = answer
        .candidates
        .iter()
        .map(|c| c.label.to_lowercase())
        .collect();
    let entry_nodes: Vec<usize> = answer
        .entries
        .iter()
        .filter_map(|e| index.get(e).copied())
        .collect();
    let word_set = crate::text::lower_words;
    let keywords: BTreeSet<String> = answer
        .query
        .keywords
        .iter()
        .flat_map(|k| word_set(k))
        .collect();
    let named = |label: &str| {
        let ws = word_set(label);
        !ws.is_empty() && ws.iter().all(|w| keywords.contains(w))
    };
    let named_entries: Vec<usize> = entry_nodes
        .iter()
        .copied()
        .filter(|&i| !is_answer(&labels[i]) && named(&labels[i]))
        .collect();
    let subjects: Vec<usize> = entry_nodes
        .iter()
        .copied()
        .filter(|&i| !is_answer(&labels[i]) && !candidates.contains(&labels[i].to_lowercase()))
        .collect();
    let not_answer: Vec<usize> = entry_nodes
        .iter()
        .copied()
        .filter(|&i| !is_answer(&labels[i]))
        .collect();
    let start = [named_entries, subjects, not_answer, entry_nodes]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    let mut layer: Vec<Option<usize>> = vec![None; n];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for i in start {
        layer[i] = Some(0);
        queue.push_back(i);
    }
    while let Some(i) = queue.pop_front() {
        let next = layer[i].map_or(0, |l| l + 1);
        for &j in &neighbours[i] {
            if layer[j].is_none() {
                layer[j] = Some(next);
                queue.push_back(j);
            }
        }
    }
    // Nodes no entry reaches (a blocked edge's far side reached only through another
    // blocked edge cannot happen; kept for safety) go after the others.
    let deepest = layer.iter().flatten().copied().max().unwrap_or(0);
    let layer: Vec<usize> = layer
        .into_iter()
        .map(|l| l.unwrap_or(deepest + 1))
        .collect();
    let layers = layer.iter().copied().max().map_or(0, |l| l + 1);

    // Order within a layer: the mean order of neighbours in the layer before
    // (barycentre), ties by label; layer 0 by label.
    let mut order = vec![0usize; n];
    for l in 0..layers {
        let mut members: Vec<(f32, &str, usize)> = (0..n)
            .filter(|&i| layer[i] == l)
            .map(|i| {
                let before: Vec<usize> = neighbours[i]
                    .iter()
                    .copied()
                    .filter(|&j| l > 0 && layer[j] + 1 == l)
                    .collect();
                let centre = if before.is_empty() {
                    f32::MAX
                } else {
                    before.iter().map(|&j| order[j] as f32).sum::<f32>() / before.len() as f32
                };
                (centre, labels[i].as_str(), i)
            })
            .collect();
        members.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
        for (k, &(_, _, i)) in members.iter().enumerate() {
            order[i] = k;
        }
    }

    let entries: BTreeSet<&str> = answer.entries.iter().map(String::as_str).collect();
    let nodes = labels
        .iter()
        .enumerate()
        .map(|(i, label)| AroundNode {
            label: label.clone(),
            // The answer is the answer even when the question's words also matched it.
            role: if is_answer(label) {
                NodeRole::Answer
            } else if entries.contains(label.as_str()) {
                NodeRole::Entry
            } else {
                NodeRole::Other
            },
            layer: layer[i],
            order: order[i],
        })
        .collect();
    Around {
        nodes,
        edges,
        layers,
    }
}
