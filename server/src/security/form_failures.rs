//! A plain HTML form post (no JavaScript yet, or none at all) that a server function could not
//! read gets a page in the person's language with a way back, instead of leptos' silent
//! redirect to `/`. Failures the functions decide themselves already lead back to their page
//! with the explanation (the page's own `refuse`) and pass untouched.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;

/// Where the server functions live (their `prefix`).
const SERVER_FUNCTIONS: &str = "/fn/";

/// The middleware.
pub async fn form_failures(request: Request, next: Next) -> Response {
    let plain_form = request.uri().path().starts_with(SERVER_FUNCTIONS)
        && hark_text::request::wants_html(request.headers());
    if !plain_form {
        return next.run(request).await;
    }
    let lang = hark_text::request::lang_of(request.headers());
    let response = next.run(request).await;
    if response.status() != StatusCode::BAD_REQUEST {
        return response;
    }
    crate::security::plain_page::respond(
        StatusCode::BAD_REQUEST,
        lang,
        "bad-request-title",
        &["error-bad-request"],
        Some(("/", "question-back")),
    )
}
