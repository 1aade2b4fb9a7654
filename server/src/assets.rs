//! The site cargo-leptos builds (wasm, js, css, icons), embedded in the binary with its
//! precompressed `.br`/`.gz` twins, so the binary works from any directory; and what pages take
//! from it as they render (the inline stylesheet, the lazy routes' modules to preload).

use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

/// `target/site` at build time. Missing on a fresh clone before the first site build, which is
/// fine for tests that need no assets.
#[derive(RustEmbed)]
#[folder = "../target/site"]
#[allow_missing = true]
struct Site;

/// Each lazy route's `.wasm` files and their loader, from what `cargo leptos build --split`
/// writes, for pages to preload (`app::preload`). Empty before the first site build, or when the
/// site was built without splitting.
fn split_modules() -> app::preload::SplitModules {
    /// The loader's name, fixed while the site's file names carry no hashes (Leptos' default).
    const LOADER: &str = "pkg/__wasm_split.______________________.js";
    static MODULES: std::sync::LazyLock<app::preload::SplitModules> =
        std::sync::LazyLock::new(|| {
            let read = || -> Option<Vec<(String, Vec<String>)>> {
                let file = Site::get("pkg/__wasm_split_manifest.json")?;
                let manifest: std::collections::BTreeMap<String, Vec<String>> =
                    serde_json::from_slice(&file.data).ok()?;
                Some(manifest.into_iter().collect())
            };
            app::preload::SplitModules {
                routes: std::sync::Arc::new(read().unwrap_or_default()),
                loader: Site::get(LOADER).map(|_| format!("/{LOADER}")),
            }
        });
    MODULES.clone()
}

/// The built stylesheet, for pages to carry inline. `None` before the first site build.
fn page_style() -> Option<app::PageStyle> {
    static STYLE: std::sync::LazyLock<Option<app::PageStyle>> = std::sync::LazyLock::new(|| {
        let file = Site::get("pkg/hark.css")?;
        let css = String::from_utf8(file.data.into_owned()).ok()?;
        Some(app::PageStyle(css.into()))
    });
    STYLE.clone()
}

/// Provides what every page render needs beside the app's own contexts.
pub fn provide_page_context() {
    leptos::prelude::provide_context(split_modules());
    if let Some(style) = page_style() {
        leptos::prelude::provide_context(style);
    }
}

/// Where the not-found page is rendered: no page of the app lives there.
const NOT_FOUND: &str = "/not-found";

/// Serves an embedded file, or renders the app's not-found page.
pub async fn serve(State(state): State<AppState>, mut request: Request) -> Response {
    let path = request.uri().path().trim_start_matches('/').to_string();
    if let Some(response) = embedded(&path, request.headers()) {
        return response;
    }
    // Rendered at a fixed address, never the one asked for: the router reads addresses its own
    // way (`/x/../` is `/` to it), and a page must not render here by another name.
    *request.uri_mut() = axum::http::Uri::from_static(NOT_FOUND);
    let options = state.leptos_options.clone();
    let store = state.store.clone();
    let render = leptos_axum::render_app_to_stream_with_context(
        move || {
            leptos::prelude::provide_context(store.clone());
            provide_page_context();
        },
        move || app::shell(options.clone()),
    );
    let mut response = render(request).await.into_response();
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

fn accepts(headers: &HeaderMap, encoding: &str) -> bool {
    headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value.split(',').any(|item| {
                item.split(';')
                    .next()
                    .is_some_and(|name| name.trim() == encoding)
            })
        })
}

fn embedded(path: &str, headers: &HeaderMap) -> Option<Response> {
    if path.is_empty() || path.ends_with(".br") || path.ends_with(".gz") {
        return None;
    }
    let original = Site::get(path)?;
    let (file, encoding) = [("br", ".br"), ("gzip", ".gz")]
        .into_iter()
        .filter(|(name, _)| accepts(headers, name))
        .find_map(|(name, suffix)| {
            Site::get(&format!("{path}{suffix}")).map(|file| (file, Some(name)))
        })
        .unwrap_or((original, None));
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|value| value.as_bytes() == etag.as_bytes())
    {
        return Some(StatusCode::NOT_MODIFIED.into_response());
    }
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut response = Response::new(Body::from(file.data.into_owned()));
    let response_headers = response.headers_mut();
    response_headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(mime.as_ref()).ok()?,
    );
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response_headers.insert(header::ETAG, HeaderValue::from_str(&etag).ok()?);
    response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(encoding) = encoding {
        response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    Some(response)
}
