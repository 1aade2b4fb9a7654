//! `/`: what waits for the person, grouped by the agent and project that asked (oldest first),
//! and the history (newest first), filterable by status and searchable. The server writes both
//! lists (`lists`); the inbox island swaps in the server's new lists when the live stream says
//! they changed, and filters, searches and pages the history in place (`browser`).

#[cfg(feature = "ssr")]
use crate::components::failure_notice::FailureNotice;
use crate::failure::Failure;
use crate::i18n::{t, tr};
use crate::live::Live;
#[cfg(feature = "ssr")]
use crate::server::data_block::DataBlock;
use hark_core::model::{AgentMessage, Question, QuestionId, Status};
use hark_text::question::status_key;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg_attr(not(feature = "hydrate"), path = "home/headless.rs")]
mod browser;
#[cfg(feature = "ssr")]
pub mod lists;

/// Every pending question and the newest page of the history, newest first.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn list_questions() -> Result<Vec<Question>, Failure> {
    let store = expect_context::<hark_core::store::Store>();
    Ok(store
        .snapshot()
        .await
        .questions
        .into_iter()
        .map(crate::server::render::for_list)
        .collect())
}

/// The inbox's lists as the server writes them, in one language.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct InboxHtml {
    /// What waits, grouped, with the Tell boxes (`lists::waiting`).
    pub waiting: String,
    /// The newest page of the history (`lists::history`).
    pub history: HistoryHtml,
    /// `fingerprint` of the questions and messages the lists show.
    pub seen: u32,
}

/// A page of the history's cards.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct HistoryHtml {
    pub cards: String,
    /// Whether the page is full, so older questions may follow.
    pub more: bool,
}

/// What the inbox island keeps of the lists the server wrote into the page.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Listed {
    seen: u32,
    /// Whether the history has any question, and whether older ones may follow its page.
    any: bool,
    more: bool,
    lang: String,
}

/// The inbox's lists now, written in the language `lang` (its code).
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn inbox_lists(lang: String) -> Result<InboxHtml, Failure> {
    let lang = known_lang(&lang)?;
    let init = expect_context::<hark_core::store::Store>().snapshot().await;
    let questions: Vec<Question> = (init.questions.into_iter())
        .map(crate::server::render::for_list)
        .collect();
    let seen = fingerprint(&questions, &init.messages);
    let (pending, closed): (Vec<Question>, Vec<Question>) =
        questions.into_iter().partition(Question::is_pending);
    let now = chrono::Utc::now();
    Ok(lists::in_lang(lang, || InboxHtml {
        waiting: lists::waiting(pending, &init.messages, now).into_string(),
        history: HistoryHtml {
            more: closed.len() >= hark_core::model::limits::HISTORY_PAGE,
            cards: lists::history(&closed, now).into_string(),
        },
        seen,
    }))
}

/// The page of the history's cards older than `before`, written in the language `lang`.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn older_history(lang: String, before: QuestionId) -> Result<HistoryHtml, Failure> {
    let lang = known_lang(&lang)?;
    let store = expect_context::<hark_core::store::Store>();
    let page = (store.page(
        hark_core::store::Filter::Closed,
        Some(before),
        hark_core::model::limits::HISTORY_PAGE,
    ))
    .await
    .ok_or(Failure::NotFound)?;
    let closed: Vec<Question> = page
        .into_iter()
        .map(crate::server::render::for_list)
        .collect();
    Ok(lists::in_lang(lang, || HistoryHtml {
        more: closed.len() >= hark_core::model::limits::HISTORY_PAGE,
        cards: lists::history(&closed, chrono::Utc::now()).into_string(),
    }))
}

/// `code` as a language the page offers, or a failure naming the field.
#[cfg(feature = "ssr")]
fn known_lang(code: &str) -> Result<crate::i18n::Lang, Failure> {
    code.parse::<crate::i18n::Lang>()
        .map_err(|_| Failure::UnknownPreference {
            field: "lang".to_string(),
        })
}

/// A number that changes when a question is asked, changes status or leaves, or a message for
/// an agent is left or delivered: what the inbox's lists show, besides ages. Both sides compute
/// it, the server over what it wrote and the island over the live stream, and the island asks
/// for new lists only when the two differ. The order of either list does not matter.
fn fingerprint(questions: &[Question], messages: &[AgentMessage]) -> u32 {
    // FNV-1a per item, summed: no hasher crate in the page's WebAssembly for this.
    fn item(id: &str, status: &str) -> u32 {
        let mut hash: u32 = 0x811c_9dc5;
        for byte in id.bytes().chain([b':']).chain(status.bytes()) {
            hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
        }
        hash
    }
    let questions =
        (questions.iter()).map(|question| item(&question.id.to_string(), question.status.as_str()));
    let messages =
        (messages.iter()).map(|message| item(&message.id.to_string(), message.status.as_str()));
    questions.chain(messages).fold(0, u32::wrapping_add)
}

/// The data block that carries what the inbox island keeps of the lists (`crate::carried`).
const LISTED_ID: &str = "hark-inbox";

/// `/` (server only): the inbox island around the lists the store has now, or why they could
/// not be written.
#[cfg(feature = "ssr")]
#[component]
pub fn HomePage() -> impl IntoView {
    let lang = crate::i18n::current();
    let listed = crate::json::resource(move || lang.code().to_string(), inbox_lists);
    view! {
        <Suspense fallback=|| view! { <p class="muted">{tr("home-loading")}</p> }>
            {move || {
                listed
                    .get()
                    .map(|listed| match listed {
                        Ok(lists) => {
                            let kept = Listed {
                                seen: lists.seen,
                                any: !lists.history.cards.is_empty(),
                                more: lists.history.more,
                                lang: lang.code().to_string(),
                            };
                            view! {
                                <DataBlock id=LISTED_ID value=kept>
                                    <leptos::context::Provider value=lists>
                                        <Inbox />
                                    </leptos::context::Provider>
                                </DataBlock>
                                <script nonce=leptos::nonce::use_nonce() inner_html=prefetch_script(lang)></script>
                            }
                                .into_any()
                        }
                        Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                    })
            }}
        </Suspense>
    }
}

/// The script that asks for the lists while the page loads (`home/prefetch.js`), in `lang`.
#[cfg(feature = "ssr")]
fn prefetch_script(lang: crate::i18n::Lang) -> String {
    use leptos::server_fn::ServerFn;
    let text = |text: &str| serde_json::to_string(text).unwrap_or_default();
    include_str!("home/prefetch.js")
        .replace(
            "window[NAME]",
            &format!("window[{}]", text(crate::live::EARLY_SOCKET)),
        )
        .replace(
            "PATH, LANG)",
            &format!("{}, {})", text(InboxLists::PATH), text(lang.code())),
        )
}

/// The inbox; an island, live as questions come and go.
#[island]
fn Inbox() -> impl IntoView {
    let live = Live::expect();
    let listed: Listed = crate::carried::carried(LISTED_ID);
    let written = browser::written_lists();
    let waiting = NodeRef::<leptos::html::Div>::new();
    crate::components::age::keep_current(waiting);
    let history = History::new(&listed);
    // What the lists on the page show, and in which language; then what was last asked for.
    let shown = StoredValue::new((Some(listed.seen), listed.lang.clone()));
    let asked = StoredValue::new(0_u32);
    // The lists are swapped in only from the answer to the last request: one fetched earlier
    // is older.
    let swap = move |request: u32, lists: InboxHtml, lang: String| {
        if asked.get_value() != request {
            return;
        }
        if let Some(waiting) = waiting.get_untracked() {
            browser::swap_waiting(&waiting, &lists.waiting);
        }
        history.replace(lists.history, lang);
    };
    // What the page's script fetched while the WebAssembly loaded, if the lists changed since
    // the server wrote them.
    browser::on_prefetched(move |lists| {
        if shown.with_value(|(seen, _)| *seen == Some(lists.seen)) {
            return;
        }
        shown.update_value(|shown| shown.0 = Some(lists.seen));
        swap(0, lists, listed.lang.clone());
    });
    Effect::new(move |_| {
        let lang = crate::i18n::current();
        let seen = live.questions.with(|questions| {
            let questions = questions.as_ref()?;
            live.messages.with(|messages| {
                Some(fingerprint(
                    questions,
                    messages.as_deref().unwrap_or_default(),
                ))
            })
        });
        // Before the stream's first state the page's lists are the newest there are.
        let Some(seen) = seen else { return };
        let now_wanted = (Some(seen), lang.code().to_string());
        if shown.with_value(|shown| *shown == now_wanted) {
            return;
        }
        shown.set_value(now_wanted);
        let request = asked.with_value(|asked| asked.wrapping_add(1));
        asked.set_value(request);
        leptos::task::spawn_local(async move {
            match inbox_lists(lang.code().to_string()).await {
                Ok(lists) => swap(request, lists, lang.code().to_string()),
                // Asked again on the next change.
                Err(_) => shown.set_value((None, String::new())),
            }
        });
    });
    view! {
        <section class="panel" aria-labelledby="waiting-heading">
            <div class="section-head">
                <h1 id="waiting-heading">{tr("home-waiting-heading")}</h1>
                <crate::attention::NotificationSwitch />
            </div>
            <div aria-live="polite" data-testid="pending-list" node_ref=waiting inner_html=written.waiting></div>
        </section>
        {history.view(written.history.cards)}
    }
}

const CLOSED: [Status; 4] = [
    Status::Answered,
    Status::Declined,
    Status::Timeout,
    Status::Cancelled,
];

/// The history's section: its cards (first the newest page, then older pages fetched on
/// request), filtered by status and searched as the person types, in place.
#[derive(Clone, Copy)]
struct History {
    cards: NodeRef<leptos::html::Ul>,
    shown: StoredValue<browser::HistoryCards, browser::Kept>,
    /// The language the cards shown are written in.
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
    fn new(listed: &Listed) -> History {
        History {
            cards: NodeRef::new(),
            shown: browser::HistoryCards::kept(),
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
        crate::components::age::keep_current(self.cards);
        self.cards.on_load(move |cards| {
            self.shown.update_value(|shown| shown.take_first(&cards));
            self.show();
        });
    }

    /// A new newest page from the server, written in `lang`. The older pages fetched before
    /// stay, unless they were written in another language.
    fn replace(self, page: HistoryHtml, lang: String) {
        let Some(cards) = self.cards.get_untracked() else {
            return;
        };
        let keep_older = self.written_in.with_value(|written_in| *written_in == lang);
        self.written_in.set_value(lang);
        cards.set_inner_html(&page.cards);
        self.shown.update_value(|shown| {
            if !keep_older {
                shown.drop_older();
            }
            shown.take_first(&cards);
        });
        if !keep_older || !self.shown.with_value(browser::HistoryCards::has_older) {
            self.more.set(page.more);
        }
        self.show();
    }

    /// Fetches the page older than the last card.
    fn load_older(self) {
        let Some(before) = self.shown.with_value(browser::HistoryCards::last_id) else {
            return;
        };
        self.loading.set(true);
        leptos::task::spawn_local(async move {
            let lang = crate::i18n::current().code().to_string();
            if let Ok(page) = older_history(lang, before).await {
                self.more.set(page.more);
                self.shown
                    .update_value(|shown| shown.add_older(&page.cards));
                self.show();
            }
            self.loading.set(false);
        });
    }

    /// Puts the cards that pass the filter and search in the list.
    fn show(self) {
        let Some(cards) = self.cards.get_untracked() else {
            return;
        };
        let filter = self.filter.get_untracked().map(Status::as_str);
        let any = self.search.with_untracked(|search| {
            self.shown
                .with_value(|shown| shown.show(&cards, filter, search, &t("history-no-match")))
        });
        self.any.set(any);
    }

    fn view(self, written: String) -> impl IntoView {
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
                <ul class="cards" data-testid="history-list" node_ref=self.cards inner_html=written></ul>
                <Show when=move || more.get()>
                    <button
                        type="button"
                        class="secondary older"
                        data-testid="history-older"
                        disabled=move || loading.get()
                        on:click=move |_| self.load_older()
                    >
                        {move || if loading.get() { t("history-loading-older") } else { t("history-older") }}
                    </button>
                </Show>
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

#[cfg(test)]
mod tests {
    use super::*;
    use lists::tests::asked;

    #[test]
    fn the_fingerprint_follows_what_the_lists_show_and_not_their_order() {
        let (one, two) = (asked(None, None, 2), asked(None, None, 1));
        let both = fingerprint(&[one.clone(), two.clone()], &[]);
        assert_eq!(both, fingerprint(&[two.clone(), one.clone()], &[]));
        assert_ne!(both, fingerprint(std::slice::from_ref(&one), &[]));
        let mut answered = two.clone();
        answered.status = Status::Answered;
        assert_ne!(both, fingerprint(&[one, answered], &[]));
    }
}
