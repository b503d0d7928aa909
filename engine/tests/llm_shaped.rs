//! SmolLM2-135M-Instruct held to JSON shapes: whatever it would write, greedy or
//! sampled, the reply parses and has exactly the shape's keys and allowed values; the
//! CGR condition step built on it answers the paper's example. Unconstrained, the same
//! model on the same prompts writes prose or broken JSON (checked below, so the shape is
//! what makes the difference).

mod common;

use std::ops::ControlFlow;

use engine::answer::{condition_messages, query_messages, query_shape, LlmSteps, QuestionSteps};
use engine::gate::Truth;
use engine::llm::{Generate, LanguageModel, Sampling, Shape};
use engine::model::llama::LlamaModel;
use engine::model::Precision;
use serde_json::Value;

fn model() -> &'static LlamaModel {
    common::smollm2(Precision::F32)
}

fn conditions() -> Vec<String> {
    ["in boys", "in adults", "eGFR < 30", "during pregnancy"]
        .map(String::from)
        .to_vec()
}

fn condition_prompt(question: &str) -> String {
    model()
        .chat_prompt(&condition_messages(question, &conditions()))
        .unwrap()
}

fn condition_shape() -> Shape {
    Shape::object(conditions().into_iter().map(|c| (c, Shape::truth())))
}

fn check_conditions(reply: &Value) {
    let object = reply.as_object().expect("an object");
    let keys: Vec<&String> = object.keys().collect();
    assert_eq!(keys.len(), 4, "{reply}");
    for c in conditions() {
        let v = object
            .get(&c)
            .unwrap_or_else(|| panic!("{c} missing from {reply}"));
        assert!(v.is_boolean() || v.is_null(), "{c}: {v}");
    }
}

#[test]
fn greedy_and_sampled_replies_keep_the_condition_shape() {
    let prompt = condition_prompt("What antibiotic for a 5-year-old boy with pneumonia?");
    let greedy = pollster::block_on(model().generate_json(
        &prompt,
        &condition_shape(),
        &Generate {
            max_tokens: 80,
            sampling: Sampling::Greedy,
        },
    ))
    .unwrap();
    check_conditions(&greedy);
    for seed in 0..4 {
        let sampled = pollster::block_on(model().generate_json(
            &prompt,
            &condition_shape(),
            &Generate {
                max_tokens: 80,
                sampling: Sampling::TopP {
                    temperature: 1.2,
                    top_p: 1.0,
                    seed,
                },
            },
        ))
        .unwrap();
        check_conditions(&sampled);
    }
}

#[test]
fn unconstrained_the_same_prompt_is_not_that_shape() {
    let prompt = condition_prompt("What antibiotic for a 5-year-old boy with pneumonia?");
    let ids = model().tokenize(&prompt).unwrap();
    let free = pollster::block_on(model().generate(
        &ids,
        &Generate {
            max_tokens: 80,
            sampling: Sampling::Greedy,
        },
        |_| ControlFlow::Continue(()),
    ))
    .unwrap();
    let parsed: Option<Value> = serde_json::from_str(free.text.trim()).ok();
    let shaped = parsed.as_ref().is_some_and(|v| {
        v.as_object().is_some_and(|o| {
            o.len() == 4
                && conditions()
                    .iter()
                    .all(|c| o.get(c).is_some_and(|x| x.is_boolean() || x.is_null()))
        })
    });
    assert!(
        !shaped,
        "the free reply already has the shape: {}",
        free.text
    );
}

#[test]
fn the_query_parsing_shape_holds_under_sampling() {
    let shape = query_shape();
    let prompt = model()
        .chat_prompt(&query_messages(
            "What drug treats hypertension in pregnant women, excluding ACE inhibitors?",
        ))
        .unwrap();
    // Greedy, and sampled at a moderate temperature: a hot sample can fill every string
    // and list to its bound (over 1,000 bytes), more than a reply is given here.
    let runs = [
        Sampling::Greedy,
        Sampling::TopP {
            temperature: 0.7,
            top_p: 0.9,
            seed: 1,
        },
    ];
    for sampling in runs {
        let reply = pollster::block_on(model().generate_json(
            &prompt,
            &shape,
            &Generate {
                max_tokens: 400,
                sampling,
            },
        ))
        .unwrap();
        eprintln!("{reply}");
        let o = reply.as_object().expect("object");
        assert_eq!(o.len(), 6, "{reply}");
        assert!(
            o["target_type"].as_str().is_some_and(|s| s.len() <= 40),
            "{reply}"
        );
        for (key, max) in [
            ("positive_attributes", 5),
            ("negated_entities", 4),
            ("required_conditions", 4),
            ("excluded_conditions", 4),
        ] {
            let items = o[key].as_array().expect("array");
            assert!(items.len() <= max, "{reply}");
            assert!(
                items
                    .iter()
                    .all(|i| i.as_str().is_some_and(|s| s.len() <= 60)),
                "{reply}"
            );
        }
    }
}

#[test]
fn a_budget_too_small_for_the_shape_is_a_typed_error() {
    let prompt = condition_prompt("What antibiotic for a 5-year-old boy with pneumonia?");
    let err = pollster::block_on(model().generate_json(
        &prompt,
        &condition_shape(),
        &Generate {
            max_tokens: 3,
            sampling: Sampling::Greedy,
        },
    ))
    .unwrap_err();
    assert_eq!(err, engine::llm::LlmError::ShapeUnfinished(3));
}

#[test]
fn the_condition_step_fills_what_the_lexicon_leaves_open() {
    // The lexicon decides pregnancy for a pregnant woman; the model is asked only about
    // the rest, and its reply is merged without touching pregnancy.
    let question = "Which antibiotic is preferred for a pregnant woman with early Lyme disease?";
    let phrases = vec![
        "during pregnancy".to_string(),
        "in children under 8".to_string(),
        "in patients with penicillin allergy".to_string(),
    ];
    let mut steps = LlmSteps::new(model());
    let table = pollster::block_on(async {
        let query = steps.parse(question).await?;
        steps.evaluate(&query, &phrases).await
    })
    .unwrap();
    assert_eq!(table.phrase("during pregnancy"), Truth::True);
    let asked: Vec<&str> = steps.last.iter().map(|v| v.phrase.as_str()).collect();
    assert_eq!(
        asked,
        ["in children under 8", "in patients with penicillin allergy"]
    );
}
