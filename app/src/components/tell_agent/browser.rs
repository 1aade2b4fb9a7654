//! Redrawing Tell boxes in the browser without losing what the person was doing in them: the
//! box's openness, its words and caret, and a composition with an input method (pinyin, kana),
//! which a redraw would end, so a redraw waits for it.

use leptos::prelude::document;
use leptos::wasm_bindgen::JsCast;
use std::cell::RefCell;

/// What the person was doing in one Tell box.
struct BoxState {
    agent: String,
    open: bool,
    typed: String,
    /// The caret or selection, when the person was typing there.
    typing_at: Option<(u32, u32)>,
}

thread_local! {
    /// The field an input method is composing in now, if any (`watch_compositions`).
    static COMPOSING_IN: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
    /// The redraws put off until that composition ends: each root's latest HTML.
    static PUT_OFF: RefCell<Vec<(web_sys::Element, String)>> = const { RefCell::new(Vec::new()) };
    /// Whether the page listens for compositions yet.
    static WATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Follows input methods' compositions anywhere in the page, once: each island with Tell boxes
/// calls it as it hydrates, so one that began before the first redraw is known.
pub fn watch_compositions() {
    if WATCHING.replace(true) {
        return;
    }
    let on = |name: &str, handler: fn(web_sys::Event)| {
        let handler =
            leptos::wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(handler);
        // Capturing: a field's own handler may stop the event.
        let _ = document().add_event_listener_with_callback_and_bool(
            name,
            handler.as_ref().unchecked_ref(),
            true,
        );
        // Listens for the page's whole life.
        handler.forget();
    };
    on("compositionstart", |event| {
        let field = event.target().and_then(|target| target.dyn_into().ok());
        COMPOSING_IN.set(field);
    });
    on("compositionend", |_| {
        COMPOSING_IN.set(None);
        for (root, html) in PUT_OFF.take() {
            redraw_keeping_boxes(&root, &html);
        }
    });
}

/// Writes `html` into `root`, keeping what the person was doing in its Tell boxes; while an
/// input method composes in one of them, once the composition ends.
pub fn redraw_keeping_boxes(root: &web_sys::Element, html: &str) {
    watch_compositions();
    let composing_here = COMPOSING_IN.with_borrow(|field| {
        field
            .as_ref()
            .is_some_and(|field| root.contains(Some(field)))
    });
    if composing_here {
        PUT_OFF.with_borrow_mut(|put_off| {
            put_off.retain(|(waiting, _)| waiting != root);
            put_off.push((root.clone(), html.to_string()));
        });
        return;
    }
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
