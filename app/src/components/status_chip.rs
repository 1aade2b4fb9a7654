//! A question's status as a small coloured chip.

use crate::i18n::t;
use hark_core::model::Status;
use leptos::prelude::*;

/// The Fluent key naming `status`.
pub fn status_key(status: Status) -> &'static str {
    match status {
        Status::Pending => "status-pending",
        Status::Answered => "status-answered",
        Status::Declined => "status-declined",
        Status::Timeout => "status-timeout",
        Status::Cancelled => "status-cancelled",
    }
}

/// The chip.
#[component]
pub fn StatusChip(status: Status) -> impl IntoView {
    view! { <span class=format!("chip status-{}", status.as_str())>{move || t(status_key(status))}</span> }
}
