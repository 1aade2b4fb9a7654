//! The page for an address the app does not know.

use crate::i18n::tr;
use leptos::prelude::*;

/// 404.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    view! {
        <section class="panel">
            <h1>{tr("not-found-title")}</h1>
            <p>{tr("not-found-body")}</p>
            <a href="/">{tr("question-back")}</a>
        </section>
    }
}
