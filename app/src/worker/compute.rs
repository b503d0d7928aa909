//! Picking the compute backend in the worker and proving it before use.

use engine::compute::{check, Backend, Compute};

use crate::hooks::now_ms;
use gatepath_app::protocol;

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
    /// The WebGPU adapter's description and limits, when WebGPU is in use.
    static ADAPTER: std::cell::RefCell<Option<AdapterInfo>> = const { std::cell::RefCell::new(None) };
}

/// The adapter of the WebGPU device in use (its limits are the device's: burn asks for
/// the adapter's), or `None` on the CPU.
pub fn adapter() -> Option<AdapterInfo> {
    ADAPTER.with(|cell| cell.borrow().clone())
}

/// The backend chosen at start-up, once [`start`] has chosen it.
pub fn active() -> Option<std::rc::Rc<Compute>> {
    ACTIVE.with(|cell| cell.borrow().clone())
}

/// Picks the backend and runs the self-check on it. A backend that fails the check is
/// reported as failed (the page says so) rather than silently used.
/// `cpu` forces the CPU backend (the page's `?backend=cpu`, useful when a GPU driver
/// misbehaves); otherwise WebGPU is tried first.
pub async fn start(cpu: bool) -> ComputeStatus {
    let (compute, fallback_reason, adapter) = acquire(cpu).await;
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
        if matches!(backend, Backend::WebGpu { .. }) {
            ADAPTER.with(|cell| *cell.borrow_mut() = adapter.clone());
        }
    }
    ComputeStatus {
        backend,
        fallback_reason,
        adapter,
        check,
    }
}

/// Acquires the best available backend: WebGPU, else the CPU with the reason.
async fn acquire(cpu: bool) -> (Compute, Option<String>, Option<AdapterInfo>) {
    if cpu {
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

/// The browser's adapter, or why it has none to offer — in words clearer than wgpu's.
async fn probe_adapter() -> Result<AdapterInfo, String> {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or_default();
    let gpu = Reflect::get(&navigator, &"gpu".into()).unwrap_or_default();
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

/// The status as the page receives it.
pub fn status_message(status: &ComputeStatus) -> protocol::Status {
    protocol::Status {
        backend: status.backend.id().to_string(),
        backend_label: status.backend.to_string(),
        fallback_reason: status.fallback_reason.clone(),
        adapter: status.adapter.as_ref().map(|a| protocol::Adapter {
            description: a.description.clone(),
            max_buffer_size: a.max_buffer_size,
            max_storage_binding: a.max_storage_binding,
        }),
        check: status.check.as_ref().map_err(Clone::clone).map(|summary| {
            let v = &summary.verification;
            protocol::Check {
                passed: v.passed(),
                shape: format!(
                    "softmax(A·B), {}×{} · {}×{}",
                    summary.input.m, summary.input.k, summary.input.k, summary.input.n
                ),
                cpu_max_abs_diff: v.cpu_max_abs_diff,
                reference_max_abs_diff: v.reference_max_abs_diff,
                tolerance: check::TOLERANCE,
                values: v.values.clone(),
                millis: summary.millis,
            }
        }),
    }
}
