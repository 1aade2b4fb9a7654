//! The server's twin of `browser.rs`: there is no tab to flash, notify or chime in, and none of
//! these is reached while rendering.

use super::Permission;

pub fn permission() -> Permission {
    Permission::Unsupported
}

pub fn request_permission(_done: impl Fn(Permission) + 'static) {}

pub fn page_hidden() -> bool {
    false
}

pub fn notify(_title: &str, _body: &str) {}

pub fn chime() {}

pub fn every_second(_tick: impl FnMut(&mut bool) + 'static) {}

pub fn set_title(_title: &str) {}
