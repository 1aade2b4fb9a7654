//! The HTML document around the app, which only the server writes: its `<head>` (the inline
//! stylesheet, the page's catalogue, the modules to preload, the event stream opened early) and
//! the page's CSP.

use super::catalogue_block::CatalogueBlock;
use super::early_socket::EarlySocket;
use super::preload::Preloads;
use crate::i18n::Lang;
use leptos::prelude::*;
use leptos_meta::MetaTags;

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    set_content_security_policy();
    // The theme is on `<html>` from the first byte, so no wrong theme ever paints.
    let (lang, theme) = crate::prefs::request::requested();
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
                <super::island_script::IslandScripts options />
                // After the main module's preloads: on a slow link, what the page needs first
                // is asked for first.
                {server_head(lang)}
                <MetaTags />
            </head>
            <body>
                <crate::App />
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
/// the page is shown in, the modules to fetch ahead, and the event stream opened at once.
fn server_head(lang: Lang) -> impl IntoView {
    view! {
        <CatalogueBlock lang />
        <Preloads />
        <EarlySocket />
    }
}

/// The page's CSP: scripts only from this server or carrying this response's nonce, so the
/// hydration script runs and nothing injected does.
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
