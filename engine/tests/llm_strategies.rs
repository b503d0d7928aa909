//! The strategies' LLM options with the shipped SmolLM2-135M-Instruct: CLAIMS' layered
//! summaries written by the model (the paper's Prompt 6) with the context guard, and
//! PubMedQA's yes / no / maybe read from the model's likelihoods, calibrated, and
//! ReGraM's HYBRID hypotheses (through the Reviewer) and LLM-GUESS answers.

mod common;

use engine::answer::{YesNo, YesNoScorer};
use engine::claims::summarize::layerwise_prompt;
use engine::claims::{summarize_layers, Claim, ClaimGraph, Extractive, LlmSummarizer};
use engine::graph::{EdgeId, NodeId};
use engine::model::llama::LlamaModel;
use engine::model::Precision;

fn model() -> &'static LlamaModel {
    common::smollm2(Precision::F32)
}

fn claim(text: &str, a: u32, b: u32) -> Claim {
    Claim {
        edge: EdgeId(0),
        ends: (NodeId(a), NodeId(b)),
        triple: (a.to_string(), "r".into(), b.to_string()),
        text: text.into(),
        sources: Vec::new(),
        relevance: 0.0,
    }
}

/// Lyme disease ← amoxicillin → pregnancy, with doxycycline's warning one layer out.
fn lyme() -> ClaimGraph {
    ClaimGraph::from_claims(vec![
        claim(
            "Amoxicillin is the preferred treatment for Lyme disease, during pregnancy.",
            1,
            2,
        ),
        claim("Amoxicillin is safe in pregnancy.", 2, 3),
        claim("Doxycycline is contraindicated in pregnancy.", 4, 3),
    ])
}

#[test]
fn the_model_writes_the_layered_summaries_from_the_outside_in() {
    let model = model();
    let graph = lyme();
    let mut summarizer = LlmSummarizer::new(model, Extractive::new(Vec::new(), 6));
    let question = "Which antibiotic treats Lyme disease in a pregnant patient?";
    let layered = pollster::block_on(summarize_layers(&graph, question, 0, &mut summarizer))
        .expect("summaries");
    let order: Vec<(usize, usize)> = layered.nodes.iter().map(|n| (n.claim, n.layer)).collect();
    assert_eq!(order, vec![(2, 2), (1, 1), (0, 0)]);
    // The outermost claim is its own summary; the two inside it are written.
    assert_eq!(layered.nodes[0].summary.text, graph.claims[2].text);
    let root = layered.summary().expect("a summary");
    assert!(!root.text.trim().is_empty());
    assert_ne!(
        root.text, graph.claims[0].text,
        "the model wrote the root's summary"
    );
    let mut sources = root.claims.clone();
    sources.sort_unstable();
    assert_eq!(sources, vec![0, 1, 2]);
    eprintln!(
        "root summary ({} fallbacks): {}",
        summarizer.fell_back, root.text
    );

    // The prompt names the claim to contextualise and its context.
    let prompt = layerwise_prompt(&[graph.claims[0].text.as_str()], &["ctx"]);
    assert!(prompt.contains("The claims to contextualize are:\n- Amoxicillin"));
    assert!(prompt.contains("supports the above claims:\n- ctx"));
    assert!(prompt.ends_with("Summary:"));
}

#[test]
fn the_context_guard_keeps_each_call_within_the_summarisers_limit() {
    let model = model();
    let graph = lyme();
    let mut summarizer = LlmSummarizer::new(model, Extractive::new(Vec::new(), 6));
    summarizer.max_tokens = 24;
    // Claim 1 has claim 0 and claim 2 around it: 12 + 6 + 8 words against 20.
    summarizer.max_words = 20;
    let inputs = [0, 2]
        .map(|c| engine::claims::Summary::of_claim(&graph, c))
        .to_vec();
    let summary = pollster::block_on(engine::claims::summarize::fitted(
        &graph,
        "q",
        1,
        inputs,
        &mut summarizer,
    ))
    .expect("a summary");
    assert!(!summary.text.is_empty());
    assert!(summary.claims.contains(&1));
}

#[test]
fn yes_no_maybe_is_read_from_calibrated_likelihoods() {
    let model = model();
    let mut scorer = YesNoScorer::new(model);
    let context = "In a randomised trial of 400 adults, daily aspirin did not reduce the rate \
                   of stroke compared with placebo (hazard ratio 0.98, p = 0.81).";
    let got = pollster::block_on(scorer.judge("Does daily aspirin reduce stroke?", context))
        .expect("scores");
    assert!(
        got.scores.iter().all(|s| s.is_finite() && *s < 0.0),
        "{got:?}"
    );
    for verdict in [got.plain, got.calibrated] {
        assert!([YesNo::Yes, YesNo::No, YesNo::Maybe].contains(&verdict));
    }
    eprintln!("aspirin/stroke: {got:?}");
    // A second question reuses the prior: same prompt, same scores.
    let again = pollster::block_on(scorer.judge("Does daily aspirin reduce stroke?", context))
        .expect("scores");
    assert_eq!(again, got);
}

fn prepared(docs: &[&str]) -> engine::answer::Prepared {
    let docs = docs
        .iter()
        .enumerate()
        .map(|(i, d)| engine::text::Document::new(format!("doc {}", i + 1), *d))
        .collect();
    engine::answer::Prepared::new(docs, &engine::extract::RuleExtractor)
}

/// ReGraM with the model on the Lyme question: its hypotheses stay inside the region
/// and the schema (the shape allows nothing else), the Reviewer accepts only what the
/// documents support and never the pair pregnancy closed, and the answer is the one the
/// documents give. A document set that states nothing puts every hop in LLM-GUESS,
/// whose guess says it is one and is not the answer.
#[test]
fn regram_hypotheses_are_closed_world_and_reviewed_and_guesses_say_so() {
    use engine::answer::{LlmSteps, Outcome};
    use engine::regram::{review, Mode};

    let docs = [
        "First-line antibiotics for Lyme disease include doxycycline, amoxicillin, and cefuroxime. Doxycycline is preferred in adults due to co-coverage of Anaplasma co-infection.",
        "Doxycycline is contraindicated during pregnancy due to risks to fetal bone and teeth development. Amoxicillin is considered safe across all trimesters.",
    ];
    let question = "What antibiotic is recommended for Lyme disease in a pregnant patient?";
    let prepared = prepared(&docs);
    let mut steps = LlmSteps::new(model());
    let answer = regram(&prepared, question, &mut steps);
    assert_eq!(answer.text(), Some("Amoxicillin"));
    let region = answer.region.expect("a region");
    let graph = &prepared.graph;
    let entities: Vec<String> = region
        .edges
        .iter()
        .filter_map(|&e| graph.endpoints(e))
        .flat_map(|(u, v)| [u, v])
        .filter_map(|n| graph.entity(n).map(|e| e.label.clone()))
        .collect();
    let schema = review::schema(graph);
    let mut proposed = 0;
    for hop in &region.hops {
        assert_ne!(hop.mode, Mode::LlmGuess);
        for h in &hop.hypotheses {
            proposed += 1;
            eprintln!(
                "{} hop: {} → {} ({} revision(s)): s = {:.2}, {} — {}",
                hop.question.kind.name(),
                h.proposed,
                h.triple,
                h.revisions,
                h.review.score,
                if h.review.accepted {
                    "accepted"
                } else {
                    "rejected"
                },
                h.review.reason
            );
            for t in [&h.proposed, &h.triple] {
                assert!(
                    entities.contains(&t.head) && entities.contains(&t.tail),
                    "{t}"
                );
                assert!(schema.contains(&t.relation), "{t}");
            }
            assert!(h.revisions <= review::MAX_ROUNDS);
            assert_eq!(h.review.accepted, h.review.score >= review::ACCEPT);
            let pair = [h.triple.head.to_lowercase(), h.triple.tail.to_lowercase()];
            if pair.contains(&"doxycycline".to_string())
                && pair.contains(&"lyme disease".to_string())
            {
                let open = graph.edges().any(|e| {
                    graph
                        .describe(e)
                        .is_some_and(|d| d.contains("Lyme disease") && d.contains("oxycycline"))
                        && !answer.blocked.iter().any(|b| b.edge.id == e.0)
                });
                assert!(open || !h.review.accepted, "a closed pair came back: {h:?}");
            }
        }
    }
    assert!(
        proposed > 0,
        "the model proposed no hypothesis in any HYBRID hop"
    );

    let empty = prepared_empty();
    let answer = regram(&empty, question, &mut steps);
    let region = answer.region.expect("a region");
    for hop in &region.hops {
        assert_eq!(hop.mode, Mode::LlmGuess);
        let guess = hop.guess.as_deref().expect("a guess");
        eprintln!("guess for {:?}: {guess}", hop.question.text);
        assert!(guess.starts_with("Based on general knowledge,"), "{guess}");
        assert!(guess.len() > "Based on general knowledge,".len(), "{guess}");
    }
    assert_eq!(answer.outcome, Outcome::InsufficientEvidence);
}

fn regram(
    prepared: &engine::answer::Prepared,
    question: &str,
    steps: &mut engine::answer::LlmSteps<'_, LlamaModel>,
) -> engine::answer::Answer {
    pollster::block_on(engine::answer::answer_with(
        prepared,
        question,
        &engine::answer::Strategy::Regram.config(),
        &mut engine::embed::LexicalEmbedder::default(),
        steps,
    ))
    .expect("answers")
}

fn prepared_empty() -> engine::answer::Prepared {
    prepared(&["The clinic opens at nine on weekdays."])
}
