//! A question's status as a small coloured chip.

use crate::i18n::t;
use hark_core::model::Status;
use hark_text::question::status_key;
use leptos::prelude::*;

/// The chip.
#[component]
pub fn StatusChip(status: Status) -> impl IntoView {
    view! { <span class=format!("chip status-{}", status.as_str())>{move || t(status_key(status))}</span> }
}
