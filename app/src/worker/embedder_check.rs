//! The sentence embedder in this browser, reachable from the page for checks: the
//! browser tests call `window.gatepathTokenize(texts)` and `window.gatepathEmbed(texts)`
//! and compare the results with the reference outputs of the shipped model. The model
//! files come from the site's own `models/all-minilm-l6-v2/` or the cache
//! ([`embedder::load`]); the embedder runs on the
//! backend the page chose (WebGPU or the CPU fallback) and is loaded once per
//! precision: `{precision: "f32"}` or `{precision: "q8"}` (8-bit blocks) as the second
//! argument; without one, q8 on WebGPU and f32 on the CPU (`Precision::for_backend`).

use std::cell::RefCell;
use std::rc::Rc;

use engine::model::bert::{BertEmbedder, Precision};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::compute;
use crate::files::Fetch;
use crate::hooks::{now_ms, precision, strings, wasm_memory_bytes};
use crate::{embedder, manager};
use gatepath_app::models::Role;

thread_local! {
    static EMBEDDERS: RefCell<Vec<(Precision, Shared)>> = const { RefCell::new(Vec::new()) };
}

/// Defines `window.gatepathTokenize` and `window.gatepathEmbed`.
pub fn install() {
    let scope = js_sys::global();
    let tokenize = Closure::<dyn FnMut(JsValue) -> Promise>::new(|texts: JsValue| {
        future_to_promise(async move {
            let embedder = embedder(Precision::F32)
                .await
                .map_err(|e| JsValue::from_str(&e))?;
            let out = Array::new();
            for text in strings(&texts)? {
                let encoded = embedder
                    .borrow()
                    .as_ref()
                    .ok_or_else(|| JsValue::from_str("the embedder is busy with another call"))?
                    .tokenize(&text)
                    .map_err(|e| JsValue::from_str(&e.to_string()))?;
                let ids = Array::new();
                for id in encoded.ids {
                    ids.push(&JsValue::from(id));
                }
                out.push(&ids);
            }
            Ok(out.into())
        })
    });
    let embed = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(
        |texts: JsValue, options: JsValue| {
            future_to_promise(async move {
                let precision = precision(&options)?;
                let embedder = embedder(precision)
                    .await
                    .map_err(|e| JsValue::from_str(&e))?;
                let texts = strings(&texts)?;
                let started = now_ms();
                // Taken out of its cell for the duration of the await, so that a second call
                // meanwhile gets an error rather than a conflicting borrow.
                let mut model = embedder
                    .borrow_mut()
                    .take()
                    .ok_or_else(|| JsValue::from_str("the embedder is busy with another call"))?;
                let result = model.embed_texts(&texts).await;
                *embedder.borrow_mut() = Some(model);
                let vectors = result.map_err(|e| JsValue::from_str(&e.to_string()))?;
                let out = Array::new();
                for v in vectors {
                    let row = Array::new();
                    for x in v.vector {
                        row.push(&JsValue::from(f64::from(x)));
                    }
                    out.push(&row);
                }
                let reply = Object::new();
                Reflect::set(&reply, &"vectors".into(), &out)?;
                Reflect::set(&reply, &"millis".into(), &JsValue::from(now_ms() - started))?;
                Reflect::set(
                    &reply,
                    &"precision".into(),
                    &JsValue::from_str(precision.id()),
                )?;
                Reflect::set(&reply, &"wasmMemoryBytes".into(), &wasm_memory_bytes())?;
                Reflect::set(
                    &reply,
                    &"backend".into(),
                    &JsValue::from_str(
                        &compute::active()
                            .map(|c| c.backend().to_string())
                            .unwrap_or_default(),
                    ),
                )?;
                Ok(reply.into())
            })
        },
    );
    let _ = Reflect::set(&scope, &"gatepathTokenize".into(), tokenize.as_ref());
    let _ = Reflect::set(&scope, &"gatepathEmbed".into(), embed.as_ref());
    // The page lives as long as the functions: they are never released.
    tokenize.forget();
    embed.forget();
}

/// The loaded embedder; `None` inside while a call is using it.
type Shared = Rc<RefCell<Option<BertEmbedder>>>;

/// The embedder at `precision`, loaded on first use onto the page's backend.
async fn embedder(precision: Precision) -> Result<Shared, String> {
    let loaded = EMBEDDERS.with(|cell| {
        cell.borrow()
            .iter()
            .find(|(p, _)| *p == precision)
            .map(|(_, e)| e.clone())
    });
    if let Some(e) = loaded {
        return Ok(e);
    }
    let source = manager::shipped(Role::Embedder).await?;
    let (embedder, _) = embedder::load(&source, precision, Fetch::ThisSite, &|_, _| {}).await?;
    let shared = Rc::new(RefCell::new(Some(embedder)));
    EMBEDDERS.with(|cell| cell.borrow_mut().push((precision, shared.clone())));
    Ok(shared)
}
