//! The server's twin of `browser.rs`: a rendered page has no stream; the browser opens its own.

use super::{Listener, Live};

pub fn connect(_live: Live, _listener: Listener) {}

pub fn hydration_finished() {}

pub fn say(_said: &hark_core::model::PageSays) {}
