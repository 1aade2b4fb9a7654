//! Keyboard answering on a question page: 1–9 pick options of the focused sub-question, Enter
//! sends (Ctrl/Cmd+Enter from a text box), Esc goes back to the inbox.

use crate::draft::Draft;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Handles one key press on a question page (listened for on the whole window). `shape` holds, per sub-question, whether it
/// takes several options and its option labels.
pub fn handle(
    event: &leptos::ev::KeyboardEvent,
    shape: &[(bool, Vec<String>)],
    draft: RwSignal<Draft>,
    form: NodeRef<leptos::html::Form>,
    ready_to_send: &impl Fn() -> bool,
) {
    let target = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok());
    let tag = target
        .as_ref()
        .map(|element| element.tag_name())
        .unwrap_or_default();
    if event.default_prevented() {
        return;
    }
    let typing = tag == "TEXTAREA"
        || tag == "SELECT"
        || (tag == "INPUT"
            && target
                .as_ref()
                .and_then(|element| element.get_attribute("type"))
                .is_none_or(|kind| kind == "text"));
    let modified = event.ctrl_key() || event.meta_key() || event.alt_key();
    let key = event.key();
    match key.as_str() {
        "Escape" => {
            event.prevent_default();
            crate::nav::go("/");
        }
        "Enter" if typing && (event.ctrl_key() || event.meta_key()) => {
            submit(form, event, ready_to_send)
        }
        "Enter" if !typing && !matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY") => {
            submit(form, event, ready_to_send)
        }
        digit if !typing && !modified && digit.len() == 1 => {
            let Some(number) = digit.chars().next().and_then(|c| c.to_digit(10)) else {
                return;
            };
            if number == 0 {
                return;
            }
            let question = target
                .and_then(|element| element.closest("fieldset.sub-question").ok().flatten())
                .and_then(|fieldset| fieldset.get_attribute("data-index"))
                .and_then(|index| index.parse::<usize>().ok())
                .unwrap_or(0);
            let Some((multi, labels)) = shape.get(question) else {
                return;
            };
            if let Some(label) = labels.get(number as usize - 1) {
                event.prevent_default();
                draft.update(|draft| draft.toggle(question, label, *multi));
                // Focus follows the pick, so Tab continues from there.
                let id = format!("q{question}-o{}", number - 1);
                if let Some(input) = document()
                    .get_element_by_id(&id)
                    .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = input.focus();
                }
            }
        }
        _ => {}
    }
}

fn submit(
    form: NodeRef<leptos::html::Form>,
    event: &leptos::ev::KeyboardEvent,
    ready_to_send: &impl Fn() -> bool,
) {
    event.prevent_default();
    if !ready_to_send() {
        return;
    }
    if let Some(form) = form.get_untracked() {
        let _ = form.request_submit();
    }
}
