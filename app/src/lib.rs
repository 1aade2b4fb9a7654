//! Hark's app crate: the Leptos UI that the server renders and the browser hydrates. It reads
//! the model of `hark-core` and reaches the store through server functions.

// The view tree's types nest deeper than the default limit allows.
#![recursion_limit = "256"]

pub mod attention;
pub mod components;
pub mod i18n;
#[cfg(feature = "ssr")]
pub mod json_yaml;
pub mod live;
pub mod pages;
pub mod prefs;
#[cfg(feature = "ssr")]
pub mod preload;
#[cfg(feature = "ssr")]
pub mod render;
#[cfg(feature = "ssr")]
pub mod services;
pub mod words;

use i18n::tr;
use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{Lazy, LazyRoute, SsrMode, lazy_route, path};

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    // The theme is on `<html>` from the first byte, so no wrong theme ever paints.
    #[cfg(feature = "ssr")]
    let (lang, theme) = prefs::request::requested();
    #[cfg(not(feature = "ssr"))]
    let (lang, theme) = (i18n::Lang::En, prefs::Theme::System);
    view! {
        <!DOCTYPE html>
        <html lang=lang.code() data-theme=theme.code()>
            <head>
                <meta charset="utf-8" />
                // The on-screen keyboard shrinks the page rather than covering it, so the
                // sticky send button stays in sight.
                <meta
                    name="viewport"
                    content="width=device-width, initial-scale=1, viewport-fit=cover, interactive-widget=resizes-content"
                />
                <meta name="color-scheme" content=theme.color_scheme() />
                <meta name="theme-color" content="#0b57d0" />
                {stylesheet()}
                <link rel="icon" href="/favicon.ico" sizes="32x32" />
                <link rel="icon" href="/icon.svg" type="image/svg+xml" />
                <link rel="apple-touch-icon" href="/icon-192.png" />
                // With credentials: a paired phone's cookie must go along, or the manifest is
                // refused.
                <link
                    rel="manifest"
                    href="/manifest.webmanifest"
                    crossorigin="use-credentials"
                />
                <HydrationScripts options />
                // After the main module's preloads: on a slow link, what the page needs first
                // is asked for first.
                {server_head(lang)}
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The stylesheet, written into every page by the server that embeds the built site: the first
/// paint then waits for no second request, which on a slow phone link shares the line with the
/// WebAssembly. 3 KiB compressed, so carrying it on every page costs little.
#[derive(Clone, Debug)]
pub struct PageStyle(pub std::sync::Arc<str>);

/// The page's stylesheet, inline when the server provides it, else linked.
fn stylesheet() -> AnyView {
    match use_context::<PageStyle>() {
        // The site's own file, built with the binary; never anything from a request.
        Some(PageStyle(css)) => view! { <style inner_html=css.to_string()></style> }.into_any(),
        None => view! { <link rel="stylesheet" href="/pkg/hark.css" /> }.into_any(),
    }
}

/// What only the server writes into `<head>` (the browser never renders it): the catalogue
/// the page is shown in, and the modules to fetch ahead.
#[cfg_attr(not(feature = "ssr"), allow(unused_variables))]
fn server_head(lang: i18n::Lang) -> impl IntoView {
    #[cfg(feature = "ssr")]
    return view! {
        <i18n::page_catalogues::DataBlock lang />
        <preload::Preloads />
    };
}

/// The page's CSP: scripts only from this server or carrying this response's nonce, so the
/// hydration script runs and nothing injected does.
#[cfg(feature = "ssr")]
fn set_content_security_policy() {
    use axum::http::{HeaderValue, header};
    let Some(nonce) = leptos::nonce::use_nonce() else {
        return;
    };
    let policy = format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    );
    if let (Some(response), Ok(value)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        HeaderValue::from_str(&policy),
    ) {
        response.insert_header(header::CONTENT_SECURITY_POLICY, value);
    }
}

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
