//! `/`: what waits for the person (oldest first) and the history (newest first).

use crate::components::status_chip::StatusChip;
use crate::i18n::{t, t_args};
use crate::live::Live;
use crate::model::Question;
use leptos::prelude::*;

/// Every question the daemon holds, newest first.
#[server(prefix = "/fn")]
pub async fn list_questions() -> Result<Vec<Question>, ServerFnError> {
    let store = expect_context::<crate::store::Store>();
    Ok(store.list(None, None))
}

/// The inbox.
#[component]
pub fn HomePage() -> impl IntoView {
    let live = Live::expect();
    let rendered = Resource::new(|| (), |_| list_questions());
    let questions = move || {
        live.questions
            .get()
            .or_else(|| rendered.get().and_then(Result::ok))
    };
    view! {
        <Suspense fallback=|| view! { <p class="muted">{t("home-loading")}</p> }>
            {move || {
                questions()
                    .map(|questions| {
                        let mut pending: Vec<Question> = questions
                            .iter()
                            .filter(|q| q.is_pending())
                            .cloned()
                            .collect();
                        pending.sort_by_key(|q| q.created_at);
                        let history: Vec<Question> = questions
                            .into_iter()
                            .filter(|q| !q.is_pending())
                            .collect();
                        view! {
                            <Waiting pending />
                            <History history />
                        }
                    })
            }}
        </Suspense>
    }
}

#[component]
fn Waiting(pending: Vec<Question>) -> impl IntoView {
    let empty = pending.is_empty();
    view! {
        <section class="panel" aria-labelledby="waiting-heading">
            <h1 id="waiting-heading">{t("home-waiting-heading")}</h1>
            <Show when=move || empty>
                <p class="empty">{t("home-empty-pending")}</p>
            </Show>
            <ul class="cards" aria-live="polite" data-testid="pending-list">
                {pending
                    .into_iter()
                    .map(|question| view! { <PendingCard question /> })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// The headline of a question in a list: its title, or its first question.
fn headline(question: &Question) -> String {
    question
        .title
        .clone()
        .filter(|title| !title.trim().is_empty())
        .or_else(|| question.questions.first().map(|sub| sub.question.clone()))
        .unwrap_or_default()
}

fn asked_at(question: &Question) -> String {
    question.created_at.format("%Y-%m-%d %H:%M UTC").to_string()
}

#[component]
fn PendingCard(question: Question) -> impl IntoView {
    let href = format!("/q/{}", question.id);
    let count = question.questions.len();
    let client = question.source.as_ref().and_then(|s| s.client.clone());
    let cwd = question.source.as_ref().and_then(|s| s.cwd.clone());
    view! {
        <li class="card pending" data-question-id=question.id.to_string()>
            <a href=href>
                <span class="headline">{headline(&question)}</span>
                <span class="meta">
                    {(count > 1).then(|| t_args("home-question-count", &[("count", count.into())]))}
                    {client.map(|client| view! { <span>{t_args("home-from", &[("client", client.into())])}</span> })}
                    {cwd.map(|cwd| view! { <span>{t_args("home-in", &[("cwd", cwd.into())])}</span> })}
                    <span>{t_args("home-asked-at", &[("time", asked_at(&question).into())])}</span>
                </span>
            </a>
        </li>
    }
}

#[component]
fn History(history: Vec<Question>) -> impl IntoView {
    let empty = history.is_empty();
    view! {
        <section class="panel" aria-labelledby="history-heading">
            <h2 id="history-heading">{t("home-history-heading")}</h2>
            <Show when=move || empty>
                <p class="empty">{t("home-empty-history")}</p>
            </Show>
            <ul class="cards" data-testid="history-list">
                {history
                    .into_iter()
                    .map(|question| view! { <HistoryCard question /> })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// The answers in one line: chosen labels and free text, per sub-question.
pub fn answer_summary(question: &Question) -> String {
    question
        .answers
        .iter()
        .flatten()
        .map(|answer| {
            let mut parts = answer.selected.clone();
            parts.extend(answer.free_text.clone());
            parts.join(", ")
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[component]
fn HistoryCard(question: Question) -> impl IntoView {
    let href = format!("/q/{}", question.id);
    let summary = answer_summary(&question);
    view! {
        <li class="card closed" data-question-id=question.id.to_string()>
            <a href=href>
                <span class="headline">{headline(&question)}</span>
                <span class="meta">
                    <StatusChip status=question.status />
                    <span class="answer">{summary}</span>
                </span>
            </a>
        </li>
    }
}
