//! The inbox's history section: the server's cards (first the newest page, then older pages
//! fetched on request), filtered by status and searched as the person types, in place.

use super::{HistoryHtml, Listed, browser, older_history};
use crate::i18n::{t, tr};
use hark_core::model::Status;
use hark_text::question::status_key;
use leptos::prelude::*;

/// The statuses the filter offers: every closed one.
const CLOSED: [Status; 4] = [
    Status::Answered,
    Status::Declined,
    Status::Timeout,
    Status::Cancelled,
];

#[derive(Clone, Copy)]
pub struct History {
    list: NodeRef<leptos::html::Ul>,
    cards: StoredValue<browser::HistoryCards, browser::Kept>,
    /// The language the cards kept are written in.
    written_in: StoredValue<String>,
    /// Whether the last page fetched was full, so there may be more.
    more: RwSignal<bool>,
    loading: RwSignal<bool>,
    /// Whether the history has any question.
    any: RwSignal<bool>,
    filter: RwSignal<Option<Status>>,
    search: RwSignal<String>,
}

impl History {
    pub fn new(listed: &Listed) -> History {
        History {
            list: NodeRef::new(),
            cards: browser::HistoryCards::kept(),
            written_in: StoredValue::new(listed.lang.clone()),
            more: RwSignal::new(listed.more),
            loading: RwSignal::new(false),
            any: RwSignal::new(listed.any),
            filter: RwSignal::new(None),
            search: RwSignal::new(String::new()),
        }
    }

    /// Takes the server's cards once the island has hydrated, and their ages' clock.
    fn start(self) {
        crate::components::age::keep_current(self.list);
        self.list.on_load(move |list| {
            self.cards.update_value(|cards| cards.take_first(&list));
            self.show();
        });
    }

    /// A new newest page from the server, written in `lang`. The older pages fetched before
    /// stay (with the cards the newest page no longer holds); written in another language, they
    /// are fetched again in this one, and show as they were until then.
    pub fn replace(self, page: HistoryHtml, lang: String) {
        let same_lang = self.written_in.with_value(|written_in| *written_in == lang);
        self.written_in.set_value(lang.clone());
        let older = self.cards.with_value(browser::HistoryCards::older_len);
        self.cards
            .update_value(|cards| cards.take_first_of(&page.cards));
        if !same_lang && older > 0 {
            self.write_older_again(lang, older);
        } else if older == 0 {
            self.more.set(page.more);
        }
        self.show();
    }

    /// Fetches in `lang` at least `cards` cards older than the newest page (as many pages as
    /// that takes, or all there are), and puts them in place of the older cards kept, if the
    /// cards are still written in `lang` then. The older button waits meanwhile.
    fn write_older_again(self, lang: String, cards: usize) {
        self.loading.set(true);
        leptos::task::spawn_local(async move {
            let mut pages: Vec<String> = Vec::new();
            let mut fetched = 0;
            let mut more = true;
            let mut before = self.cards.with_value(browser::HistoryCards::first_last_id);
            // Each page holds a page's worth of cards, or is the last.
            let most = cards.div_ceil(hark_core::model::limits::HISTORY_PAGE) + 1;
            for _ in 0..most {
                let Some(after) = before.filter(|_| more && fetched < cards) else {
                    break;
                };
                match older_history(lang.clone(), after).await {
                    Ok(page) => {
                        let (len, last) = browser::HistoryCards::page_end(&page.cards);
                        (fetched, more, before) = (fetched + len, page.more && len > 0, last);
                        pages.push(page.cards);
                    }
                    Err(_) => {
                        more = false;
                        break;
                    }
                }
            }
            if self.written_in.with_value(|written_in| *written_in == lang) {
                self.cards.update_value(|kept| kept.replace_older(&pages));
                self.more.set(more);
                self.show();
            }
            self.loading.set(false);
        });
    }

    /// Fetches the page older than the last card; a page written in another language than
    /// the cards by the time it arrives is dropped.
    fn load_older(self) {
        let Some(before) = self.cards.with_value(browser::HistoryCards::last_id) else {
            return;
        };
        self.loading.set(true);
        let lang = self.written_in.get_value();
        leptos::task::spawn_local(async move {
            match older_history(lang.clone(), before).await {
                Ok(page) if self.written_in.with_value(|written_in| *written_in == lang) => {
                    self.more.set(page.more);
                    self.cards
                        .update_value(|cards| cards.add_older(&page.cards));
                    self.show();
                }
                Ok(_) => {}
                // The last card's question is gone from the store: nothing older to follow.
                Err(_) => self.more.set(false),
            }
            self.loading.set(false);
        });
    }

    /// Puts the cards that pass the filter and search in the list.
    fn show(self) {
        let Some(list) = self.list.get_untracked() else {
            return;
        };
        let filter = self.filter.get_untracked().map(Status::as_str);
        let any = self.search.with_untracked(|search| {
            self.cards
                .with_value(|cards| cards.show(&list, filter, search, &t("history-no-match")))
        });
        self.any.set(any);
    }

    /// The section, around the cards the server wrote (`written`; empty in the browser, where
    /// they are on the page already).
    pub fn view(self, written: String) -> impl IntoView {
        self.start();
        let History {
            any,
            more,
            loading,
            filter,
            search,
            ..
        } = self;
        let empty = move || !any.get();
        view! {
            <section class="panel" aria-labelledby="history-heading">
                <h2 id="history-heading">{tr("home-history-heading")}</h2>
                <p class="empty" hidden=move || !empty()>{tr("home-empty-history")}</p>
                <div class="history-tools" hidden=empty>
                    <label>
                        <span>{tr("history-filter-label")}</span>
                        <select on:change=move |event| {
                            filter.set(event_target_value(&event).parse::<Status>().ok());
                            self.show();
                        }>
                            <option value="">{tr("history-filter-all")}</option>
                            {CLOSED
                                .into_iter()
                                .map(|status| {
                                    view! { <option value=status.as_str()>{move || t(status_key(status))}</option> }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="search">
                        <span class="sr-only">{tr("history-search-label")}</span>
                        <input
                            type="search"
                            placeholder=tr("history-search-placeholder")
                            aria-label=tr("history-search-label")
                            on:input=move |event| {
                                search.set(event_target_value(&event));
                                self.show();
                            }
                        />
                    </label>
                </div>
                <ul class="cards" data-testid="history-list" node_ref=self.list inner_html=written></ul>
                // Not `<Show>`, as in `attention::NotificationSwitch`.
                {move || more.get().then(|| view! {
                    <button
                        type="button"
                        class="secondary older"
                        data-testid="history-older"
                        disabled=move || loading.get()
                        on:click=move |_| self.load_older()
                    >
                        {move || if loading.get() { t("history-loading-older") } else { t("history-older") }}
                    </button>
                })}
                <p class="export" data-testid="history-export" hidden=empty>
                    <span>{tr("history-export")}</span>
                    " "
                    <a href="/api/export?format=markdown" download>{tr("history-export-markdown")}</a>
                    " · "
                    <a href="/api/export?format=json" download>{tr("history-export-json")}</a>
                </p>
            </section>
        }
    }
}
