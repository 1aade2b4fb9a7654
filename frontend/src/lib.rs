//! The browser entry point: hydrates the page the server rendered.

/// Called by the hydration script once the wasm has loaded.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
