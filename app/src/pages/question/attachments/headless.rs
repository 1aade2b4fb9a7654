//! The server's twin of `browser.rs`: files reach the server only inside a posted answer.

use super::Attachments;

pub fn take_picked(_attachments: Attachments, _index: usize, _event: &leptos::ev::Event) {}

pub fn take_dropped(_attachments: Attachments, _index: usize, _event: &leptos::ev::DragEvent) {}
