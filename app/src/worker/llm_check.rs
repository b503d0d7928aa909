//! The shipped small LLM in this browser, reachable from the page for checks: the
//! browser tests call `window.gatepathLlm(prompts, {precision, tokens})` and compare
//! prompt token ids, the last position's top logits and greedy continuations with
//! llama.cpp's. The GGUF comes from the site's own `models/` (or the cache); the model
//! runs on the backend the page chose and is loaded once per precision.

use std::ops::ControlFlow;
use std::rc::Rc;

use engine::model::llama::{sample::argmax, Generate, LlamaModel, SelfCheck};
use engine::model::Precision;
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::compute;
use crate::files::Fetch;
use crate::hooks::{now_ms, precision, strings, wasm_memory_bytes};
use crate::{llm, manager};
use gatepath_app::models::Role;

/// How many tokens to generate after each prompt: `options.tokens` is one count for
/// all or an array with one per prompt; 8 when absent; at least 1, because the
/// prompt's logits come from the pass that chooses the first token.
fn token_counts(options: &JsValue, prompts: usize) -> Vec<usize> {
    let given = Reflect::get(options, &"tokens".into()).unwrap_or(JsValue::UNDEFINED);
    let count = |v: JsValue| v.as_f64().map_or(8, |n| n.max(1.0) as usize);
    if Array::is_array(&given) {
        let given = Array::from(&given);
        (0..prompts as u32).map(|i| count(given.get(i))).collect()
    } else {
        vec![count(given); prompts]
    }
}

/// Defines `window.gatepathLlm`.
pub fn install() {
    let scope = js_sys::global();
    let run = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(
        |prompts: JsValue, options: JsValue| {
            future_to_promise(async move {
                let precision = precision(&options)?;
                let prompts = strings(&prompts)?;
                let tokens = token_counts(&options, prompts.len());
                let started = now_ms();
                let (model, check) = model(precision).await.map_err(|e| JsValue::from_str(&e))?;
                let loaded = now_ms();
                let cases = Array::new();
                let mut generated = 0usize;
                let mut decode_millis = 0.0;
                for (prompt, &tokens) in prompts.iter().zip(&tokens) {
                    let ids = model.tokenize(prompt).map_err(err)?;
                    let settings = Generate {
                        max_tokens: tokens,
                        ..Generate::default()
                    };
                    // The prompt's logits come from the same pass as the first token.
                    let mut logits = Vec::new();
                    // Decoding is timed from the first token out (the prompt's pass
                    // before it is prompt processing, not decoding).
                    let mut first_token_at: Option<f64> = None;
                    let out = model
                        .generate_observed(
                            &ids,
                            &settings,
                            |row| logits = row.to_vec(),
                            |_| {
                                first_token_at.get_or_insert_with(now_ms);
                                ControlFlow::Continue(())
                            },
                            async || {},
                        )
                        .await
                        .map_err(err)?;
                    let mut order: Vec<u32> = (0..logits.len() as u32).collect();
                    order.sort_by(|&a, &b| logits[b as usize].total_cmp(&logits[a as usize]));
                    let top = Array::new();
                    for &id in order.iter().take(10) {
                        top.push(&Array::of2(
                            &id.into(),
                            &f64::from(logits[id as usize]).into(),
                        ));
                    }
                    if let Some(first) = first_token_at {
                        decode_millis += now_ms() - first;
                        generated += out.tokens.len().saturating_sub(1);
                    }
                    let case = Object::new();
                    Reflect::set(&case, &"tokens".into(), &numbers(&ids))?;
                    Reflect::set(&case, &"argmax".into(), &argmax(&logits).into())?;
                    Reflect::set(&case, &"top10".into(), &top)?;
                    Reflect::set(&case, &"greedy".into(), &numbers(&out.tokens))?;
                    Reflect::set(&case, &"text".into(), &out.text.into())?;
                    cases.push(&case);
                }
                let reply = Object::new();
                Reflect::set(&reply, &"cases".into(), &cases)?;
                Reflect::set(&reply, &"loadMillis".into(), &(loaded - started).into())?;
                Reflect::set(&reply, &"millis".into(), &(now_ms() - loaded).into())?;
                // Tokens decoded after each case's first, and the time they took.
                Reflect::set(&reply, &"decoded".into(), &(generated as f64).into())?;
                Reflect::set(&reply, &"decodeMillis".into(), &decode_millis.into())?;
                Reflect::set(&reply, &"precision".into(), &model.precision().id().into())?;
                Reflect::set(
                    &reply,
                    &"selfCheckError".into(),
                    &f64::from(check.error).into(),
                )?;
                Reflect::set(&reply, &"fellBack".into(), &check.fell_back.into())?;
                Reflect::set(&reply, &"wasmMemoryBytes".into(), &wasm_memory_bytes())?;
                let backend = compute::active()
                    .map(|c| c.backend().to_string())
                    .unwrap_or_default();
                Reflect::set(&reply, &"backend".into(), &backend.into())?;
                Ok(reply.into())
            })
        },
    );
    let _ = Reflect::set(&scope, &"gatepathLlm".into(), run.as_ref());
    // The page lives as long as the function: it is never released.
    run.forget();
}

fn err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn numbers(ids: &[u32]) -> Array {
    ids.iter().map(|&id| JsValue::from(id)).collect()
}

/// The model at `precision` (see [`llm::load`]).
async fn model(precision: Precision) -> Result<(Rc<LlamaModel>, SelfCheck), String> {
    let source = manager::shipped(Role::Llm).await?;
    let loaded = llm::load(&source, precision, Fetch::ThisSite, &|_, _| {}).await?;
    Ok((loaded.model, loaded.check))
}
