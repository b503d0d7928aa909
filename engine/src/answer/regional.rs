//! ReGraM's region inside an answer: the question's hops, a region per hop, the mode of
//! each, HYBRID's reviewed hypotheses and LLM-GUESS's guess (paper 003, §3.1–3.5).
//!
//! The candidate triples are the edges the (gated) walk reached, so a hop never sees an
//! edge the patient's conditions closed. Hop i's candidates are those around the
//! entities the hops before it reached (hop 1: around the entry entities); the last
//! hop may take any of them, so the hop budget covers the walk's depth. Each hop's
//! region is the top K by weighted MMR against its own sub-question; hops may share
//! triples (the patient hop re-reads the topic's options for what suits the patient),
//! and the answer's region is their union.

use std::collections::BTreeSet;

use super::{reader, AnswerError, Prepared, QuestionSteps};
use crate::embed::Embedder;
use crate::gate::Gate;
use crate::graph::{EdgeId, NodeId, Stance};
use crate::query::ParsedQuery;
use crate::regram::{self, review, EvidenceReviewer, Hop, Mode, Region, RegionConfig};
use crate::text::{normalize_term, Span};

/// A hop's answer names at most this many entities.
const HOP_ANSWERS: usize = 5;

/// The region of `question` over the `walked` edges from `entries`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn build(
    prepared: &Prepared,
    gate: &Gate,
    query: &ParsedQuery,
    question: &str,
    walked: &[EdgeId],
    entries: &[NodeId],
    config: &RegionConfig,
    embedder: &mut impl Embedder,
    steps: &mut impl QuestionSteps,
) -> Result<Region, AnswerError> {
    let graph = &prepared.graph;
    let domain = regram::classify(question);
    let subs = regram::decompose(question, query);
    let mut texts: Vec<String> = walked
        .iter()
        .map(|&e| graph.describe(e).unwrap_or_default())
        .collect();
    texts.extend(subs.iter().map(|s| s.text.clone()));
    let vectors = embedder.embed(&texts).await?;
    let (edge_vecs, hop_vecs) = vectors.split_at(walked.len().min(vectors.len()));
    let weights: Vec<f32> = walked
        .iter()
        .map(|&e| {
            graph
                .edge(e)
                .map_or(1.0, |x| regram::relation_weight(&x.relation, domain))
        })
        .collect();
    let label = |n: NodeId| graph.entity(n).map(|e| e.label.clone());

    let mut frontier: BTreeSet<NodeId> = entries.iter().copied().collect();
    let mut union: Vec<EdgeId> = Vec::new();
    let mut hops: Vec<Hop> = Vec::with_capacity(subs.len());
    for (i, sub) in subs.iter().enumerate() {
        let last = i + 1 == subs.len();
        let candidates: Vec<usize> = (0..walked.len().min(edge_vecs.len()))
            .filter(|&j| {
                last || graph
                    .endpoints(walked[j])
                    .is_some_and(|(u, v)| frontier.contains(&u) || frontier.contains(&v))
            })
            .collect();
        let vecs: Vec<Vec<f32>> = candidates.iter().map(|&j| edge_vecs[j].clone()).collect();
        let w: Vec<f32> = candidates.iter().map(|&j| weights[j]).collect();
        let hop_vec = hop_vecs.get(i).map_or(&[][..], Vec::as_slice);
        let picked: Vec<EdgeId> = regram::select(hop_vec, &vecs, &w, config)
            .into_iter()
            .map(|k| walked[candidates[k]])
            .collect();
        let asked = format!(" {} ", normalize_term(&sub.text));
        let mut reached: BTreeSet<NodeId> = BTreeSet::new();
        let mut options: Vec<NodeId> = Vec::new();
        let mut others: Vec<NodeId> = Vec::new();
        for &edge in &picked {
            let (Some((u, v)), Some(data)) = (graph.endpoints(edge), graph.edge(edge)) else {
                continue;
            };
            reached.extend([u, v]);
            match data.relation.stance() {
                Stance::Recommends | Stance::Lists => options.push(v),
                _ => others.push(v),
            }
        }
        // A hop answers with what its facts recommend or list; with none, with what
        // they relate to. Entities the sub-question names are not its answer.
        let pool = if options.is_empty() { others } else { options };
        let mut answers: Vec<String> = Vec::new();
        for n in pool {
            let Some(entity) = graph.entity(n) else {
                continue;
            };
            let named = asked.contains(&format!(" {} ", entity.key));
            if !named && !answers.contains(&entity.label) && answers.len() < HOP_ANSWERS {
                answers.push(entity.label.clone());
            }
        }
        for &edge in &picked {
            if !union.contains(&edge) {
                union.push(edge);
            }
        }
        frontier.extend(reached);
        hops.push(Hop {
            question: sub.clone(),
            mode: Mode::for_facts(picked.len()),
            edges: picked,
            answers,
            hypotheses: Vec::new(),
            guess: None,
        });
    }

    // V_q: every entity of the region; R: the schema.
    let mut entities: Vec<String> = Vec::new();
    for &edge in &union {
        if let Some((u, v)) = graph.endpoints(edge) {
            for l in [u, v].into_iter().filter_map(label) {
                if !entities.contains(&l) {
                    entities.push(l);
                }
            }
        }
    }
    let relations = review::schema(graph);
    let mut reviewer: Option<EvidenceReviewer> = None;
    for hop in &mut hops {
        match hop.mode {
            Mode::KgStrict => {}
            Mode::LlmGuess => hop.guess = steps.guess(&hop.question.text).await?,
            Mode::Hybrid => {
                let facts: Vec<String> = hop
                    .edges
                    .iter()
                    .filter_map(|&e| graph.describe(e))
                    .collect();
                let mut proposed = steps
                    .hypothesize(&hop.question.text, &facts, &entities, &relations)
                    .await?;
                // The same triple proposed twice is reviewed once.
                let mut seen = BTreeSet::new();
                proposed.retain(|t| seen.insert(t.clone()));
                if proposed.is_empty() {
                    continue;
                }
                if reviewer.is_none() {
                    reviewer = Some(
                        EvidenceReviewer::new(
                            graph,
                            |e| gate.is_open(e),
                            &entities,
                            &relations,
                            reader::sentences(prepared),
                            &closed_evidence(prepared, gate),
                            embedder,
                        )
                        .await?,
                    );
                }
                let Some(reviewer) = reviewer.as_ref() else {
                    continue;
                };
                let relations = &relations;
                hop.hypotheses = regram::verify_and_revise(
                    proposed,
                    async |t: &regram::Triple| {
                        reviewer
                            .review(t, embedder)
                            .await
                            .map_err(AnswerError::Embed)
                    },
                    async |t: &regram::Triple, _: &regram::Review| match reviewer
                        .revise_from_graph(t)
                        .filter(|r| r != t)
                    {
                        Some(r) => Ok(Some(r)),
                        // Prompt 4 may use only the triple's own entities: an entity
                        // related to itself has nothing to be revised into.
                        None if t.head == t.tail => Ok(None),
                        None => steps.revise(t, question, relations).await,
                    },
                )
                .await?;
            }
        }
    }
    Ok(Region {
        domain,
        mode: Mode::for_facts(union.len()),
        edges: union,
        hops,
    })
}

/// The sentences that state an edge the gate closed.
fn closed_evidence(prepared: &Prepared, gate: &Gate) -> Vec<Span> {
    let graph = &prepared.graph;
    graph
        .edges()
        .filter(|&e| !gate.is_open(e))
        .filter_map(|e| graph.edge(e))
        .flat_map(|d| d.evidence.iter().cloned())
        .collect()
}
