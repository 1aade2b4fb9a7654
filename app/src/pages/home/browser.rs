//! The inbox's lists in the browser: the lists the page's script fetched while the WebAssembly
//! loaded; what waits swapped for the server's newer list without losing a message being typed
//! in a Tell box; and the history's cards kept as the elements the server wrote, so the filter
//! and the search put back exactly those cards, as the person types, without asking the server
//! again.

use crate::dom;
use hark_core::model::QuestionId;
use leptos::prelude::{LocalStorage, StoredValue, document};
use leptos::wasm_bindgen::JsCast;

use super::InboxHtml;

/// In the browser the lists the server wrote are already on the page.
pub fn written_lists() -> InboxHtml {
    InboxHtml::default()
}

/// Hands `then` the lists the page's script fetched while the WebAssembly loaded
/// (`prefetch.js`), if it did; from now on the island asks for itself.
pub fn on_prefetched(then: impl FnOnce(InboxHtml) + 'static) {
    leptos::task::spawn_local(async move {
        if let Some(lists) = prefetched().await {
            then(lists);
        }
    });
}

async fn prefetched() -> Option<InboxHtml> {
    let inbox = js_sys::Reflect::get(&leptos::prelude::window(), &super::PREFETCHED.into()).ok()?;
    if inbox.is_undefined() {
        return None;
    }
    let _ = js_sys::Reflect::set(&inbox, &"taken".into(), &true.into());
    let lists = js_sys::Reflect::get(&inbox, &"lists".into()).ok()?;
    let lists = lists.dyn_into::<js_sys::Promise>().ok()?;
    let text = wasm_bindgen_futures::JsFuture::from(lists)
        .await
        .ok()?
        .as_string()?;
    crate::json::read(&text).ok()
}

/// Writes `html` into `list` (what waits), keeping what the person was doing in its Tell
/// boxes.
pub fn swap_waiting(list: &web_sys::Element, html: &str) {
    crate::components::tell_agent::redraw_keeping_boxes(list, html);
}

/// The newest page of the history's cards, and the older pages fetched after it.
#[derive(Default)]
pub struct HistoryCards {
    first: Vec<web_sys::Element>,
    older: Vec<web_sys::Element>,
}

/// The cards are the page's elements, which stay on its thread.
pub type Kept = LocalStorage;

impl HistoryCards {
    pub fn kept() -> StoredValue<HistoryCards, Kept> {
        StoredValue::new_local(HistoryCards::default())
    }

    /// Takes the cards now in `list` as the newest page.
    pub fn take_first(&mut self, list: &web_sys::Element) {
        self.first = dom::children(list);
        self.forget_older_on_first();
    }

    /// Takes the cards in `html` as the newest page. The cards of the page before that it no
    /// longer holds (pushed out by newer ones) go ahead of the older pages fetched, if any: the
    /// next older page follows the last of those.
    pub fn take_first_of(&mut self, html: &str) {
        let before = std::mem::replace(&mut self.first, dom::parsed(html));
        if !self.older.is_empty() {
            self.older.splice(0..0, before);
        }
        self.forget_older_on_first();
    }

    /// An older card that is on the newest page now shows there, once.
    fn forget_older_on_first(&mut self) {
        let first: Vec<String> = self.first.iter().filter_map(card_id).collect();
        self.older
            .retain(|card| card_id(card).is_none_or(|id| !first.contains(&id)));
    }

    /// Adds the cards in `html` (a page older than those kept).
    pub fn add_older(&mut self, html: &str) {
        let known: Vec<String> = (self.first.iter().chain(&self.older))
            .filter_map(card_id)
            .collect();
        let fresh = dom::parsed(html)
            .into_iter()
            .filter(|card| card_id(card).is_none_or(|id| !known.contains(&id)));
        self.older.extend(fresh);
    }

    /// The older cards' place taken by the cards of `pages` (in order, each older than the
    /// one before).
    pub fn replace_older(&mut self, pages: &[String]) {
        self.older.clear();
        for page in pages {
            self.add_older(page);
        }
    }

    /// How many cards older than the newest page are kept.
    pub fn older_len(&self) -> usize {
        self.older.len()
    }

    /// The newest page's last card's question, which the older pages follow.
    pub fn first_last_id(&self) -> Option<QuestionId> {
        card_id(self.first.last()?)?.parse().ok()
    }

    /// How many cards a page (`html`) holds, and its last card's question.
    pub fn page_end(html: &str) -> (usize, Option<QuestionId>) {
        let cards = dom::parsed(html);
        let last = cards
            .last()
            .and_then(card_id)
            .and_then(|id| id.parse().ok());
        (cards.len(), last)
    }

    /// The oldest card's question, which the next older page follows.
    pub fn last_id(&self) -> Option<QuestionId> {
        let last = self.older.last().or(self.first.last())?;
        card_id(last)?.parse().ok()
    }

    /// Puts the cards whose status is `status` (any when `None`) and whose words hold `search`
    /// into `list`, or a line saying `no_match` when none does; whether there is any card.
    pub fn show(
        &self,
        list: &web_sys::Element,
        status: Option<&str>,
        search: &str,
        no_match: &str,
    ) -> bool {
        // The server lower-cased the cards' words; the browser's own lower case for the search
        // keeps Unicode's case tables out of the WebAssembly.
        let search = String::from(js_sys::JsString::from(search.trim()).to_lower_case());
        list.set_text_content(None);
        let mut shown = 0;
        for card in self.first.iter().chain(&self.older) {
            let status_fits = status
                .is_none_or(|status| card.get_attribute("data-status").as_deref() == Some(status));
            let words_fit = search.is_empty()
                || (card.get_attribute("data-search")).is_some_and(|words| words.contains(&search));
            if status_fits && words_fit && list.append_child(card).is_ok() {
                shown += 1;
            }
        }
        let any = !(self.first.is_empty() && self.older.is_empty());
        if shown == 0
            && any
            && let Ok(line) = document().create_element("li")
        {
            line.set_class_name("empty");
            line.set_text_content(Some(no_match));
            let _ = list.append_child(&line);
        }
        any
    }
}

fn card_id(card: &web_sys::Element) -> Option<String> {
    card.get_attribute("data-question-id")
}
