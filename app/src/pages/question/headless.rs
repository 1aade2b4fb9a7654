//! The server's twin of `browser.rs`: a rendered page has no window to listen on.

use super::attachments::Attachments;
use crate::draft::Draft;
use hark_core::model::Question;
use leptos::prelude::*;

pub fn listen(
    _question: &Question,
    _current: Memo<Question>,
    _draft: RwSignal<Draft>,
    _form: NodeRef<leptos::html::Form>,
    _attachments: Attachments,
    _ready_to_send: impl Fn() -> bool + 'static,
) {
}
