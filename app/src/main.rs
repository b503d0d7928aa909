//! gatepath in the browser: a Leptos client-side app. The page owns the UI and never
//! runs a model; the worker (`src/worker/`) owns the compute backend, the models and
//! the engine.

mod ask;
mod client;
mod explain;
mod graph;
mod manage;
mod progress;
mod results;
mod save;
mod strategy;
mod view;

fn main() {
    // A panic in wasm would otherwise only say "unreachable"; this logs the message to
    // the console (the browser tests fail on any console error).
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(view::App);
}
