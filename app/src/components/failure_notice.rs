//! How a page words a `Failure` (in the person's language) and shows a failed load
//! (`FailureNotice`).

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

/// A failed load, explained where its content would have been.
#[component]
pub fn FailureNotice(failure: Failure) -> impl IntoView {
    view! {
        <p class="banner failure" role="alert" data-testid="load-failed">
            {move || failure.text()}
        </p>
    }
}
