//! The page's side of the worker: starts it, sends requests, routes its replies and
//! progress back to whoever asked, and forwards the check hooks
//! (`window.gatepath*(...)`, used by the browser tests and benchmarks) to it.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use gatepath_app::protocol::{
    self, kind, AnswerView, Ask, CacheSummary, Explain, Explanation, Inspection, ModelSource,
    ModelsState, Progress, Regate, Start, Status, UseReport,
};
use js_sys::{Array, Function, Object, Promise, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

/// The worker's script: loads its wasm and queues messages until it runs.
const WORKER_SCRIPT: &str = "./worker_loader.js";

struct Pending {
    resolve: Function,
    reject: Function,
    progress: Option<Box<dyn Fn(Progress)>>,
    /// Pieces of streamed text (an explanation being written).
    text: Option<Box<dyn Fn(String)>>,
}

/// What hears the worker's status.
type StatusCallback = Box<dyn Fn(Status)>;

struct Client {
    worker: Worker,
    next: Cell<u32>,
    pending: RefCell<HashMap<u32, Pending>>,
    on_status: RefCell<Option<StatusCallback>>,
}

thread_local! {
    static CLIENT: RefCell<Option<Rc<Client>>> = const { RefCell::new(None) };
}

fn client() -> Result<Rc<Client>, String> {
    CLIENT
        .with(|c| c.borrow().clone())
        .ok_or_else(|| "the worker is not running".into())
}

/// Starts the worker and its compute backend; `on_status` receives the backend and its
/// self-check (or why the worker could not start).
pub fn start(cpu: bool, on_status: impl Fn(Result<Status, String>) + 'static) {
    let on_status = Rc::new(on_status);
    let worker = match Worker::new(WORKER_SCRIPT) {
        Ok(w) => w,
        Err(e) => {
            on_status(Err(format!("the worker could not start: {e:?}")));
            return;
        }
    };
    let client = Rc::new(Client {
        worker,
        next: Cell::new(1),
        pending: RefCell::new(HashMap::new()),
        on_status: RefCell::new(None),
    });
    {
        let on_status = on_status.clone();
        *client.on_status.borrow_mut() = Some(Box::new(move |s| on_status(Ok(s))));
    }
    let weak = Rc::downgrade(&client);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        if let Some(client) = weak.upgrade() {
            client.receive(event.data());
        }
    });
    client
        .worker
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let weak = Rc::downgrade(&client);
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let message = Reflect::get(&event, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "the worker failed to load".into());
        web_sys::console::error_1(&format!("gatepath worker: {message}").into());
        // A worker that died (out of memory, most often) answers nothing more: every
        // request waiting on it fails with the reason instead of waiting forever.
        if let Some(client) = weak.upgrade() {
            let waiting: Vec<u32> = client.pending.borrow().keys().copied().collect();
            let reason = format!(
                "the worker stopped ({message}); the browser may have run out of memory. \
                 Reload the page to start again"
            );
            for id in waiting {
                client.settle(id, Err(JsValue::from_str(&reason)));
            }
        }
        on_status(Err(message));
    });
    client
        .worker
        .set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    client.send(kind::START, 0, &Start { cpu });
    CLIENT.with(|c| *c.borrow_mut() = Some(client));
    install_hooks();
}

/// Asks a question; `progress` receives each step.
pub async fn ask(
    request: &Ask,
    progress: impl Fn(Progress) + 'static,
) -> Result<AnswerView, String> {
    let client = client()?;
    let (id, promise) = client.request(Some(Box::new(progress)), None);
    client.send(kind::ASK, id, request);
    answer(promise).await
}

/// Explains the answer shown last; `progress` receives each step and `text` each piece
/// of the explanation as the model writes it.
pub async fn explain(
    request: &Explain,
    progress: impl Fn(Progress) + 'static,
    text: impl Fn(String) + 'static,
) -> Result<Explanation, String> {
    let client = client()?;
    let (id, promise) = client.request(Some(Box::new(progress)), Some(Box::new(text)));
    client.send(kind::EXPLAIN, id, request);
    answer(promise).await
}

/// The id the next request will get (to cancel it).
pub fn next_id() -> u32 {
    client().map_or(0, |c| c.next.get())
}

/// Stops request `id` at its next step.
pub fn cancel(id: u32) {
    if let Ok(client) = client() {
        client.send_text(kind::CANCEL, 0, &id.to_string());
    }
}

/// The last question again under other condition values (no model runs).
pub async fn regate(request: &Regate) -> Result<AnswerView, String> {
    let client = client()?;
    let (id, promise) = client.request(None, None);
    client.send(kind::REGATE, id, request);
    answer(promise).await
}

/// What the worker's cache holds.
pub async fn cache() -> Result<CacheSummary, String> {
    let client = client()?;
    let (id, promise) = client.request(None, None);
    client.send_text(kind::CACHE, id, "");
    answer(promise).await
}

/// Empties the worker's cache; what it holds afterwards.
pub async fn clear_cache() -> Result<CacheSummary, String> {
    let client = client()?;
    let (id, promise) = client.request(None, None);
    client.send_text(kind::CLEAR, id, "");
    answer(promise).await
}

/// The JSON body a request's promise settled with, read as `T`.
/// The models in use.
pub async fn models() -> Result<ModelsState, String> {
    let client = client()?;
    let (id, promise) = client.request(None, None);
    client.send_text(kind::MODELS, id, "");
    answer(promise).await
}

/// What `source` will take here, found without downloading it.
pub async fn inspect(source: &ModelSource) -> Result<Inspection, String> {
    let client = client()?;
    let (id, promise) = client.request(None, None);
    client.send(kind::INSPECT, id, source);
    answer(promise).await
}

/// Hands the worker model files the user chose from their computer (handles: nothing
/// is read until a model made of them is checked or used).
pub fn offer_files(files: &[web_sys::File]) {
    if let Ok(client) = client() {
        let message = Object::new();
        let list: Array = files.iter().collect();
        let _ = Reflect::set(&message, &"kind".into(), &kind::FILES.into());
        let _ = Reflect::set(&message, &"id".into(), &0.into());
        let _ = Reflect::set(&message, &"files".into(), &list);
        let _ = client.worker.post_message(&message);
    }
}

/// Downloads, verifies, loads and warms up `source`, then uses it for its role.
pub async fn use_model(
    source: &ModelSource,
    progress: impl Fn(Progress) + 'static,
) -> Result<UseReport, String> {
    let client = client()?;
    let (id, promise) = client.request(Some(Box::new(progress)), None);
    client.send(kind::USE, id, source);
    answer(promise).await
}

async fn answer<T: serde::de::DeserializeOwned>(promise: Promise) -> Result<T, String> {
    let body = JsFuture::from(promise)
        .await
        .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))?;
    let text = body.as_string().unwrap_or_default();
    serde_json::from_str(&text).map_err(|e| format!("unreadable reply from the worker: {e}"))
}

impl Client {
    /// A new request id and the promise its reply settles.
    fn request(
        &self,
        progress: Option<Box<dyn Fn(Progress)>>,
        text: Option<Box<dyn Fn(String)>>,
    ) -> (u32, Promise) {
        let id = self.next.get();
        self.next.set(id + 1);
        let mut slot: Option<(Function, Function)> = None;
        let promise = Promise::new(&mut |resolve, reject| slot = Some((resolve, reject)));
        if let Some((resolve, reject)) = slot {
            self.pending.borrow_mut().insert(
                id,
                Pending {
                    resolve,
                    reject,
                    progress,
                    text,
                },
            );
        }
        (id, promise)
    }

    fn send(&self, kind: &str, id: u32, body: &impl Serialize) {
        let body = serde_json::to_string(body).unwrap_or_default();
        self.send_text(kind, id, &body);
    }

    fn send_text(&self, kind: &str, id: u32, body: &str) {
        let message = Object::new();
        let _ = Reflect::set(&message, &"kind".into(), &kind.into());
        let _ = Reflect::set(&message, &"id".into(), &id.into());
        let _ = Reflect::set(&message, &"body".into(), &body.into());
        let _ = self.worker.post_message(&message);
    }

    fn receive(&self, data: JsValue) {
        let get = |key: &str| Reflect::get(&data, &key.into()).unwrap_or_default();
        let kind = get("kind").as_string().unwrap_or_default();
        let id = get("id").as_f64().map_or(0, |v| v as u32);
        let body = get("body").as_string().unwrap_or_default();
        match kind.as_str() {
            kind::STATUS => {
                if let (Some(callback), Ok(status)) = (
                    self.on_status.borrow().as_ref(),
                    serde_json::from_str::<Status>(&body),
                ) {
                    callback(status);
                }
            }
            kind::PROGRESS => {
                if let (Some(pending), Ok(p)) = (
                    self.pending.borrow().get(&id),
                    serde_json::from_str::<Progress>(&body),
                ) {
                    if let Some(progress) = &pending.progress {
                        progress(p);
                    }
                }
            }
            kind::TOKEN => {
                if let (Some(pending), Ok(piece)) = (
                    self.pending.borrow().get(&id),
                    serde_json::from_str::<String>(&body),
                ) {
                    if let Some(text) = &pending.text {
                        text(piece);
                    }
                }
            }
            kind::ANSWER
            | kind::CACHED
            | kind::EXPLAINED
            | kind::MODELS
            | kind::INSPECTED
            | kind::USED => self.settle(id, Ok(JsValue::from_str(&body))),
            kind::ERROR => {
                let message: String = serde_json::from_str(&body).unwrap_or(body);
                self.settle(id, Err(JsValue::from_str(&message)));
            }
            kind::REPLY => {
                let error = get("error");
                let result = match error.as_string() {
                    Some(message) => Err(JsValue::from_str(&message)),
                    None => Ok(get("value")),
                };
                self.settle(id, result);
            }
            _ => {}
        }
    }

    fn settle(&self, id: u32, result: Result<JsValue, JsValue>) {
        let Some(pending) = self.pending.borrow_mut().remove(&id) else {
            return;
        };
        let _ = match result {
            Ok(v) => pending.resolve.call1(&JsValue::NULL, &v),
            Err(e) => pending.reject.call1(&JsValue::NULL, &e),
        };
    }
}

/// Defines `window.<hook>(...args)` for every check hook: a promise of the worker's
/// reply.
fn install_hooks() {
    let Some(window) = web_sys::window() else {
        return;
    };
    for name in protocol::HOOKS {
        let forward = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(
            move |first: JsValue, second: JsValue| {
                let client = match client() {
                    Ok(c) => c,
                    Err(e) => return Promise::reject(&JsValue::from_str(&e)),
                };
                let (id, promise) = client.request(None, None);
                let args = Array::new();
                if !first.is_undefined() {
                    args.push(&first);
                }
                if !second.is_undefined() {
                    args.push(&second);
                }
                let message = Object::new();
                let _ = Reflect::set(&message, &"kind".into(), &kind::HOOK.into());
                let _ = Reflect::set(&message, &"id".into(), &id.into());
                let _ = Reflect::set(&message, &"name".into(), &name.into());
                let _ = Reflect::set(&message, &"args".into(), &args);
                let _ = client.worker.post_message(&message);
                promise
            },
        );
        let _ = Reflect::set(&window, &name.into(), forward.as_ref());
        forward.forget();
    }
}
