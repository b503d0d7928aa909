//! gatepath in the browser: a Leptos client-side app. The page owns the UI; compute
//! runs through the engine on WebGPU when the browser has it and on the CPU otherwise.

mod compute;
mod embedder_check;
mod hooks;
mod llm_check;
mod models;
mod view;

fn main() {
    // A panic in wasm would otherwise only say "unreachable"; this logs the message to
    // the console (the browser tests fail on any console error).
    console_error_panic_hook::set_once();
    embedder_check::install();
    llm_check::install();
    leptos::mount::mount_to_body(view::App);
}
