//! Quick replies on a question page (SPEC §13): the texts of config `presets` as buttons under
//! each text box; a tap, or Alt+1…9 in any text box, inserts one where the caret is. They need
//! JavaScript, so the server renders none.

use crate::i18n::tr;
use crate::live::Live;
use leptos::prelude::*;

/// A quick reply's text on its button, cut to a glance.
const SHOWN_CHARS: usize = 40;

/// The quick replies as the live config has them (none before the page is live).
pub fn current() -> Vec<String> {
    use_context::<Live>()
        .and_then(|live| {
            live.config
                .with(|config| config.as_ref().map(|config| config.presets.clone()))
        })
        .unwrap_or_default()
}

fn shown(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > SHOWN_CHARS || line.len() < text.len() {
        let cut: String = line.chars().take(SHOWN_CHARS).collect();
        format!("{}…", cut.trim_end())
    } else {
        line.to_string()
    }
}

/// The quick-reply buttons for the text box `text_id`.
#[component]
pub fn PresetButtons(text_id: String) -> impl IntoView {
    move || {
        let presets = current();
        (!presets.is_empty()).then(|| {
            let buttons = presets
                .into_iter()
                .enumerate()
                .map(|(index, text)| {
                    let target = text_id.clone();
                    let label = shown(&text);
                    let shortcut = (index < 9).then(|| format!("Alt+{}", index + 1));
                    view! {
                        <button
                            type="button"
                            class="preset"
                            title=text.clone()
                            aria-keyshortcuts=shortcut
                            data-testid="preset"
                            on:click=move |_| insert_into(&target, &text, true)
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view();
            view! {
                <div class="presets" role="group" aria-label=tr("presets-label")>
                    {buttons}
                </div>
            }
        })
    }
}

/// Alt+1…9 in a text box inserts that quick reply; says whether the key was one.
pub fn on_key(event: &leptos::ev::KeyboardEvent) -> bool {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
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
        let Some(text) = current().into_iter().nth(number - 1) else {
            return false;
        };
        event.prevent_default();
        insert(&text_box, &text, false);
        true
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = event;
        false
    }
}

/// Inserts `text` into the text box with id `target`.
fn insert_into(target: &str, text: &str, caret_to_end: bool) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(text_box) = document()
            .get_element_by_id(target)
            .and_then(|element| element.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        {
            insert(&text_box, text, caret_to_end);
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (target, text, caret_to_end);
}

/// Inserts `text` at the caret (at the end when the box did not have the focus), a space
/// apart from a word before it, and tells the page through an `input` event as typing would.
#[cfg(feature = "hydrate")]
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
