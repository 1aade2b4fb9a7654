//! Redrawing Tell boxes in the browser without losing what the person was doing in them.

use leptos::prelude::document;
use leptos::wasm_bindgen::JsCast;

/// What the person was doing in one Tell box.
struct BoxState {
    agent: String,
    open: bool,
    typed: String,
    /// The caret or selection, when the person was typing there.
    typing_at: Option<(u32, u32)>,
}

pub fn redraw_keeping_boxes(root: &web_sys::Element, html: &str) {
    let typing = document().active_element();
    let kept: Vec<BoxState> = (tell_boxes(root).iter())
        .filter_map(|tell| {
            let text = text_field(tell)?;
            let typed_here = typing
                .as_ref()
                .is_some_and(|typing| typing == text.as_ref() as &web_sys::Element);
            let selection = || {
                let start = text.selection_start().ok()??;
                Some((start, text.selection_end().ok()?.unwrap_or(start)))
            };
            Some(BoxState {
                agent: agent_key(tell),
                open: details(tell)?.has_attribute("open"),
                typed: text.value(),
                typing_at: if typed_here { selection() } else { None },
            })
        })
        .collect();
    root.set_inner_html(html);
    for tell in tell_boxes(root) {
        let key = agent_key(&tell);
        let Some(state) = kept.iter().find(|state| state.agent == key) else {
            continue;
        };
        if let (true, Some(details)) = (state.open, details(&tell)) {
            let _ = details.set_attribute("open", "");
        }
        if let Some(text) = text_field(&tell) {
            text.set_value(&state.typed);
            if let Some((start, end)) = state.typing_at {
                let _ = text.focus();
                let _ = text.set_selection_range(start, end);
            }
        }
    }
}

fn tell_boxes(root: &web_sys::Element) -> Vec<web_sys::Element> {
    crate::dom::all(root, ".tell")
}

/// Which agent a Tell box is for: its form's hidden fields.
fn agent_key(tell: &web_sys::Element) -> String {
    let field = |name: &str| {
        (tell
            .query_selector(&format!("input[name={name}]"))
            .ok()
            .flatten())
        .and_then(|input| input.get_attribute("value"))
        .unwrap_or_default()
    };
    format!("{}\n{}", field("client"), field("cwd"))
}

fn details(tell: &web_sys::Element) -> Option<web_sys::Element> {
    tell.query_selector("details").ok().flatten()
}

fn text_field(tell: &web_sys::Element) -> Option<web_sys::HtmlInputElement> {
    tell.query_selector("input[name=text]")
        .ok()??
        .dyn_into()
        .ok()
}
