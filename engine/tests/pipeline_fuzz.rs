//! Property test of the whole pipeline: arbitrary Unicode, empty, huge and binary-ish
//! documents and questions go through extraction, graph building, condition
//! evaluation, gating, walking, ranking and answer selection without a panic; every
//! failure is an error value.

use engine::answer::{answer, AnswerError, Prepared, Strategy as Pipeline};
use engine::embed::LexicalEmbedder;
use engine::extract::RuleExtractor;
use engine::text::Document;
use proptest::prelude::*;

/// Words the patterns react to, so that generated text exercises them and not only
/// the tokenizer.
const VOCAB: &[&str] = &[
    "is",
    "preferred",
    "recommended",
    "contraindicated",
    "in",
    "patients",
    "with",
    "pregnancy",
    "such",
    "as",
    "include",
    "and",
    "or",
    ",",
    ".",
    ";",
    ":",
    "(",
    ")",
    "avoid",
    "avoiding",
    "these",
    "It",
    "They",
    "should",
    "receive",
    "not",
    "when",
    "eGFR",
    "below",
    "30",
    "the",
    "drug",
    "X",
    "of",
    "choice",
    "for",
    "children",
    "who",
    "plus",
    "-",
    "/",
    "\u{0}",
    "é",
    "🙂",
    "ﬁ",
    "\u{202e}",
    "İ",
    "ß",
    "Σ",
    "\u{fffd}",
];

fn vocab_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCAB), 0..120).prop_map(|w| w.join(" "))
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        vocab_text(),
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..400)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn run(docs: Vec<String>, question: &str) -> Result<(), AnswerError> {
    let docs = docs
        .into_iter()
        .enumerate()
        .map(|(i, d)| Document::new(format!("doc {i}"), d))
        .collect();
    let prepared = Prepared::new(docs, &RuleExtractor);
    for strategy in Pipeline::ALL {
        let a = pollster::block_on(answer(
            &prepared,
            question,
            &strategy.config(),
            &mut LexicalEmbedder::default(),
        ))?;
        assert!(a.evidence.len() <= strategy.config().k_paths);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn any_documents_and_question_give_a_value(docs in prop::collection::vec(any_text(), 0..4), question in any_text()) {
        match run(docs, &question) {
            Ok(()) | Err(AnswerError::EmptyQuestion) | Err(AnswerError::QuestionTooLong(_)) => {}
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

#[test]
fn huge_documents_are_read_without_panic() {
    let sentence = "Drug A is preferred for disease B in patients with renal impairment, and drug C, an inhibitor, is contraindicated in pregnancy. ";
    let huge = sentence.repeat(20_000); // ≈ 2.6 MB: past the per-document limit.
    let docs = vec![huge.clone(), huge];
    run(
        docs,
        "Which drug is preferred for disease B in a pregnant woman with renal impairment?",
    )
    .unwrap();
}

#[test]
fn many_options_do_not_exhaust_the_walk() {
    let list: Vec<String> = (0..3_000).map(|i| format!("drug{i}")).collect();
    let doc = format!("Options for disease B include {}.", list.join(", "));
    run(vec![doc], "Which drug is preferred for disease B?").unwrap();
}
