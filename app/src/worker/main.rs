//! gatepath's worker: owns the compute backend (WebGPU created here, the CPU when it is
//! missing or fails), the models and the engine, so the page never blocks while a
//! model loads or a graph builds. It answers the page's messages
//! ([`gatepath_app::protocol`]) one request at a time and reports progress as it goes.

mod compute;
mod embedder;
mod embedder_check;
mod files;
mod hooks;
mod language;
mod llm;
mod llm_check;
mod manager;
mod session;
mod store;

use gatepath_app::protocol::{self, kind, Ask, Explain, ModelSource, Regate, Start};
use js_sys::{Array, Function, Object, Promise, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    embedder_check::install();
    llm_check::install();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        handle(event.data());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its handler: it is never released.
    on_message.forget();
}

/// Dispatches one message from the page.
fn handle(data: JsValue) {
    let text = |key: &str| {
        Reflect::get(&data, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let id = Reflect::get(&data, &"id".into())
        .ok()
        .and_then(|v| v.as_f64())
        .map_or(0, |v| v as u32);
    let body = text("body");
    match text("kind").as_str() {
        kind::START => spawn_local(async move {
            let start: Start = serde_json::from_str(&body).unwrap_or(Start { cpu: false });
            let status = compute::start(start.cpu).await;
            post(kind::STATUS, id, &compute::status_message(&status));
        }),
        kind::ASK => spawn_local(async move {
            let result = match serde_json::from_str::<Ask>(&body) {
                Ok(request) => session::ask(id, request, |p| post(kind::PROGRESS, id, &p)).await,
                Err(e) => Err(format!("malformed request: {e}")),
            };
            reply(id, result);
        }),
        kind::REGATE => spawn_local(async move {
            let result = match serde_json::from_str::<Regate>(&body) {
                Ok(request) => session::regate(request).await,
                Err(e) => Err(format!("malformed request: {e}")),
            };
            reply(id, result);
        }),
        kind::EXPLAIN => spawn_local(async move {
            let result = match serde_json::from_str::<Explain>(&body) {
                Ok(request) => {
                    session::explain(
                        id,
                        request,
                        |p| post(kind::PROGRESS, id, &p),
                        |piece| post(kind::TOKEN, id, &piece),
                    )
                    .await
                }
                Err(e) => Err(format!("malformed request: {e}")),
            };
            match result {
                Ok(explanation) => post(kind::EXPLAINED, id, &explanation),
                Err(message) => post_error(id, &message),
            }
        }),
        kind::CACHE => spawn_local(async move {
            post(kind::CACHED, id, &store::summary().await);
        }),
        kind::CLEAR => spawn_local(async move {
            match store::clear().await {
                Ok(()) => post(kind::CACHED, id, &store::summary().await),
                Err(message) => post_error(id, &message),
            }
        }),
        kind::MODELS => spawn_local(async move {
            post(kind::MODELS, id, &manager::state().await);
        }),
        kind::INSPECT => spawn_local(async move {
            let result = match serde_json::from_str::<ModelSource>(&body) {
                Ok(source) => manager::inspect(source).await,
                Err(e) => Err(format!("malformed request: {e}")),
            };
            match result {
                Ok(inspection) => post(kind::INSPECTED, id, &inspection),
                Err(message) => post_error(id, &message),
            }
        }),
        kind::USE => spawn_local(async move {
            let result = match serde_json::from_str::<ModelSource>(&body) {
                Ok(source) => manager::use_model(source, |p| post(kind::PROGRESS, id, &p)).await,
                Err(e) => Err(format!("malformed request: {e}")),
            };
            match result {
                Ok(report) => post(kind::USED, id, &report),
                Err(message) => post_error(id, &message),
            }
        }),
        kind::FILES => {
            let chosen = Reflect::get(&data, &"files".into()).unwrap_or_default();
            if Array::is_array(&chosen) {
                let chosen: Array = chosen.into();
                files::offer(chosen.iter().filter_map(|f| f.dyn_into().ok()).collect());
            }
        }
        kind::CANCEL => {
            if let Ok(target) = body.parse::<u32>() {
                session::cancel(target);
            }
        }
        kind::HOOK => {
            let name = text("name");
            let args = Reflect::get(&data, &"args".into()).unwrap_or_default();
            spawn_local(hook(id, name, args));
        }
        other => post_error(id, &format!("unknown message kind `{other}`")),
    }
}

fn reply(id: u32, result: Result<protocol::AnswerView, String>) {
    match result {
        Ok(view) => post(kind::ANSWER, id, &view),
        Err(message) => post_error(id, &message),
    }
}

/// Calls the check hook `name` (a function on this scope) with `args` and posts its
/// result as a `reply`.
async fn hook(id: u32, name: String, args: JsValue) {
    let scope = js_sys::global();
    let result = async {
        if !protocol::HOOKS.contains(&name.as_str()) {
            return Err(JsValue::from_str(&format!("no hook `{name}`")));
        }
        let f: Function = Reflect::get(&scope, &name.as_str().into())?.dyn_into()?;
        let args: Array = if Array::is_array(&args) {
            args.into()
        } else {
            Array::new()
        };
        let promise: Promise = f.apply(&scope, &args)?.dyn_into()?;
        JsFuture::from(promise).await
    }
    .await;
    let message = Object::new();
    let _ = Reflect::set(&message, &"kind".into(), &kind::REPLY.into());
    let _ = Reflect::set(&message, &"id".into(), &id.into());
    match result {
        Ok(value) => {
            let _ = Reflect::set(&message, &"value".into(), &value);
        }
        Err(e) => {
            let text = e.as_string().unwrap_or_else(|| format!("{e:?}"));
            let _ = Reflect::set(&message, &"error".into(), &text.into());
        }
    }
    send(&message);
}

/// Posts `{kind, id, body: JSON of value}` to the page.
pub fn post(kind: &str, id: u32, value: &impl Serialize) {
    let body = serde_json::to_string(value).unwrap_or_else(|e| format!("\"{e}\""));
    let message = Object::new();
    let _ = Reflect::set(&message, &"kind".into(), &kind.into());
    let _ = Reflect::set(&message, &"id".into(), &id.into());
    let _ = Reflect::set(&message, &"body".into(), &body.into());
    send(&message);
}

fn post_error(id: u32, message: &str) {
    post(kind::ERROR, id, &message);
}

fn send(message: &Object) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message(message);
}
