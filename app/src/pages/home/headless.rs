//! The server's twin of `browser.rs`: it writes the lists into the island, and nothing is
//! filtered or paged there.

use hark_core::model::QuestionId;
use leptos::prelude::{StoredValue, SyncStorage, expect_context};
use leptos::web_sys::Element;

use super::InboxHtml;

/// The lists `HomePage` wrote for the island.
pub fn written_lists() -> InboxHtml {
    expect_context::<InboxHtml>()
}

pub fn on_prefetched(_then: impl FnOnce(InboxHtml) + 'static) {}

pub fn swap_waiting(_list: &Element, _html: &str) {}

#[derive(Default)]
pub struct HistoryCards;

/// The server renders on any thread: a value kept for one thread would panic when the page's
/// reactive state is dropped on another.
pub type Kept = SyncStorage;

impl HistoryCards {
    pub fn kept() -> StoredValue<HistoryCards, Kept> {
        StoredValue::new(HistoryCards)
    }

    pub fn take_first(&mut self, _list: &Element) {}

    pub fn take_first_of(&mut self, _html: &str) {}

    pub fn replace_older(&mut self, _pages: &[String]) {}

    pub fn older_len(&self) -> usize {
        0
    }

    pub fn first_last_id(&self) -> Option<QuestionId> {
        None
    }

    pub fn page_end(_html: &str) -> (usize, Option<QuestionId>) {
        (0, None)
    }

    pub fn add_older(&mut self, _html: &str) {}

    pub fn last_id(&self) -> Option<QuestionId> {
        None
    }

    pub fn show(
        &self,
        _list: &Element,
        _status: Option<&str>,
        _search: &str,
        _no_match: &str,
    ) -> bool {
        true
    }
}
