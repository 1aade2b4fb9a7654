//! How a page words a `Failure` (in the person's language) and shows a failed load
//! (`FailureNotice`, and `problems` as an `ErrorBoundary` fallback).

use crate::failure::Failure;
use crate::i18n::t;
use leptos::prelude::*;

impl Failure {
    /// The explanation, in the current language.
    pub fn text(&self) -> String {
        match self {
            Failure::ChannelTest { error } => crate::i18n::t_args(
                "elsewhere-test-failed",
                &[("reason", error.reason().to_string().into())],
            ),
            Failure::ChannelRefused { refusal, .. } => crate::i18n::t_args(
                "elsewhere-action-failed",
                &[("reason", refusal.body.error.clone().into())],
            ),
            _ => t(self.message_key()),
        }
    }
}

/// The explanation of any error a page caught: a `Failure` says what it is, anything else
/// reads as "could not reach Hark".
pub fn error_text(error: &leptos::error::Error) -> String {
    error
        .downcast_ref::<Failure>()
        .map_or_else(|| t("error-unavailable"), Failure::text)
}

/// A failed load, explained where its content would have been.
#[component]
pub fn FailureNotice(failure: Failure) -> impl IntoView {
    view! {
        <p class="banner failure" role="alert" data-testid="load-failed">
            {move || failure.text()}
        </p>
    }
}

/// An `ErrorBoundary` fallback: every error of the part that failed, explained.
pub fn problems(errors: ArcRwSignal<leptos::error::Errors>) -> impl IntoView {
    view! {
        <div class="banner failure" role="alert" data-testid="load-failed">
            {move || {
                errors
                    .get()
                    .into_iter()
                    .map(|(_, error)| view! { <p>{error_text(&error)}</p> })
                    .collect_view()
            }}
        </div>
    }
}
