//! The site `cargo xtask build` builds (wasm, js, css, icons), embedded in the binary with its
//! precompressed `.br`/`.gz` twins, so the binary works from any directory. What pages take
//! from it as they render is `page`'s; a path that is not a file is the page's too (`page`
//! serves the not-found page).

use axum::body::Body;
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

/// The embedded file at the request's `path` as a response, when the site has one.
pub fn served(path: &str, headers: &HeaderMap) -> Option<Response> {
    embedded(path.trim_start_matches('/'), headers)
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
