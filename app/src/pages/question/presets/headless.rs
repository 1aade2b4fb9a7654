//! The server's twin of `browser.rs`: no text box to type into while rendering.

pub fn on_key(_event: &leptos::ev::KeyboardEvent) -> bool {
    false
}

pub fn insert_into(_target: &str, _text: &str, _caret_to_end: bool) {}
