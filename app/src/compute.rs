//! Picking the compute backend in the browser and proving it before use.

use engine::compute::{check, Backend, Compute};

/// The outcome of start-up: which backend runs the models and whether it passed the
/// self-check.
#[derive(Debug, Clone)]
pub struct ComputeStatus {
    /// The backend in use.
    pub backend: Backend,
    /// Why WebGPU is not in use, when it is not.
    pub fallback_reason: Option<String>,
    /// What the browser says about its WebGPU adapter, when it offered one.
    pub adapter: Option<AdapterInfo>,
    /// The self-check on that backend, or why it could not run.
    pub check: Result<CheckSummary, String>,
}

/// What the page shows of a self-check.
#[derive(Debug, Clone)]
pub struct CheckSummary {
    pub verification: check::Verification,
    pub input: check::CheckInput,
    pub millis: f64,
}

/// The browser's own description of its WebGPU adapter. wgpu cannot see these details
/// in a browser, so the page asks `navigator.gpu` directly; the limits tell the model
/// manager whether a model's weights fit.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterInfo {
    /// `vendor · architecture · description`, whichever the browser discloses.
    pub description: String,
    /// `limits.maxBufferSize` in bytes.
    pub max_buffer_size: f64,
    /// `limits.maxStorageBufferBindingSize` in bytes.
    pub max_storage_binding: f64,
}

thread_local! {
    /// The backend the page chose, for everything that runs a model after start-up.
    static ACTIVE: std::cell::RefCell<Option<std::rc::Rc<Compute>>> = const { std::cell::RefCell::new(None) };
}

/// The backend chosen at start-up, once [`start`] has chosen it.
pub fn active() -> Option<std::rc::Rc<Compute>> {
    ACTIVE.with(|cell| cell.borrow().clone())
}

/// Picks the backend and runs the self-check on it. A backend that fails the check is
/// reported as failed (the page says so) rather than silently used.
pub async fn start() -> ComputeStatus {
    let (compute, fallback_reason, adapter) = acquire().await;
    let input = check::CheckInput::standard();
    let started = now_ms();
    let check = check::verify(&compute, &input)
        .await
        .map(|verification| CheckSummary {
            verification,
            input,
            millis: now_ms() - started,
        })
        .map_err(|e| e.to_string());
    let backend = compute.backend().clone();
    if check.is_ok() {
        ACTIVE.with(|cell| *cell.borrow_mut() = Some(std::rc::Rc::new(compute)));
    }
    ComputeStatus {
        backend,
        fallback_reason,
        adapter,
        check,
    }
}

/// Acquires the best available backend: WebGPU, else the CPU with the reason.
async fn acquire() -> (Compute, Option<String>, Option<AdapterInfo>) {
    if cpu_requested() {
        let reason = "the CPU backend was requested (?backend=cpu)".to_string();
        return (Compute::cpu(), Some(reason), None);
    }
    match probe_adapter().await {
        Err(reason) => (Compute::cpu(), Some(reason), None),
        Ok(info) => match acquire_webgpu().await {
            Ok(compute) => (compute, None, Some(info)),
            Err(reason) => (Compute::cpu(), Some(reason), Some(info)),
        },
    }
}

/// How the user asked the page to choose: `?backend=cpu` forces the CPU (useful when
/// a GPU driver misbehaves); anything else tries WebGPU first.
fn cpu_requested() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| {
            q.trim_start_matches('?')
                .split('&')
                .any(|kv| kv == "backend=cpu")
        })
}

/// The browser's adapter, or why it has none to offer — in words clearer than wgpu's.
async fn probe_adapter() -> Result<AdapterInfo, String> {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    let window = web_sys::window().ok_or("no window")?;
    let gpu = Reflect::get(&window.navigator(), &"gpu".into()).unwrap_or_default();
    if gpu.is_undefined() || gpu.is_null() {
        return Err("this browser does not expose WebGPU (navigator.gpu is missing)".into());
    }
    let request: Function = Reflect::get(&gpu, &"requestAdapter".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("navigator.gpu.requestAdapter is missing")?;
    let promise: Promise = request
        .call0(&gpu)
        .ok()
        .and_then(|p| p.dyn_into().ok())
        .ok_or("navigator.gpu.requestAdapter failed")?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| format!("navigator.gpu.requestAdapter failed: {e:?}"))?;
    if adapter.is_undefined() || adapter.is_null() {
        return Err("the browser offers no WebGPU adapter \
                    (WebGPU may be disabled, or this GPU is blocklisted)"
            .into());
    }
    let text = |object: &JsValue, key: &str| {
        Reflect::get(object, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let number = |object: &JsValue, key: &str| {
        Reflect::get(object, &key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or_default();
    let limits = Reflect::get(&adapter, &"limits".into()).unwrap_or_default();
    let description = ["vendor", "architecture", "description"]
        .iter()
        .map(|key| text(&info, key))
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    Ok(AdapterInfo {
        description,
        max_buffer_size: number(&limits, "maxBufferSize"),
        max_storage_binding: number(&limits, "maxStorageBufferBindingSize"),
    })
}

#[cfg(target_arch = "wasm32")]
async fn acquire_webgpu() -> Result<Compute, String> {
    Compute::webgpu().await.map_err(|e| e.to_string())
}

#[cfg(not(target_arch = "wasm32"))]
async fn acquire_webgpu() -> Result<Compute, String> {
    Err("this build has no WebGPU runtime".into())
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
