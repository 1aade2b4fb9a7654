//! The browser entry point: hydrates the page the server rendered, waiting for the lazily
//! loaded routes' code, and then lets the page go live.

/// Called by the hydration script once the wasm has loaded.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    let Some(body) = leptos::prelude::document().body() else {
        return;
    };
    // What `leptos::mount::hydrate_lazy` does, plus the signal that hydration is over.
    wasm_bindgen_futures::spawn_local(async move {
        let root = leptos::mount::hydrate_from_async(body, app::App).await;
        // The page lives as long as the tab.
        root.forget();
        app::live::hydration_finished();
    });
}
