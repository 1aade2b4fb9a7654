//! The server renders each age once: nothing ticks there.

use chrono::{DateTime, Utc};

pub fn refresh(_root: &leptos::web_sys::Element, _now: DateTime<Utc>) {}
