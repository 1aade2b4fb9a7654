//! The page's language for text made outside the component tree (timers, handlers), where no
//! context reaches.

use super::PageLang;

thread_local! {
    static PAGE_LANG: std::cell::Cell<Option<PageLang>> = const { std::cell::Cell::new(None) };
}

pub fn keep(lang: PageLang) {
    PAGE_LANG.with(|page| page.set(Some(lang)));
}

pub fn kept() -> Option<PageLang> {
    PAGE_LANG.with(std::cell::Cell::get)
}
