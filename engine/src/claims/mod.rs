//! CLAIMS (Connected Layered Analysis of Information through Multi-level Summarization):
//! the documents as atomic claims joined through the entities they share, a few claims
//! of interest as entry points, and for each of them a summary built layer by layer
//! from the outermost claims of its connected component inward (the paper's §3 and
//! Figure 2).
//!
//! - **Claims.** One claim per edge of the knowledge graph, so one triple per claim by
//!   construction: the rule extractor has already split coordinated statements ("A and B
//!   treat X" → two tuples) and resolved "it" / "this drug" to the subject named before,
//!   which is what makes the paper's claims atomic and decontextualised. The claim's text
//!   is the triple said as a sentence with its conditions ("Lyme disease can be treated
//!   with doxycycline, not during pregnancy."), and it keeps the source sentences for
//!   citation. The paper writes claims with an LLM first and triples second; here the
//!   order is reversed and no model is needed.
//! - **Entity deduplication** (UPGMA at 0.8, numeric names never merged) is
//!   [`crate::answer::Prepared::cluster_entities`], applied to the document set.
//! - **The claim graph.** Two claims are neighbours when their triples share an entity:
//!   edges are undirected and parallel edges are kept, as in the paper. With gating on,
//!   claims whose edge the patient's conditions close are not in it.
//! - **Relevance** of a claim or summary is the cosine of its embedding to the question's
//!   (the paper uses a reranker).
//! - **Claims of interest** ([`claims_of_interest`]): the top 10 claims by relevance,
//!   re-ranked by the relevance of a *test summary* of each with its 1-hop neighbours,
//!   then taken in that order, dropping any that is a 1-hop neighbour of one already
//!   taken.
//! - **Layerwise summaries** ([`summarize_layers`]): layer i holds the claims exactly i
//!   hops from the claim of interest; from the outermost layer inward, each claim's
//!   summary is made from its own text and the summaries of its neighbours one layer
//!   out. A claim with nothing further out is its own summary.
//! - **Summarisers** ([`summarize`]): extractive by default (no model), an LLM with the
//!   paper's prompt when asked. When the inputs of one summary are longer than the
//!   summariser's context, they are grouped by k-means over their embeddings, each group
//!   summarised on its own, and again until they fit (the paper's Appendix D).

pub mod layers;
pub mod summarize;

pub use layers::{layers, summarize_layers, LayeredSummary, SummaryNode};
pub use summarize::{Extractive, LlmSummarizer, Summarizer, Summary};

use std::collections::BTreeSet;

use crate::embed::{cosine, EmbedError, Embedder};
use crate::graph::{EdgeId, KnowledgeGraph, NodeId, Relation};
use crate::text::Span;

/// Why claims could not be summarised.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClaimsError {
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("the summariser failed: {0}")]
    Summarizer(String),
}

/// The knobs of CLAIMS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClaimsConfig {
    /// Claims first ranked by relevance before re-ranking (10 in the paper).
    pub candidates: usize,
    /// Entity deduplication threshold (UPGMA average linkage; 0.8 in the paper).
    pub dedup: f32,
    /// An extractive summary keeps at most this many claims.
    pub summary_claims: usize,
}

impl Default for ClaimsConfig {
    fn default() -> Self {
        ClaimsConfig {
            candidates: 10,
            dedup: 0.8,
            summary_claims: 6,
        }
    }
}

/// One atomic claim: one edge of the graph said as a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub edge: EdgeId,
    /// The two entities of its triple.
    pub ends: (NodeId, NodeId),
    /// Subject, predicate, object.
    pub triple: (String, String, String),
    /// The claim as one sentence, with its conditions.
    pub text: String,
    /// The sentences that state it.
    pub sources: Vec<Span>,
    /// Cosine of its embedding to the question's.
    pub relevance: f32,
}

/// Claims joined through shared entities.
#[derive(Debug, Clone, Default)]
pub struct ClaimGraph {
    pub claims: Vec<Claim>,
    /// The claims' embeddings, in claim order, once [`score`](Self::score) ran.
    pub vectors: Vec<Vec<f32>>,
    neighbours: Vec<Vec<usize>>,
}

impl ClaimGraph {
    /// The claims of `graph`'s edges that `keep` lets through (the open edges when
    /// gating is on), relevance still zero.
    pub fn new(graph: &KnowledgeGraph, keep: impl Fn(EdgeId) -> bool) -> ClaimGraph {
        let claims: Vec<Claim> = graph
            .edges()
            .filter(|&e| keep(e))
            .filter_map(|e| claim(graph, e))
            .collect();
        ClaimGraph::from_claims(claims)
    }

    /// The graph over given claims: neighbours share an entity.
    pub fn from_claims(claims: Vec<Claim>) -> ClaimGraph {
        let mut by_node: std::collections::BTreeMap<NodeId, Vec<usize>> = Default::default();
        for (i, c) in claims.iter().enumerate() {
            by_node.entry(c.ends.0).or_default().push(i);
            if c.ends.1 != c.ends.0 {
                by_node.entry(c.ends.1).or_default().push(i);
            }
        }
        let neighbours = claims
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut set = BTreeSet::new();
                for node in [c.ends.0, c.ends.1] {
                    for &j in by_node.get(&node).into_iter().flatten() {
                        if j != i {
                            set.insert(j);
                        }
                    }
                }
                set.into_iter().collect()
            })
            .collect();
        ClaimGraph {
            claims,
            vectors: Vec::new(),
            neighbours,
        }
    }

    /// Claims sharing an entity with claim `i`, in index order.
    pub fn neighbours(&self, i: usize) -> &[usize] {
        self.neighbours.get(i).map_or(&[], Vec::as_slice)
    }

    /// Embeds every claim and the question in one call, keeps the claims' vectors and
    /// sets each claim's relevance. Returns the question's vector.
    pub async fn score(
        &mut self,
        question: &str,
        embedder: &mut impl Embedder,
    ) -> Result<Vec<f32>, EmbedError> {
        let mut texts: Vec<String> = self.claims.iter().map(|c| c.text.clone()).collect();
        texts.push(question.to_string());
        let mut vectors = embedder.embed(&texts).await?;
        let question_vec = vectors.pop().unwrap_or_default();
        for (c, v) in self.claims.iter_mut().zip(&vectors) {
            c.relevance = cosine(v, &question_vec);
        }
        self.vectors = vectors;
        Ok(question_vec)
    }

    /// The normalised mean of some claims' vectors (empty when none has one).
    pub fn mean_vector(&self, claims: &[usize]) -> Vec<f32> {
        let vectors: Vec<&Vec<f32>> = claims.iter().filter_map(|&c| self.vectors.get(c)).collect();
        summarize::mean(&vectors).unwrap_or_default()
    }

    /// The mean relevance of some claims (0 for none).
    pub fn mean_relevance(&self, claims: &[usize]) -> f32 {
        let scores: Vec<f32> = claims
            .iter()
            .filter_map(|&c| self.claims.get(c).map(|c| c.relevance))
            .collect();
        if scores.is_empty() {
            0.0
        } else {
            scores.iter().sum::<f32>() / scores.len() as f32
        }
    }
}

/// A claim of interest with the relevance of its test summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Interest {
    pub claim: usize,
    /// Relevance of the test summary (the claim with its 1-hop neighbours) to the
    /// question: what the claims of interest are ordered by.
    pub test_relevance: f32,
    pub test_summary: Summary,
}

/// The claims of interest, best first: the `config.candidates` most relevant claims,
/// re-ranked by the relevance of their test summaries, each dropped when it is a 1-hop
/// neighbour of a claim taken before it.
pub async fn claims_of_interest(
    graph: &ClaimGraph,
    question: &str,
    question_vec: &[f32],
    config: &ClaimsConfig,
    summarizer: &mut impl Summarizer,
    embedder: &mut impl Embedder,
) -> Result<Vec<Interest>, ClaimsError> {
    let mut order: Vec<usize> = (0..graph.claims.len()).collect();
    order.sort_by(|&a, &b| {
        graph.claims[b]
            .relevance
            .total_cmp(&graph.claims[a].relevance)
            .then(a.cmp(&b))
    });
    order.truncate(config.candidates);
    let mut tested = Vec::with_capacity(order.len());
    for &i in &order {
        let inputs: Vec<Summary> = graph
            .neighbours(i)
            .iter()
            .map(|&j| Summary::of_claim(graph, j))
            .collect();
        let summary = summarize::fitted(graph, question, i, inputs, summarizer).await?;
        tested.push((i, summary));
    }
    let texts: Vec<String> = tested.iter().map(|(_, s)| s.text.clone()).collect();
    let vectors = embedder.embed(&texts).await?;
    let mut scored: Vec<Interest> = tested
        .into_iter()
        .zip(&vectors)
        .map(|((claim, test_summary), v)| Interest {
            claim,
            test_relevance: cosine(v, question_vec),
            test_summary,
        })
        .collect();
    // Stable: equal test relevance keeps the first ranking's order.
    scored.sort_by(|a, b| b.test_relevance.total_cmp(&a.test_relevance));
    Ok(diverse(graph, scored))
}

/// Keeps interests in order, dropping each that neighbours one kept before it.
fn diverse(graph: &ClaimGraph, ranked: Vec<Interest>) -> Vec<Interest> {
    let mut kept: Vec<Interest> = Vec::new();
    for interest in ranked {
        let near = kept
            .iter()
            .any(|k| graph.neighbours(k.claim).contains(&interest.claim));
        if !near {
            kept.push(interest);
        }
    }
    kept
}

/// The claim of one edge, relevance zero.
pub fn claim(graph: &KnowledgeGraph, edge: EdgeId) -> Option<Claim> {
    let data = graph.edge(edge)?;
    let (u, v) = graph.endpoints(edge)?;
    let (subject, object) = (
        graph.entity(u)?.label.clone(),
        graph.entity(v)?.label.clone(),
    );
    let mut text = statement(&data.relation, &subject, &object);
    for &(id, negated) in &data.conditions {
        if let Some(c) = graph.condition(id, negated) {
            // "contraindicated during pregnancy, during pregnancy": said once.
            if !c.negated && c.phrase.eq_ignore_ascii_case(&object) {
                continue;
            }
            text.push_str(if c.negated { ", not " } else { ", " });
            text.push_str(&c.phrase);
        }
    }
    text.push('.');
    Some(Claim {
        edge,
        ends: (u, v),
        triple: (subject, data.relation.name().to_string(), object),
        text: capitalise(&text),
        sources: data.evidence.clone(),
        relevance: 0.0,
    })
}

/// A triple said as a sentence, subject → object in the relation's direction.
fn statement(relation: &Relation, u: &str, v: &str) -> String {
    match relation {
        Relation::PreferredTreatment => format!("{v} is the preferred treatment for {u}"),
        Relation::TreatedBy => format!("{u} can be treated with {v}"),
        Relation::AlternativeTreatment => format!("{v} is an alternative treatment for {u}"),
        Relation::PreferredTest => format!("{v} is the preferred test for {u}"),
        Relation::DiagnosedBy => format!("{u} can be diagnosed with {v}"),
        Relation::ContraindicatedIn => format!("{u} is contraindicated {}", located(v)),
        Relation::SafeIn => format!("{v} is a safe treatment for {u}"),
        Relation::Causes => format!("{u} causes {v}"),
        Relation::RiskFactor => format!("{v} is a risk factor for {u}"),
        Relation::InteractsWith => format!("{u} interacts with {v}"),
        Relation::Replaces => format!("{u} replaces {v}"),
        Relation::IsA => format!("{u} is a {v}"),
        Relation::Other(name) => format!("{u} {} {v}", name.replace('_', " ")),
    }
}

/// "in X", unless X already opens with a preposition ("during pregnancy").
fn located(v: &str) -> String {
    const OPENERS: [&str; 8] = [
        "in ", "during ", "for ", "with ", "after ", "before ", "when ", "if ",
    ];
    let lower = v.to_lowercase();
    if OPENERS.iter().any(|p| lower.starts_with(p)) {
        v.to_string()
    } else {
        format!("in {v}")
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether an entity name is numeric in the paper's sense (Appendix D): more than half
/// of its characters, spaces aside, are digits. Numeric names are never merged: their
/// embeddings are close whatever the numbers say.
pub fn is_numeric(name: &str) -> bool {
    let chars: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = chars.iter().filter(|c| c.is_ascii_digit()).count();
    !chars.is_empty() && digits * 2 > chars.len()
}

#[cfg(test)]
mod tests;
