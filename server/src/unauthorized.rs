//! The answer to a peer that may not in: for a browser, a short page in the person's language
//! saying how to pair; for a tool, the JSON error naming the token. Also the redirect that
//! pairs a browser from the QR code's URL.

use crate::access::{Refusal, pairing_cookie};
use crate::error::ApiError;
use app::i18n::{Lang, t_in};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use hark_core::model::ErrorBody;

/// The page's own policy: no scripts at all, its one inline style allowed.
const PAGE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; \
                        form-action 'none'; frame-ancestors 'none'";

/// Refuses a request, shaped for whoever asked.
pub fn refuse(headers: &HeaderMap, refusal: &Refusal) -> Response {
    let (status, retry_after) = match refusal {
        Refusal::TooManyFailures { retry_after_secs } => {
            (StatusCode::TOO_MANY_REQUESTS, Some(*retry_after_secs))
        }
        Refusal::NoToken | Refusal::WrongToken => (StatusCode::UNAUTHORIZED, None),
    };
    let mut response = if app::request::wants_html(headers) {
        let mut page = (
            status,
            Html(page(app::request::from_header_map(headers).0, refusal)),
        )
            .into_response();
        page.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(PAGE_CSP),
        );
        page
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

fn page(lang: Lang, refusal: &Refusal) -> String {
    let text = |key: &str| escape(&t_in(lang, key, &[]));
    let body = match refusal {
        Refusal::TooManyFailures { .. } => text("unauthorized-too-many"),
        Refusal::WrongToken => text("unauthorized-wrong"),
        Refusal::NoToken => text("unauthorized-body"),
    };
    format!(
        "<!DOCTYPE html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>{title}</title>\
         <style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;\
         padding:0 1rem;line-height:1.5}}</style></head><body><h1>{title}</h1><p>{body}</p>\
         <p>{how}</p></body></html>",
        code = lang.code(),
        title = text("unauthorized-title"),
        how = text("unauthorized-how"),
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
