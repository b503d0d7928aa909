//! The strategies' LLM options with the shipped SmolLM2-135M-Instruct: CLAIMS' layered
//! summaries written by the model (the paper's Prompt 6) with the context guard, and
//! PubMedQA's yes / no / maybe read from the model's likelihoods, calibrated.

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
