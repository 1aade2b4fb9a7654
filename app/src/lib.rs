//! Hark's app crate: the Leptos UI that the server renders and the browser hydrates. It reads
//! the model of `hark-core` and reaches the store through server functions.

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
pub mod components;
pub mod draft;
pub mod failure;
pub mod i18n;
pub mod json;
pub mod live;
pub mod pages;
pub mod prefs;
#[cfg(feature = "ssr")]
pub mod server;
pub mod words;

use i18n::tr;
use leptos::prelude::*;
use leptos_meta::{Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{Lazy, LazyRoute, SsrMode, lazy_route, path};

/// The whole UI: header, inbox and question pages, fed live over the WebSocket once hydrated.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    prefs::Prefs::provide();
    let live = live::Live::provide();
    live::connect(live, attention::on_event);
    attention::flash_title(live);
    // On the server the title is fixed now, while this request's language is the current one:
    // leptos_meta reads it after the page has rendered, possibly on another worker thread,
    // where the language signal may resolve in another request's arena (1 load in 7 came out
    // in another language). In the browser it follows a language switch.
    #[cfg(feature = "ssr")]
    let title = {
        let text = i18n::t("app-title");
        move || text.clone()
    };
    #[cfg(not(feature = "ssr"))]
    let title = move || i18n::t("app-title");
    view! {
        <Title text=title />
        <Router>
            <a class="skip-link" href="#main">{tr("skip-to-content")}</a>
            <components::header::Header />
            <main id="main">
                <Routes fallback=pages::not_found::NotFound>
                    // Async: the page arrives complete, so it reads and answers without JavaScript.
                    <Route path=path!("/") view=pages::home::HomePage ssr=SsrMode::Async />
                    // The question and settings pages load their code when first opened: the
                    // inbox's first view does not carry it.
                    <Route
                        path=path!("/q/:id")
                        view={Lazy::<QuestionRoute>::new()}
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/settings")
                        view={Lazy::<SettingsRoute>::new()}
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/agents")
                        view={Lazy::<AgentsRoute>::new()}
                        ssr=SsrMode::Async
                    />
                    <Route
                        path=path!("/question/:id")
                        view={Lazy::<QuestionRoute>::new()}
                        ssr=SsrMode::Async
                    />
                </Routes>
            </main>
        </Router>
    }
    // Erased: hydrating asynchronously (for the lazy routes) nests the whole page's type
    // deeper than the compiler follows.
    .into_any()
}

/// `/q/:id`, split from the first view's WebAssembly.
struct QuestionRoute;

#[lazy_route]
impl LazyRoute for QuestionRoute {
    fn data() -> Self {
        QuestionRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <pages::question::QuestionPage /> }.into_any()
    }
}

/// `/agents`, split from the first view's WebAssembly.
struct AgentsRoute;

#[lazy_route]
impl LazyRoute for AgentsRoute {
    fn data() -> Self {
        AgentsRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <pages::agents::AgentsPage /> }.into_any()
    }
}

/// `/settings`, split from the first view's WebAssembly.
struct SettingsRoute;

#[lazy_route]
impl LazyRoute for SettingsRoute {
    fn data() -> Self {
        SettingsRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <pages::settings::SettingsPage /> }.into_any()
    }
}
