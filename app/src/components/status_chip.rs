//! A question's status as a small coloured chip: as a view, and as HTML text for the lists
//! that templates write (`pages::home::lists`).

use crate::i18n::t;
use hark_core::model::Status;
use hark_text::question::status_key;
use leptos::prelude::*;

/// The chip's classes: its colour follows the status.
fn chip_class(status: Status) -> String {
    format!("chip status-{}", status.as_str())
}

/// The chip.
#[component]
pub fn StatusChip(status: Status) -> impl IntoView {
    view! { <span class=chip_class(status)>{move || t(status_key(status))}</span> }
}

/// The chip as HTML text.
pub fn status_chip_markup(status: Status) -> maud::Markup {
    maud::html! { span class=(chip_class(status)) { (t(status_key(status))) } }
}
