//! Builds an [`AnswerView`] from the engine's answer: citations with their documents'
//! names, the evidence read answer-first, the layered graph around the question (kept
//! and blocked edges), the condition table, and the strategy's own results.

use engine::amg;
use engine::answer::{
    around, Answer, AnswerSource, EdgeState, EdgeView, NodeRole, PipelineConfig, Prepared, Strategy,
};
use engine::gate;

use crate::*;

/// The view of `answer`, given to `question` over `prepared` (whose documents are named
/// `names`) with the strategy knobs `config`. `evaluated` is the value the
/// question-side steps gave a condition phrase (the table's "as the question put it"
/// column; the answer's own values may differ after re-gating). The fields of the run
/// — texts embedded, embedder, cache, milliseconds — are left empty for the caller.
pub fn answer_view(
    prepared: &Prepared,
    names: &[String],
    question: &str,
    config: &PipelineConfig,
    evaluated: &dyn Fn(&str) -> gate::Truth,
    answer: &Answer,
) -> AnswerView {
    let citation = |c: &engine::answer::Citation| Citation {
        doc: c.doc,
        doc_name: names.get(c.doc).cloned().unwrap_or_default(),
        start: c.start,
        end: c.end,
        text: c.text.clone(),
    };
    let edge = |e: &EdgeView| Edge {
        id: e.id,
        subject: e.subject.clone(),
        relation: e.relation.clone(),
        object: e.object.clone(),
        conditions: e
            .conditions
            .iter()
            .map(|c| EdgeCondition {
                phrase: c.phrase.clone(),
                negated: c.negated,
                truth: from_engine(c.truth),
            })
            .collect(),
        citations: e.citations.iter().map(citation).collect(),
    };
    // The answer's own statements first, then the rest of the evidence.
    let text = answer.text().map(str::to_lowercase);
    let names_answer = |e: &EdgeView| {
        text.as_deref()
            .is_some_and(|t| e.subject.to_lowercase() == t || e.object.to_lowercase() == t)
    };
    let mut citations: Vec<Citation> = answer.read_from.iter().map(citation).collect();
    let evidence_edges = answer.evidence.iter().flat_map(|p| p.edges.iter());
    let (own, rest): (Vec<&EdgeView>, Vec<&EdgeView>) =
        evidence_edges.partition(|e| names_answer(e));
    for e in own.into_iter().chain(rest) {
        for c in &e.citations {
            if !citations
                .iter()
                .any(|k| k.doc == c.doc && k.start == c.start)
            {
                citations.push(citation(c));
            }
        }
    }
    let layout = around(answer);
    let strategy = Strategy::of(config).unwrap_or(Strategy::Cgr);
    AnswerView {
        question: question.to_string(),
        answer: answer.text().map(str::to_string),
        source: match answer.source {
            AnswerSource::Paths => "paths",
            AnswerSource::Sentences => "sentences",
            AnswerSource::None => "none",
        }
        .into(),
        citations,
        paths: answer
            .evidence
            .iter()
            .map(|p| Path {
                nodes: p.nodes.clone(),
                edges: p.edges.iter().map(edge).collect(),
                score: p.score,
            })
            .collect(),
        table: answer
            .conditions
            .iter()
            .map(|(phrase, truth)| TableRow {
                phrase: phrase.clone(),
                truth: from_engine(*truth),
                evaluated: from_engine(evaluated(phrase)),
            })
            .collect(),
        nodes: layout
            .nodes
            .iter()
            .map(|n| Node {
                label: n.label.clone(),
                role: match n.role {
                    NodeRole::Entry => "entry",
                    NodeRole::Answer => "answer",
                    NodeRole::Other => "other",
                }
                .into(),
                layer: n.layer,
                order: n.order,
            })
            .collect(),
        edges: layout
            .edges
            .iter()
            .map(|e| GraphEdge {
                from: e.from,
                to: e.to,
                edge: edge(&e.edge),
                blocked: match &e.state {
                    EdgeState::Kept => None,
                    EdgeState::Blocked { condition, negated } => Some(Blocked {
                        condition: condition.clone(),
                        negated: *negated,
                    }),
                },
                confidence: config.confidence_tau.map(|_| {
                    amg::edge_score(
                        &prepared.graph,
                        &prepared.docs,
                        engine::graph::EdgeId(e.edge.id),
                    )
                }),
            })
            .collect(),
        layers: layout.layers,
        embedded: 0,
        embedder: String::new(),
        embedder_note: None,
        cache: CacheReport::default(),
        millis: 0.0,
        documents: prepared.docs.len(),
        tuples: prepared.extraction.tuples.len(),
        graph_edges: prepared.graph.edge_count(),
        strategy: strategy_view(prepared, answer, strategy, &citation),
        verdict: None,
    }
}

/// What the strategy made beside the answer, for its view.
fn strategy_view(
    prepared: &Prepared,
    answer: &Answer,
    strategy: Strategy,
    citation: &dyn Fn(&engine::answer::Citation) -> Citation,
) -> StrategyView {
    let graph = &prepared.graph;
    let region = answer.region.as_ref().map(|r| RegionView {
        domain: r.domain.name().to_string(),
        mode: r.mode.name().to_string(),
        facts: r.edges.iter().filter_map(|&e| graph.describe(e)).collect(),
        hops: r
            .hops
            .iter()
            .map(|h| HopView {
                kind: h.question.kind.name().to_string(),
                question: h.question.text.clone(),
                mode: h.mode.name().to_string(),
                facts: h.edges.iter().filter_map(|&e| graph.describe(e)).collect(),
                answers: h.answers.clone(),
                hypotheses: h
                    .hypotheses
                    .iter()
                    .map(|x| HypothesisView {
                        proposed: x.proposed.to_string(),
                        triple: x.triple.to_string(),
                        revisions: x.revisions,
                        score: x.review.score,
                        accepted: x.review.accepted,
                        reason: x.review.reason.clone(),
                    })
                    .collect(),
                guess: h.guess.clone(),
            })
            .collect(),
    });
    let traces = answer
        .traces
        .iter()
        .map(|t| Trace {
            term: t.term.clone(),
            reached: t
                .reached
                .iter()
                .map(|(node, confidence, hops)| Reached {
                    node: node.clone(),
                    confidence: *confidence,
                    hops: *hops,
                })
                .collect(),
        })
        .collect();
    let claims = answer.claims.as_ref().map(|c| {
        let text = |i: usize| c.claims.get(i).map(|x| x.text.clone()).unwrap_or_default();
        let cite = |i: usize| -> Vec<Citation> {
            c.claims.get(i).map_or_else(Vec::new, |x| {
                x.sources
                    .iter()
                    .filter_map(|span| prepared.cite(span))
                    .map(|k| citation(&k))
                    .collect()
            })
        };
        ClaimsView {
            summarizer: c.summarizer.clone(),
            claims: c.claims.len(),
            interests: c
                .interests
                .iter()
                .zip(&c.summaries)
                .map(|(interest, layered)| {
                    let at = |claim: usize| layered.nodes.iter().position(|n| n.claim == claim);
                    InterestView {
                        claim: text(interest.claim),
                        test_relevance: interest.test_relevance,
                        summary: layered
                            .summary()
                            .map(|s| s.text.clone())
                            .unwrap_or_default(),
                        nodes: layered
                            .nodes
                            .iter()
                            .map(|n| SummaryNodeView {
                                claim: text(n.claim),
                                layer: n.layer,
                                summary: n.summary.text.clone(),
                                children: n.children.iter().filter_map(|&c| at(c)).collect(),
                                citations: cite(n.claim),
                            })
                            .collect(),
                    }
                })
                .collect(),
        }
    });
    StrategyView {
        name: strategy.name().to_string(),
        region,
        traces,
        readout: answer.readout.clone(),
        entities_used: answer.entities_used,
        claims,
        llm: None,
    }
}

fn from_engine(t: gate::Truth) -> Truth {
    match t {
        gate::Truth::True => Truth::True,
        gate::Truth::False => Truth::False,
        gate::Truth::Unknown => Truth::Unknown,
    }
}
