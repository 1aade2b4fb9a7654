//! Hark's app crate: the Leptos UI that the server renders and whose islands the browser
//! hydrates. It reads the model of `hark-core` and reaches the store through server functions.

// The view tree's types nest deeper than the default limit allows.
#![recursion_limit = "256"]

// The server renders and the browser hydrates with Leptos' erased views; built without them on
// one side, the two sides' markers differ and hydration fails in the browser.
#[cfg(not(erase_components))]
compile_error!(
    "build with `--cfg erase_components`: .cargo/config.toml sets it for every build, and a \
     RUSTFLAGS in the environment replaces it"
);

pub mod attention;
pub mod carried;
pub mod components;
#[cfg(feature = "hydrate")]
pub mod dom;
pub mod draft;
pub mod failure;
pub mod i18n;
pub mod json;
pub mod live;
pub mod nav;
pub mod pages;
pub mod prefs;
#[cfg(feature = "ssr")]
pub mod server;
pub mod words;

#[cfg(feature = "ssr")]
use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos_meta::{Title, provide_meta_context};
#[cfg(feature = "ssr")]
use leptos_router::components::{Route, Router, Routes};
#[cfg(feature = "ssr")]
use leptos_router::{SsrMode, path};

/// The whole UI as the server renders it: header, inbox, question, agents and settings pages;
/// the browser hydrates only their islands, fed live over the WebSocket (see `frontend`, which
/// makes the islands' `Prefs` and `Live` in the browser). Server only, as the routes are.
#[cfg(feature = "ssr")]
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    prefs::Prefs::provide();
    live::Live::provide();
    // Fixed now, while this request's language is the current one: leptos_meta reads it after
    // the page has rendered, possibly on another worker thread, where the language signal may
    // resolve in another request's arena (1 load in 7 came out in another language). In the
    // browser `prefs` follows a language switch.
    let title = {
        let text = i18n::t("app-title");
        move || text.clone()
    };
    view! {
        <Title text=title />
        <Router>
            <components::header::Header />
            <main id="main">
                <Routes fallback=pages::not_found::NotFound>
                    // Async: the page arrives complete, so it reads and answers without JavaScript.
                    <Route path=path!("/") view=pages::home::HomePage ssr=SsrMode::Async />
                    // Each of these pages holds a lazy island: the inbox's first view does not
                    // carry their code.
                    <Route
                        path=path!("/q/:id")
                        view=pages::question::QuestionPage
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/settings")
                        view=pages::settings::SettingsPage
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/agents")
                        view=pages::agents::AgentsPage
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/question/:id")
                        view=pages::question::QuestionPage
                        ssr=SsrMode::Async
                    />
                </Routes>
            </main>
        </Router>
    }
    // Erased: the whole page's type nests deeper than the compiler follows.
    .into_any()
}
