//! The question page's window listeners: answering by keys, pasting an image into the answer
//! being written, and keeping a file dropped beside the questions from opening in the tab.

mod keys;

use super::attachments::{Attachments, browser as images};
use crate::draft::Draft;
use hark_core::model::Question;
use leptos::prelude::*;

pub fn listen(
    question: &Question,
    current: Memo<Question>,
    draft: RwSignal<Draft>,
    form: NodeRef<leptos::html::Form>,
    attachments: Attachments,
    ready_to_send: impl Fn() -> bool + 'static,
) {
    let shape: Vec<(bool, Vec<String>)> = question
        .questions
        .iter()
        .map(|sub| {
            (
                sub.multi_select,
                sub.options.iter().map(|o| o.label.clone()).collect(),
            )
        })
        .collect();
    let listener = window_event_listener(leptos::ev::keydown, move |event| {
        if super::presets::on_key(&event) {
            return;
        }
        keys::handle(&event, &shape, draft, form, &ready_to_send);
    });
    on_cleanup(move || listener.remove());
    // A pasted image joins the answer being written, or else the first that takes images.
    let takes_images: Vec<usize> = question
        .questions
        .iter()
        .enumerate()
        .filter(|(_, sub)| sub.allow_free_text)
        .map(|(index, _)| index)
        .collect();
    let paste = window_event_listener(leptos::ev::paste, move |event| {
        let files = images::files_of(event.clipboard_data());
        if files.is_empty() || current.with_untracked(|question| !question.is_pending()) {
            return;
        }
        let target = images::answer_index_of(event.target());
        let Some(index) = target
            .filter(|index| takes_images.contains(index))
            .or_else(|| takes_images.first().copied())
        else {
            return;
        };
        event.prevent_default();
        images::attach(attachments, index, files);
    });
    on_cleanup(move || paste.remove());
    // A file dropped beside the questions must not open in the tab, losing the draft.
    let carries_files = |event: &web_sys::DragEvent| {
        event
            .data_transfer()
            .is_some_and(|transfer| transfer.types().includes(&"Files".into(), 0))
    };
    let hold_drag = window_event_listener(leptos::ev::dragover, move |event| {
        if carries_files(&event) {
            event.prevent_default();
        }
    });
    let hold_drop = window_event_listener(leptos::ev::drop, move |event| {
        if carries_files(&event) {
            event.prevent_default();
        }
    });
    on_cleanup(move || {
        hold_drag.remove();
        hold_drop.remove();
    });
}
