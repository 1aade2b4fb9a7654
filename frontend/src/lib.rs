//! The browser entry point: makes the page's shared state (preferences, the live stream) on the
//! root Leptos' islands hydrate under, and lets the page go live once the islands loader
//! (`app/src/server/island_script.js`) says every island has hydrated.

/// How long the page waits for a lazy island's code before it goes live anyway.
const HYDRATION_PATIENCE_MS: u32 = 15_000;

/// Called by the islands loader once the wasm has loaded, before it hydrates the islands.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Every word on the page is looked up in these.
    app::i18n::page_catalogues::install_carried();
    leptos::mount::hydrate_islands();
    // Before any island: an `ActionForm` sets a hook of its own that reloads the page.
    let _ = leptos::server_fn::redirect::set_redirect_hook(app::nav::follow_redirect);
    app::prefs::Prefs::provide();
    let live = app::live::Live::provide();
    app::live::connect(live, app::attention::on_event);
    app::attention::flash_title(live);
    // A lazy island's code that never arrives (a phone losing its network) must not keep the
    // rest of the page from going live: the connection dot then says how things are.
    wasm_bindgen_futures::spawn_local(async {
        gloo_timers::future::TimeoutFuture::new(HYDRATION_PATIENCE_MS).await;
        app::live::hydration_finished();
    });
}

/// Called by the islands loader once every island on the page has hydrated.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = islandsHydrated)]
pub fn islands_hydrated() {
    app::live::hydration_finished();
}

/// A message in the page's language, formatted as the page formats it (`harkWords(key, args)`
/// in the browser; `args` maps each variable to a number or a text). For the browser test that
/// holds the page's words to Fluent's (`end2end/tests/words.spec.ts`), and for a person
/// checking a translation from the console.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = harkWords)]
pub fn words(key: &str, args: &js_sys::Object) -> String {
    let entries: Vec<(String, app::i18n::Arg<'static>)> = js_sys::Object::entries(args)
        .iter()
        .filter_map(|entry| {
            let entry = js_sys::Array::from(&entry);
            let name = entry.get(0).as_string()?;
            let value = entry.get(1);
            let arg = match value.as_f64() {
                Some(number) => app::i18n::Arg::Number(number as i64),
                None => app::i18n::Arg::Text(value.as_string()?.into()),
            };
            Some((name, arg))
        })
        .collect();
    let args: Vec<(&str, app::i18n::Arg<'_>)> = entries
        .iter()
        .map(|(name, arg)| (name.as_str(), arg.clone()))
        .collect();
    app::i18n::t_args(key, &args)
}
