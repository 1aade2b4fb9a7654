//! SPEC §3's promise that every error is JSON `{error}`, kept for the refusals our handlers do
//! not write themselves: axum's and the router's own (405 with an empty body, plain-text
//! rejections). Pages and server functions answer in their own formats and pass untouched.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use hark_core::model::ErrorBody;

/// The most of a plain-text rejection kept as the sentence.
const MAX_TEXT: usize = 1024;

/// The middleware.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || has_own_format(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_TEXT)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let sentence = if status == StatusCode::METHOD_NOT_ALLOWED {
        let allowed = parts
            .headers
            .get(header::ALLOW)
            .and_then(|value| value.to_str().ok())
            .filter(|allowed| !allowed.is_empty())
            .unwrap_or("another method");
        format!("{method} is not accepted here; use {allowed}")
    } else if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string()
    } else {
        text
    };
    let json = serde_json::to_vec(&ErrorBody::new(sentence)).unwrap_or_default();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(json))
}

/// JSON already, or a page for a person.
fn has_own_format(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value.starts_with("application/json") || value.starts_with("text/html")
        })
}
