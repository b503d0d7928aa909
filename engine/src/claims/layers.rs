//! Layers around a claim of interest and the summaries made from the outside in
//! (the paper's Definition 1 and Figure 2).

use std::collections::{BTreeMap, BTreeSet};

use super::summarize::{fitted, Summarizer, Summary};
use super::{ClaimGraph, ClaimsError};

/// Layer i: the claims exactly i hops from `root` in the claim graph (layer 0 is the
/// root alone), each layer in claim order. Claims outside the root's connected
/// component are in no layer.
pub fn layers(graph: &ClaimGraph, root: usize) -> Vec<Vec<usize>> {
    if root >= graph.claims.len() {
        return Vec::new();
    }
    let mut seen: BTreeSet<usize> = BTreeSet::from([root]);
    let mut out = vec![vec![root]];
    while let Some(last) = out.last() {
        let mut next: Vec<usize> = Vec::new();
        for &c in last {
            for &n in graph.neighbours(c) {
                if seen.insert(n) {
                    next.push(n);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_unstable();
        out.push(next);
    }
    out
}

/// One claim's place in a layered summary.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryNode {
    pub claim: usize,
    /// Hops from the claim of interest.
    pub layer: usize,
    /// This claim's summary: of itself and its `children`'s summaries.
    pub summary: Summary,
    /// Its neighbours one layer further out, whose summaries were summarised into this
    /// one (a claim may feed several claims of the layer inside it).
    pub children: Vec<usize>,
}

/// The summaries around one claim of interest. `nodes` is in the order they were made:
/// the outermost layer first, the claim of interest last.
#[derive(Debug, Clone, PartialEq)]
pub struct LayeredSummary {
    pub root: usize,
    pub nodes: Vec<SummaryNode>,
}

impl LayeredSummary {
    /// The claim of interest's final summary.
    pub fn summary(&self) -> Option<&Summary> {
        self.nodes.last().map(|n| &n.summary)
    }

    /// The node of a claim.
    pub fn node(&self, claim: usize) -> Option<&SummaryNode> {
        self.nodes.iter().find(|n| n.claim == claim)
    }
}

/// Summarises `root`'s connected component layer by layer, from the outermost layer
/// inward: each claim once, from the summaries of its neighbours one layer out, so no
/// cycle is ever followed. A claim with no neighbour further out is its own summary
/// and costs no call.
pub async fn summarize_layers(
    graph: &ClaimGraph,
    question: &str,
    root: usize,
    summarizer: &mut impl Summarizer,
) -> Result<LayeredSummary, ClaimsError> {
    let layers = layers(graph, root);
    let mut made: BTreeMap<usize, Summary> = BTreeMap::new();
    let mut nodes = Vec::new();
    for (layer, claims) in layers.iter().enumerate().rev() {
        let further = layers.get(layer + 1);
        for &claim in claims {
            let children: Vec<usize> = graph
                .neighbours(claim)
                .iter()
                .copied()
                .filter(|n| further.is_some_and(|f| f.binary_search(n).is_ok()))
                .collect();
            let summary = if children.is_empty() {
                Summary::of_claim(graph, claim)
            } else {
                // Inputs best first: the extractive summary breaks ties by order.
                let mut inputs: Vec<Summary> = children
                    .iter()
                    .filter_map(|c| made.get(c).cloned())
                    .collect();
                inputs.sort_by(|a, b| {
                    graph
                        .mean_relevance(&b.claims)
                        .total_cmp(&graph.mean_relevance(&a.claims))
                });
                fitted(graph, question, claim, inputs, summarizer).await?
            };
            made.insert(claim, summary.clone());
            nodes.push(SummaryNode {
                claim,
                layer,
                summary,
                children,
            });
        }
    }
    Ok(LayeredSummary { root, nodes })
}
