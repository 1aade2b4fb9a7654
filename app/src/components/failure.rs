//! A failed server function, explained in the person's language.

use crate::i18n::{has_message, t};
use leptos::prelude::*;

/// Server functions fail with `<Fluent key>: <details>`; the key is explained, the details (in
/// English, for logs and tools) are not shown. Anything else (the daemon down, the network
/// gone) reads as "could not reach Hark".
pub fn failure_text(error: &ServerFnError) -> String {
    let key = match error {
        ServerFnError::ServerError(message) => message.split(": ").next().unwrap_or_default(),
        _ => "",
    };
    if has_message(key) {
        t(key)
    } else {
        t("error-unavailable")
    }
}

/// Sets a failed server function's HTTP status, except for a plain HTML form post: leptos
/// answers that with a redirect back to the form's page carrying the error (which the page then
/// explains), and a status set here would turn the redirect into a dead end.
#[cfg(feature = "ssr")]
pub fn set_failure_status(status: axum::http::StatusCode) {
    use axum::http::header::ACCEPT;
    let plain_form_post = use_context::<axum::http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(ACCEPT)
            .and_then(|accept| accept.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"))
    });
    if !plain_form_post && let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(status);
    }
}
