//! The decoder on a tiny Llama GGUF (`tests/fixtures/tiny-llama.gguf`: hidden 32, one
//! layer, 16 tokens, context 16, Q8_0/Q4_1/Q4_0/F16/F32 tensors, written by
//! `fuzz/seeds/tiny_llama.py`): generation, cancellation, scoring, the context guard,
//! and every kind of bad file as a typed error.

mod common;

use std::ops::ControlFlow;

use engine::compute::Compute;
use engine::model::gguf::GgufError;
use engine::model::llama::{Generate, LlamaModel, LlmError, Sampling, Stop};
use engine::model::Precision;

fn bytes() -> Vec<u8> {
    common::read("tests/fixtures/tiny-llama.gguf")
}

fn load(bytes: &[u8]) -> Result<LlamaModel, LlmError> {
    LlamaModel::load("tiny", bytes, Precision::F32, &Compute::cpu())
}

fn greedy(n: usize) -> Generate {
    Generate {
        max_tokens: n,
        sampling: Sampling::Greedy,
    }
}

#[test]
fn generation_stops_at_the_limit_or_when_cancelled() {
    let model = load(&bytes()).unwrap();
    let prompt = model.tokenize("a b").unwrap();
    assert_eq!(prompt, vec![3, 7]); // "a", "Ġb"
    let run =
        pollster::block_on(model.generate(&prompt, &greedy(4), |_| ControlFlow::Continue(())))
            .unwrap();
    assert_eq!(run.stop, Stop::Length);
    assert_eq!(run.tokens.len(), 4);
    assert_eq!(run.text, model.tokenizer.decode(&run.tokens));
    // The same prompt twice gives the same greedy tokens.
    let again =
        pollster::block_on(model.generate(&prompt, &greedy(4), |_| ControlFlow::Continue(())))
            .unwrap();
    assert_eq!(run, again);

    // Cancelled after the first piece of text.
    let mut pieces = 0;
    let cancelled = pollster::block_on(model.generate(&prompt, &greedy(8), |_| {
        pieces += 1;
        ControlFlow::Break(())
    }))
    .unwrap();
    assert_eq!(cancelled.stop, Stop::Cancelled);
    assert_eq!(cancelled.tokens, run.tokens[..1]);
    assert_eq!(pieces, 1);
}

#[test]
fn a_seed_repeats_a_sampled_run() {
    let model = load(&bytes()).unwrap();
    let prompt = model.tokenize("ab").unwrap();
    let settings = Generate {
        max_tokens: 6,
        sampling: Sampling::TopP {
            temperature: 1.5,
            top_p: 0.95,
            seed: 42,
        },
    };
    let run = || {
        pollster::block_on(model.generate(&prompt, &settings, |_| ControlFlow::Continue(())))
            .unwrap()
    };
    assert_eq!(run(), run());
}

#[test]
fn scores_are_the_sums_of_the_stepwise_log_probabilities() {
    let model = load(&bytes()).unwrap();
    let prompt = model.tokenize("a").unwrap();
    let candidate = vec![4u32, 8, 9];
    let scores =
        pollster::block_on(model.score(&prompt, &[candidate.clone(), vec![], vec![4]])).unwrap();
    // By hand: feed the prompt, then one token at a time, summing log-softmax.
    let mut cache = model.new_cache();
    let mut logits = pollster::block_on(model.feed(&prompt, &mut cache)).unwrap();
    let mut total = 0.0f64;
    for &t in &candidate {
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        let sum: f64 = logits.iter().map(|&l| (l as f64 - max).exp()).sum();
        total += logits[t as usize] as f64 - max - sum.ln();
        logits = pollster::block_on(model.feed(&[t], &mut cache)).unwrap();
    }
    assert!((scores[0] - total).abs() < 1e-4, "{} vs {total}", scores[0]);
    assert_eq!(scores[1], 0.0);
    assert!(scores[2] < 0.0 && scores[2] > scores[0]);
}

#[test]
fn the_context_guard_refuses_what_does_not_fit() {
    let model = load(&bytes()).unwrap();
    assert_eq!(model.config().context_length, 16);
    let long = vec![3u32; 17];
    assert_eq!(
        pollster::block_on(model.next_logits(&long)).err(),
        Some(LlmError::Context {
            needed: 17,
            context: 16
        })
    );
    // A reply that fills the context ends there and keeps what it has: a 14-token prompt
    // leaves room for the tokens produced after 14, 15 and 16 positions.
    let prompt = vec![3u32; 14];
    let out =
        pollster::block_on(model.generate(&prompt, &greedy(10), |_| ControlFlow::Continue(())))
            .unwrap();
    assert_eq!(out.stop, Stop::Context);
    assert_eq!(out.tokens.len(), 3);
    let too_long =
        pollster::block_on(model.generate(&long, &greedy(10), |_| ControlFlow::Continue(())));
    assert!(matches!(
        too_long,
        Err(LlmError::Context { needed: 17, .. })
    ));
    assert_eq!(
        pollster::block_on(model.next_logits(&[])).err(),
        Some(LlmError::EmptyPrompt)
    );
    assert_eq!(
        pollster::block_on(model.next_logits(&[99])).err(),
        Some(LlmError::Token(99))
    );
}

/// Replaces the first occurrence of `from` with `to` (same length).
fn patch(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    let mut out = bytes.to_vec();
    out[at..at + to.len()].copy_from_slice(to);
    out
}

/// The byte offset of a tensor's directory entry: after its name come the dimension
/// count, the dimensions, the type and the offset.
fn tensor_entry(bytes: &[u8], name: &str) -> usize {
    let mut key = (name.len() as u64).to_le_bytes().to_vec();
    key.extend_from_slice(name.as_bytes());
    bytes
        .windows(key.len())
        .position(|w| w == key)
        .expect("tensor listed")
        + key.len()
}

#[test]
fn bad_files_are_typed_errors() {
    let good = bytes();
    assert!(load(&good).is_ok());

    // Truncated anywhere: an error, never a panic.
    for cut in (0..good.len()).step_by(97) {
        assert!(load(&good[..cut]).is_err(), "cut at {cut}");
    }
    assert!(load(&good[..good.len() - 1]).is_err());

    let wrong_magic = patch(&good, b"GGUF", b"GGUX");
    assert!(matches!(
        load(&wrong_magic),
        Err(LlmError::File(GgufError::Magic))
    ));
    let mut old = good.clone();
    old[4..8].copy_from_slice(&1u32.to_le_bytes());
    assert!(matches!(
        load(&old),
        Err(LlmError::File(GgufError::Version(1)))
    ));

    let other_arch = patch(
        &good,
        b"\x05\x00\x00\x00\x00\x00\x00\x00llama",
        b"\x05\x00\x00\x00\x00\x00\x00\x00gemma",
    );
    assert!(
        matches!(load(&other_arch), Err(LlmError::Unsupported(_))),
        "{:?}",
        load(&other_arch).err()
    );

    // A tensor of a type the reader cannot decode (Q6_K = 14 in place of Q4_1 = 3).
    let mut q6k = good.clone();
    let at = tensor_entry(&good, "blk.0.attn_q.weight") + 4 + 2 * 8;
    assert_eq!(u32::from_le_bytes(good[at..at + 4].try_into().unwrap()), 3);
    q6k[at..at + 4].copy_from_slice(&14u32.to_le_bytes());
    assert!(matches!(
        load(&q6k),
        Err(LlmError::File(GgufError::TensorType { .. }))
    ));

    // A tensor whose shape disagrees with the hyper-parameters: output_norm [32] → [16]
    // (the data still fits, so the reader accepts it and the model refuses it).
    let mut shape = good.clone();
    let at = tensor_entry(&good, "output_norm.weight") + 4;
    shape[at..at + 8].copy_from_slice(&16u64.to_le_bytes());
    assert!(
        matches!(load(&shape), Err(LlmError::Shape { .. })),
        "{:?}",
        load(&shape).err()
    );

    // A missing tensor.
    let renamed = patch(&good, b"output_norm.weight", b"output_norm.wEight");
    assert!(matches!(
        load(&renamed),
        Err(LlmError::File(GgufError::MissingTensor(_)))
    ));
}
