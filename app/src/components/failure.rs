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

/// What a store refusal means to the person (the Fluent key that explains it) and to a script
/// (the HTTP status); the store itself knows neither.
#[cfg(feature = "ssr")]
pub fn store_refusal(
    error: &hark_core::store::StoreError,
) -> (axum::http::StatusCode, ServerFnError) {
    use axum::http::StatusCode;
    use hark_core::store::StoreError;
    let (status, key) = match error {
        StoreError::Invalid(_) => (StatusCode::BAD_REQUEST, "error-invalid-answer"),
        StoreError::NotFound(_) => (StatusCode::NOT_FOUND, "error-not-found"),
        StoreError::NotPending { .. } => (StatusCode::CONFLICT, "error-not-pending"),
        StoreError::TooManyPending => (StatusCode::TOO_MANY_REQUESTS, "error-too-many"),
        StoreError::ShuttingDown | StoreError::Storage(_) => {
            (StatusCode::SERVICE_UNAVAILABLE, "error-unavailable")
        }
        StoreError::Save(_) => (StatusCode::INTERNAL_SERVER_ERROR, "settings-save-failed"),
    };
    // The key first, for `failure_text`; the details (naming the field) for anyone reading the
    // raw response.
    (status, ServerFnError::new(format!("{key}: {error}")))
}

/// Refuses a server function call. A script gets `error` with `status`. A plain HTML form post
/// (no JavaScript) is sent back to `page`, the form's own page, with the error in its address,
/// where the page explains it: under `Referrer-Policy: no-referrer` leptos cannot find the page
/// by itself, and a status set here would turn its redirect into a dead end.
#[cfg(feature = "ssr")]
pub fn refuse<F: leptos::server_fn::ServerFn>(
    status: axum::http::StatusCode,
    page: &str,
    error: ServerFnError,
) -> ServerFnError {
    use leptos::server_fn::error::ServerFnUrlError;
    let plain_form_post =
        use_context::<axum::http::request::Parts>().is_some_and(|parts| wants_html(&parts.headers));
    if plain_form_post {
        // Parsed against a placeholder origin only to build the path and query.
        let back =
            ServerFnUrlError::new(F::PATH, error.clone()).to_url(&format!("http://hark{page}"));
        if let Ok(back) = back {
            leptos_axum::redirect(&format!(
                "{}?{}",
                back.path(),
                back.query().unwrap_or_default()
            ));
        }
    } else if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(status);
    }
    error
}

/// Whether the request came from a browser navigating (a page, a plain form post) rather than
/// from a script or a tool: it accepts HTML.
#[cfg(feature = "ssr")]
pub fn wants_html(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}
