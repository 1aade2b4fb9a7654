//! `/`: what waits for the person, grouped by the agent and project that asked (oldest first),
//! and the history (newest first), filterable by status and searchable. The server writes both
//! lists (`lists`); the inbox island swaps in the server's new lists when the live stream says
//! they changed, and filters, searches and pages the history in place (`browser`).

#[cfg(feature = "ssr")]
use crate::components::failure_notice::FailureNotice;
use crate::failure::Failure;
use crate::i18n::tr;
use crate::live::Live;
#[cfg(feature = "ssr")]
use crate::server::data_block::DataBlock;
use hark_core::model::{MessageId, MessageStatus, Question, QuestionId, Status};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg_attr(not(feature = "hydrate"), path = "home/headless.rs")]
mod browser;
mod history;
#[cfg(feature = "ssr")]
pub mod lists;

use history::History;

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
    /// The cards (`lists::history`).
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
    let lang = crate::failure::offered_lang::<InboxLists>(&lang)?;
    let init = expect_context::<hark_core::store::Store>().snapshot().await;
    let questions: Vec<Question> = (init.questions.into_iter())
        .map(crate::server::render::for_list)
        .collect();
    let seen = fingerprint(
        questions
            .iter()
            .map(|question| (question.id, question.status)),
        init.messages
            .iter()
            .map(|message| (message.id, message.status)),
    );
    let (pending, closed): (Vec<Question>, Vec<Question>) =
        questions.into_iter().partition(Question::is_pending);
    let now = chrono::Utc::now();
    Ok(crate::i18n::in_lang(lang, || InboxHtml {
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
    let lang = crate::failure::offered_lang::<OlderHistory>(&lang)?;
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
    Ok(crate::i18n::in_lang(lang, || HistoryHtml {
        more: closed.len() >= hark_core::model::limits::HISTORY_PAGE,
        cards: lists::history(&closed, chrono::Utc::now()).into_string(),
    }))
}

/// A number that changes when a question is asked, changes status or leaves, or a message for
/// an agent is left or delivered: what the inbox's lists show, besides ages. Both sides compute
/// it, the server over what it wrote and the island over the live stream, and the island asks
/// for new lists only when the two differ. The order of either list does not matter.
fn fingerprint(
    questions: impl IntoIterator<Item = (QuestionId, Status)>,
    messages: impl IntoIterator<Item = (MessageId, MessageStatus)>,
) -> u32 {
    // FNV-1a per item, summed: no hasher crate in the page's WebAssembly for this.
    fn item(id: &str, status: &str) -> u32 {
        let mut hash: u32 = 0x811c_9dc5;
        for byte in id.bytes().chain([b':']).chain(status.bytes()) {
            hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
        }
        hash
    }
    let questions =
        (questions.into_iter()).map(|(id, status)| item(&id.to_string(), status.as_str()));
    let messages =
        (messages.into_iter()).map(|(id, status)| item(&id.to_string(), status.as_str()));
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
                            let seen = lists.seen;
                            let kept = Listed {
                                seen,
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
                                <script nonce=leptos::nonce::use_nonce() inner_html=prefetch_script(lang, seen)></script>
                            }
                                .into_any()
                        }
                        Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                    })
            }}
        </Suspense>
    }
}

/// Where the page's prefetch script leaves what it fetched, for the island to take.
pub const PREFETCHED: &str = "__harkInbox";

/// The script that asks for the lists while the page loads (`home/prefetch.js`), in `lang`, for
/// a page that shows the lists whose fingerprint is `seen`.
#[cfg(feature = "ssr")]
fn prefetch_script(lang: crate::i18n::Lang, seen: u32) -> String {
    use leptos::server_fn::ServerFn;
    let text = |text: &str| serde_json::to_string(text).unwrap_or_default();
    crate::server::inline_script::compact(include_str!("home/prefetch.js"))
        .replace("EARLY_SOCKET", &text(crate::live::EARLY_SOCKET))
        .replace("PREFETCHED", &text(PREFETCHED))
        .replace("LISTS_PATH", &text(InboxLists::PATH))
        .replace("PAGE_LANG", &text(lang.code()))
        .replace("WAITING_LIST_ID", &text(WAITING_LIST_ID))
        .replace("PAGE_SEEN", &seen.to_string())
}

/// The id of the list of what waits, which the prefetch script writes into before hydration.
const WAITING_LIST_ID: &str = "waiting-list";

/// What the lists on the page show: the fingerprint of the state they were written from
/// (`None` once a fetch failed, so the next change fetches again), and their language.
#[derive(Clone, PartialEq)]
struct Drawn {
    seen: Option<u32>,
    lang: String,
}

/// The inbox; an island, live as questions come and go.
#[island]
fn Inbox() -> impl IntoView {
    let live = Live::expect();
    let listed: Listed = crate::carried::carried(LISTED_ID);
    let written = browser::written_lists();
    let waiting = NodeRef::<leptos::html::Div>::new();
    crate::components::age::keep_current(waiting);
    // The Tell boxes in what waits are redrawn with it.
    crate::components::tell_agent::watch_compositions();
    let history = History::new(&listed);
    let drawn = StoredValue::new(Drawn {
        seen: Some(listed.seen),
        lang: listed.lang.clone(),
    });
    // Lists are drawn only from the answer to the latest request: one fetched earlier is older.
    let latest_request = StoredValue::new(0_u32);
    let draw = move |request: u32, lists: InboxHtml, lang: String| {
        if latest_request.get_value() != request {
            return;
        }
        if let Some(waiting) = waiting.get_untracked() {
            browser::swap_waiting(&waiting, &lists.waiting);
        }
        drawn.set_value(Drawn {
            seen: Some(lists.seen),
            lang: lang.clone(),
        });
        history.replace(lists.history, lang);
    };
    // What the page's script fetched while the WebAssembly loaded, if the lists changed since
    // the server wrote them; request 0 is outdated once the island has asked for itself.
    browser::on_prefetched(move |lists| {
        if drawn.with_value(|drawn| drawn.seen != Some(lists.seen)) {
            draw(0, lists, listed.lang.clone());
        }
    });
    Effect::new(move |_| {
        let lang = crate::i18n::current().code().to_string();
        let seen = live.questions.with(|questions| {
            let questions = questions.as_ref()?;
            live.messages.with(|messages| {
                Some(fingerprint(
                    questions
                        .iter()
                        .map(|question| (question.id, question.status)),
                    (messages.iter().flatten()).map(|message| (message.id, message.status)),
                ))
            })
        });
        // Before the stream's first state the lists on the page are the newest there are,
        // though perhaps in the language the person just left.
        let wanted = Drawn {
            seen: seen.or_else(|| drawn.with_value(|drawn| drawn.seen)),
            lang: lang.clone(),
        };
        if drawn.with_value(|drawn| *drawn == wanted) {
            return;
        }
        // Taken as drawn at once, so a change meanwhile asks again rather than waiting.
        drawn.update_value(|drawn| drawn.seen = wanted.seen);
        let request = latest_request.with_value(|latest| latest.wrapping_add(1));
        latest_request.set_value(request);
        leptos::task::spawn_local(async move {
            match inbox_lists(lang.clone()).await {
                Ok(lists) => draw(request, lists, lang),
                Err(_) => drawn.update_value(|drawn| drawn.seen = None),
            }
        });
    });
    view! {
        <section class="panel" aria-labelledby="waiting-heading">
            <div class="section-head">
                <h1 id="waiting-heading">{tr("home-waiting-heading")}</h1>
                <crate::attention::NotificationSwitch />
            </div>
            <div id=WAITING_LIST_ID aria-live="polite" data-testid="pending-list" node_ref=waiting inner_html=written.waiting></div>
        </section>
        {history.view(written.history.cards)}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lists::tests::asked;

    #[test]
    fn the_fingerprint_follows_what_the_lists_show_and_not_their_order() {
        let (one, two) = (asked(None, None, 2), asked(None, None, 1));
        let of = |questions: &[&Question]| {
            fingerprint(
                questions
                    .iter()
                    .map(|question| (question.id, question.status)),
                [],
            )
        };
        let both = of(&[&one, &two]);
        assert_eq!(both, of(&[&two, &one]));
        assert_ne!(both, of(&[&one]));
        let mut answered = two.clone();
        answered.status = Status::Answered;
        assert_ne!(both, of(&[&one, &answered]));
        let message = MessageId::new_random();
        let with_message = |status| fingerprint([(one.id, one.status)], [(message, status)]);
        assert_ne!(with_message(MessageStatus::Waiting), of(&[&one]));
        assert_ne!(
            with_message(MessageStatus::Waiting),
            with_message(MessageStatus::Delivered)
        );
    }
}
