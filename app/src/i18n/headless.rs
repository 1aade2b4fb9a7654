//! The server's twin of `browser.rs`: a thread serves many requests, so the language comes from
//! the request's context alone, never from a thread's memory.

use super::PageLang;

pub fn keep(_lang: PageLang) {}

pub fn kept() -> Option<PageLang> {
    None
}
