//! The site cargo-leptos builds (wasm, js, css, icons), embedded in the binary with its
//! precompressed `.br`/`.gz` twins, so the binary works from any directory. What pages take
//! from it as they render is `page`'s.

use crate::http::state::AppState;
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

/// The embedded file at `path` (as the site names it), for what pages take from the site.
pub fn file(path: &str) -> Option<rust_embed::EmbeddedFile> {
    Site::get(path)
}

/// Serves an embedded file, or renders the app's not-found page.
pub async fn serve(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path().trim_start_matches('/').to_string();
    if let Some(response) = embedded(&path, request.headers()) {
        return response;
    }
    crate::page::not_found(state, request).await
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
