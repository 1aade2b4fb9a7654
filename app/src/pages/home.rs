//! `/`: what waits for the person, grouped by the agent and project that asked (oldest first),
//! and the history (newest first), filterable by status and searchable.

use crate::components::age::Age;
#[cfg(feature = "ssr")]
use crate::components::failure_notice::FailureNotice;
use crate::components::status_chip::StatusChip;
use crate::components::tell_agent::TellAgentBox;
use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use crate::live::Live;
#[cfg(feature = "ssr")]
use crate::server::data_block::DataBlock;
use crate::words::{answer_summary, headline};
use hark_core::model::{DaemonNote, Question, QuestionId, Status};
use hark_text::question::status_key;
use leptos::prelude::*;

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

/// The page of closed questions created before `before`, newest first.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn older_questions(before: QuestionId) -> Result<Vec<Question>, Failure> {
    let store = expect_context::<hark_core::store::Store>();
    Ok(store
        .page(
            hark_core::store::Filter::Closed,
            Some(before),
            hark_core::model::limits::HISTORY_PAGE,
        )
        .await
        .unwrap_or_default()
        .into_iter()
        .map(crate::server::render::for_list)
        .collect())
}

/// The data block that carries the inbox's questions to its island (`crate::carried`).
const LISTED_ID: &str = "hark-inbox";

/// `/` (server only): the inbox island, given the questions the store has now, or why they
/// could not be listed.
#[cfg(feature = "ssr")]
#[component]
pub fn HomePage() -> impl IntoView {
    let listed = crate::json::resource(|| (), |_| list_questions());
    view! {
        <Suspense fallback=|| view! { <p class="muted">{tr("home-loading")}</p> }>
            {move || {
                listed
                    .get()
                    .map(|listed| match listed {
                        Ok(questions) => {
                            view! {
                                <DataBlock id=LISTED_ID value=questions>
                                    <Inbox />
                                </DataBlock>
                            }
                                .into_any()
                        }
                        Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                    })
            }}
        </Suspense>
    }
}

/// The inbox; an island, live as questions come and go.
#[island]
fn Inbox() -> impl IntoView {
    let live = Live::expect();
    let listed: Vec<Question> = crate::carried::carried(LISTED_ID);
    // Pages of older history fetched on request; kept while live updates re-render the lists.
    let older = RwSignal::new(Vec::<Question>::new());
    // The live stream's copy once it has one, else what the server listed.
    let questions = move || live.questions.get().unwrap_or_else(|| listed.clone());
    move || {
        let (pending, history): (Vec<Question>, Vec<Question>) =
            questions().into_iter().partition(Question::is_pending);
        view! {
            <Waiting pending />
            <History history older />
        }
    }
}

/// Pending questions grouped by source; groups and questions oldest first.
fn group_by_source(mut pending: Vec<Question>) -> Vec<(Option<String>, Vec<Question>)> {
    pending.sort_by_key(|question| question.created_at);
    let mut groups: Vec<(Option<String>, Vec<Question>)> = Vec::new();
    for question in pending {
        let label = question.source_label();
        match groups.iter_mut().find(|(known, _)| *known == label) {
            Some((_, members)) => members.push(question),
            None => groups.push((label, vec![question])),
        }
    }
    groups
}

#[component]
fn Waiting(pending: Vec<Question>) -> impl IntoView {
    let empty = pending.is_empty();
    let groups = group_by_source(pending);
    view! {
        <section class="panel" aria-labelledby="waiting-heading">
            <div class="section-head">
                <h1 id="waiting-heading">{tr("home-waiting-heading")}</h1>
                <crate::attention::NotificationSwitch />
            </div>
            <Show when=move || empty>
                <p class="empty">{tr("home-empty-pending")}</p>
            </Show>
            <div aria-live="polite" data-testid="pending-list">
                {groups
                    .into_iter()
                    .map(|(label, members)| {
                        let tell_box = members
                            .first()
                            .and_then(|question| question.source.as_ref())
                            .and_then(hark_core::model::AgentRef::of)
                            .map(|agent| view! { <TellAgentBox agent back="/".to_string() /> });
                        view! {
                            <section class="group">
                                <h2 class="group-title">
                                    {move || label.clone().unwrap_or_else(|| t("home-unknown-source"))}
                                </h2>
                                <ul class="cards">
                                    {members
                                        .into_iter()
                                        .map(|question| view! { <PendingCard question /> })
                                        .collect_view()}
                                </ul>
                                {tell_box}
                            </section>
                        }
                    })
                    .collect_view()}
            </div>
        </section>
    }
}

#[component]
fn PendingCard(question: Question) -> impl IntoView {
    let href = format!("/q/{}", question.id);
    let count = question.questions.len();
    // A title alone rarely says what is asked: the first question follows it.
    let first_question = question
        .shown
        .as_ref()
        .and_then(|shown| shown.first_question.clone());
    view! {
        <li class="card pending" data-question-id=question.id.to_string()>
            <a href=href>
                <span class="headline">{headline(&question)}</span>
                {first_question.map(|text| view! {
                    <span class="first-question" data-testid="first-question">{text}</span>
                })}
                <span class="meta">
                    {move || (count > 1).then(|| t_args("home-question-count", &[("count", count.into())]))}
                    <Age then=question.created_at />
                </span>
            </a>
        </li>
    }
}

/// Whether a closed question matches the search words (in its text or its answers).
fn matches_search(question: &Question, search: &str) -> bool {
    let search = search.trim().to_lowercase();
    if search.is_empty() {
        return true;
    }
    let mut haystack = headline(question);
    for sub in &question.questions {
        haystack.push(' ');
        haystack.push_str(&sub.question);
    }
    haystack.push(' ');
    haystack.push_str(&answer_summary(question));
    haystack.push_str(question.note.as_deref().unwrap_or_default());
    haystack.to_lowercase().contains(&search)
}

const CLOSED: [Status; 4] = [
    Status::Answered,
    Status::Declined,
    Status::Timeout,
    Status::Cancelled,
];

#[component]
fn History(history: Vec<Question>, older: RwSignal<Vec<Question>>) -> impl IntoView {
    let empty = history.is_empty();
    let first_page_full = history.len() >= hark_core::model::limits::HISTORY_PAGE;
    // Whether the last page fetched was full, so there may be more.
    let more = RwSignal::new(true);
    let loading = RwSignal::new(false);
    let filter = RwSignal::new(None::<Status>);
    let search = RwSignal::new(String::new());
    let first_page = StoredValue::new(history);
    let all = move || {
        first_page.with_value(|first| {
            let mut all = first.clone();
            older.with(|older| {
                all.extend(
                    older
                        .iter()
                        .filter(|question| !first.iter().any(|known| known.id == question.id))
                        .cloned(),
                );
            });
            all
        })
    };
    let shown = move || {
        let filter = filter.get();
        let search = search.get();
        all()
            .into_iter()
            .filter(|question| filter.is_none_or(|status| question.status == status))
            .filter(|question| matches_search(question, &search))
            .collect::<Vec<_>>()
    };
    let load_older = move |_| {
        let Some(before) = all().last().map(|question| question.id) else {
            return;
        };
        loading.set(true);
        leptos::task::spawn_local(async move {
            if let Ok(page) = older_questions(before).await {
                more.set(page.len() >= hark_core::model::limits::HISTORY_PAGE);
                older.update(|older| older.extend(page));
            }
            loading.set(false);
        });
    };
    view! {
        <section class="panel" aria-labelledby="history-heading">
            <h2 id="history-heading">{tr("home-history-heading")}</h2>
            <Show when=move || empty>
                <p class="empty">{tr("home-empty-history")}</p>
            </Show>
            <Show when=move || !empty>
                <div class="history-tools">
                    <label>
                        <span>{tr("history-filter-label")}</span>
                        <select on:change=move |event| {
                            let value = event_target_value(&event);
                            filter.set(value.parse::<Status>().ok());
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
                            on:input=move |event| search.set(event_target_value(&event))
                        />
                    </label>
                </div>
            </Show>
            <ul class="cards" data-testid="history-list">
                {move || {
                    let shown = shown();
                    if shown.is_empty() && !empty {
                        return view! { <li class="empty">{tr("history-no-match")}</li> }.into_any();
                    }
                    shown
                        .into_iter()
                        .map(|question| view! { <HistoryCard question /> })
                        .collect_view()
                        .into_any()
                }}
            </ul>
            <Show when=move || first_page_full && more.get()>
                <button
                    type="button"
                    class="secondary older"
                    data-testid="history-older"
                    disabled=move || loading.get()
                    on:click=load_older
                >
                    {move || if loading.get() { t("history-loading-older") } else { t("history-older") }}
                </button>
            </Show>
            <Show when=move || !empty>
                <p class="export" data-testid="history-export">
                    <span>{tr("history-export")}</span>
                    " "
                    <a href="/api/export?format=markdown" download>{tr("history-export-markdown")}</a>
                    " · "
                    <a href="/api/export?format=json" download>{tr("history-export-json")}</a>
                </p>
            </Show>
        </section>
    }
}

#[component]
fn HistoryCard(question: Question) -> impl IntoView {
    let href = format!("/q/{}", question.id);
    let summary = answer_summary(&question);
    let chosen_by_timeout =
        question.note.as_deref().and_then(DaemonNote::of) == Some(DaemonNote::ChosenByTimeout);
    view! {
        <li class="card closed" data-question-id=question.id.to_string()>
            <a href=href>
                <span class="headline">{headline(&question)}</span>
                <span class="meta">
                    <StatusChip status=question.status />
                    <span class="answer">{summary}</span>
                    {chosen_by_timeout
                        .then(|| view! {
                            <span class="note">{crate::words::note_text(DaemonNote::ChosenByTimeout.text())}</span>
                        })}
                    {question.closed_at.map(|closed| view! { <Age then=closed /> })}
                </span>
            </a>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionId, Source, SubQuestion};

    fn asked(client: Option<&str>, cwd: Option<&str>, minutes_ago: i64) -> Question {
        Question {
            id: QuestionId::new_random(),
            questions: vec![SubQuestion::text("q")],
            title: None,
            source: Some(Source {
                client: client.map(str::to_string),
                cwd: cwd.map(str::to_string),
                pid: None,
            }),
            status: Status::Pending,
            answers: None,
            note: None,
            created_at: chrono::Utc::now() - chrono::Duration::minutes(minutes_ago),
            closed_at: None,
            expires_at: None,
            timeout_action: Default::default(),
            answered_via: None,
            permission: None,
            abandoned_at: None,
            shown: None,
        }
    }

    #[test]
    fn pending_questions_group_by_client_and_project_oldest_first() {
        let groups = group_by_source(vec![
            asked(Some("cursor 1"), Some("/w/api/"), 1),
            asked(Some("claude 2"), Some("/w/shop"), 5),
            asked(Some("cursor 1"), Some("/w/api"), 9),
            asked(None, None, 3),
        ]);
        let labels: Vec<_> = groups
            .iter()
            .map(|(label, members)| (label.clone(), members.len()))
            .collect();
        assert_eq!(
            labels,
            [
                (Some("cursor 1 · api".to_string()), 2),
                (Some("claude 2 · shop".to_string()), 1),
                (None, 1)
            ]
        );
        assert!(groups[0].1[0].created_at < groups[0].1[1].created_at);
    }
}
