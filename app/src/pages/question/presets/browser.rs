//! Putting a quick reply into a text box, as typing would.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub fn on_key(event: &leptos::ev::KeyboardEvent) -> bool {
    if !event.alt_key() || event.ctrl_key() || event.meta_key() {
        return false;
    }
    // The key's position, not its character: Alt+1 types "¡" on a Mac.
    let Some(number) = event
        .code()
        .strip_prefix("Digit")
        .and_then(|digit| digit.parse::<usize>().ok())
        .filter(|number| (1..=9).contains(number))
    else {
        return false;
    };
    let Some(text_box) = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return false;
    };
    let Some(text) = super::current().into_iter().nth(number - 1) else {
        return false;
    };
    event.prevent_default();
    insert(&text_box, &text, false);
    true
}

pub fn insert_into(target: &str, text: &str, caret_to_end: bool) {
    if let Some(text_box) = document()
        .get_element_by_id(target)
        .and_then(|element| element.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        insert(&text_box, text, caret_to_end);
    }
}

/// Inserts `text` at the caret (at the end when the box did not have the focus), a space
/// apart from a word before it, and tells the page through an `input` event as typing would.
fn insert(text_box: &web_sys::HtmlTextAreaElement, text: &str, caret_to_end: bool) {
    let value = text_box.value();
    let focused = document()
        .active_element()
        .is_some_and(|active| active == ***text_box);
    if caret_to_end || !focused {
        let end = value.encode_utf16().count() as u32;
        let _ = text_box.set_selection_range(end, end);
    }
    let _ = text_box.focus();
    let start = text_box.selection_start().ok().flatten().unwrap_or(0) as usize;
    let preceding: Vec<u16> = value.encode_utf16().take(start).collect();
    let preceding = String::from_utf16_lossy(&preceding);
    let spaced = if preceding.chars().last().is_some_and(|c| !c.is_whitespace()) {
        format!(" {text}")
    } else {
        text.to_string()
    };
    let _ = text_box.set_range_text_with_start_and_end_and_mode(
        &spaced,
        start as u32,
        text_box
            .selection_end()
            .ok()
            .flatten()
            .unwrap_or(start as u32),
        "end",
    );
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(input) = web_sys::Event::new_with_event_init_dict("input", &init) {
        let _ = text_box.dispatch_event(&input);
    }
}
