//! The answer to a peer that may not in: for a browser, a short page in the person's language
//! saying how to pair; for a tool, the JSON error naming the token. Also the redirect that
//! pairs a browser from the QR code's URL.

use crate::http::error::ApiError;
use crate::security::access::{Refusal, pairing_cookie};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hark_core::model::ErrorBody;

/// Refuses a request, shaped for whoever asked.
pub fn refuse(headers: &HeaderMap, refusal: &Refusal) -> Response {
    let (status, retry_after) = match refusal {
        Refusal::TooManyFailures { retry_after_secs } => {
            (StatusCode::TOO_MANY_REQUESTS, Some(*retry_after_secs))
        }
        Refusal::NoToken | Refusal::WrongToken => (StatusCode::UNAUTHORIZED, None),
    };
    let mut response = if hark_text::request::wants_html(headers) {
        let reason = match refusal {
            Refusal::TooManyFailures { .. } => "unauthorized-too-many",
            Refusal::WrongToken => "unauthorized-wrong",
            Refusal::NoToken => "unauthorized-body",
        };
        crate::security::plain_page::respond(
            status,
            hark_text::request::lang_of(headers),
            "unauthorized-title",
            &[reason, "unauthorized-how"],
            None,
        )
    } else {
        let message = match refusal {
            Refusal::NoToken => {
                "this daemon answers other devices only with its token: send \
                 `Authorization: Bearer <token>` (see `hark url` on its machine)"
            }
            Refusal::WrongToken => "the token is wrong, or it was replaced (`hark token --rotate`)",
            Refusal::TooManyFailures { .. } => {
                "too many wrong tokens from this address; wait and try again"
            }
        };
        ApiError::new(status, ErrorBody::field("token", message)).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"hark\""),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // A refused peer gets nothing more from this connection: it must not sit on a place in
    // its budget (`listen`).
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    if let Some(seconds) = retry_after {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// Pairs a browser: keeps the token in its cookie and leads it to `location`, the address it
/// asked for without the token in it.
pub fn pair(token: Option<&str>, location: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let Ok(location) = HeaderValue::from_str(location) {
        headers.insert(header::LOCATION, location);
    }
    if let Some(cookie) = token.and_then(|token| HeaderValue::from_str(&pairing_cookie(token)).ok())
    {
        headers.insert(header::SET_COOKIE, cookie);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
