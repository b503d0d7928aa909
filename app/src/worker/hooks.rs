//! What the worker's check hooks (`gatepath*` on the worker's global scope; the page
//! forwards `window.gatepath*` calls from the browser tests and benchmarks) share:
//! reading JS arguments, the clock and the wasm memory size.

use engine::model::Precision;
use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

use crate::compute;

/// A JS array of strings.
pub fn strings(value: &JsValue) -> Result<Vec<String>, JsValue> {
    if !Array::is_array(value) {
        return Err(JsValue::from_str("expected an array of strings"));
    }
    Array::from(value)
        .iter()
        .map(|v| {
            v.as_string()
                .ok_or_else(|| JsValue::from_str("expected an array of strings"))
        })
        .collect()
}

/// `options[key]` as a string, if the options object has one.
pub fn option_string(options: &JsValue, key: &str) -> Option<String> {
    Reflect::get(options, &key.into())
        .ok()
        .and_then(|v| v.as_string())
}

/// Milliseconds on this scope's monotonic clock (`performance.now()`).
pub fn now_ms() -> f64 {
    let performance = Reflect::get(&js_sys::global(), &"performance".into()).unwrap_or_default();
    Reflect::get(&performance, &"now".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&performance).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

/// The size of the module's linear memory; it only grows, so this is its peak so far.
pub fn wasm_memory_bytes() -> JsValue {
    Reflect::get(&wasm_bindgen::memory(), &"buffer".into())
        .and_then(|b| Reflect::get(&b, &"byteLength".into()))
        .unwrap_or(JsValue::UNDEFINED)
}

/// `options.precision` (`"f32"` or `"q8"`); by default the one the page's backend runs
/// best.
pub fn precision(options: &JsValue) -> Result<Precision, JsValue> {
    match option_string(options, "precision").as_deref() {
        Some("f32") => Ok(Precision::F32),
        Some("q8") => Ok(Precision::Q8Block32),
        Some(other) => Err(JsValue::from_str(&format!(
            "unknown precision `{other}` (f32 or q8)"
        ))),
        None => Ok(compute::active()
            .map(|c| Precision::for_backend(c.backend()))
            .unwrap_or_default()),
    }
}
