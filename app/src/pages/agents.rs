//! `/agents` (SPEC §20): every agent session Hark knows, the one heard from last first: what it
//! is doing and since when, its directory, the last thing it said (its Markdown rendered by the
//! daemon), its questions waiting in Hark, and the box that tells it something. Live over the
//! event stream once hydrated; rendered whole by the server, so it reads and tells without
//! JavaScript. Phone-sized first: one column of cards.

use crate::components::age::Age;
#[cfg(feature = "ssr")]
use crate::components::failure_notice::FailureNotice;
use crate::components::tell_agent::TellAgentBox;
use crate::failure::Failure;
use crate::i18n::{t_args, tr};
use crate::live::Live;
#[cfg(feature = "ssr")]
use crate::server::data_block::DataBlock;
use hark_core::model::{AgentRef, AgentSession, Question};
use leptos::prelude::*;

/// Every session Hark knows, its last message rendered for the page.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn list_sessions() -> Result<Vec<AgentSession>, Failure> {
    let store = expect_context::<hark_core::store::Store>();
    Ok(store
        .sessions()
        .into_iter()
        .map(crate::server::render::session_for_page)
        .collect())
}

/// The data block that carries the sessions to the island (`crate::carried`).
const SESSIONS_ID: &str = "hark-sessions";
/// The data block that carries the questions waiting to the island.
const ASKED_ID: &str = "hark-asked";

/// The Agents page (server only): the island, given the sessions and the questions waiting as
/// the store has them now, or why the sessions could not be listed.
#[cfg(feature = "ssr")]
#[component]
pub fn AgentsPage() -> impl IntoView {
    let listed = crate::json::resource(
        || (),
        |_| async {
            let sessions = list_sessions().await?;
            // A card without its questions still says what its agent does.
            let mut asked = crate::pages::home::list_questions()
                .await
                .unwrap_or_default();
            // The cards show only the questions waiting.
            asked.retain(Question::is_pending);
            Ok::<_, Failure>((sessions, asked))
        },
    );
    view! {
        <Suspense fallback=|| view! { <p class="muted">{tr("agents-loading")}</p> }>
            {move || {
                listed
                    .get()
                    .map(|listed| match listed {
                        Ok((sessions, asked)) => {
                            view! {
                                <DataBlock id=SESSIONS_ID value=sessions>
                                    <DataBlock id=ASKED_ID value=asked>
                                        <AgentsView />
                                    </DataBlock>
                                </DataBlock>
                            }
                                .into_any()
                        }
                        Err(failure) => {
                            view! {
                                <h1>{tr("agents-title")}</h1>
                                <FailureNotice failure />
                            }
                                .into_any()
                        }
                    })
            }}
        </Suspense>
    }
}

/// The sessions, live over the event stream; a lazy island (its code loads with the page
/// that holds it).
#[island(lazy)]
fn AgentsView() -> impl IntoView {
    let live = Live::expect();
    let listed: Vec<AgentSession> = crate::carried::carried(SESSIONS_ID);
    let asked: Vec<Question> = crate::carried::carried(ASKED_ID);
    let sessions = move || live.sessions.get().unwrap_or_else(|| listed.clone());
    // The questions waiting, for each card: the live stream's, else what the server listed.
    // Read whole once per change, not once per card.
    let questions: Signal<Vec<Question>> =
        Memo::new(move |_| live.whole_questions().unwrap_or_else(|| asked.clone())).into();
    view! {
        <h1>{tr("agents-title")}</h1>
        {move || {
            let sessions = sessions();
            if sessions.is_empty() {
                return view! {
                    <p class="muted" data-testid="no-sessions">{tr("agents-empty")}</p>
                }
                .into_any();
            }
            sessions
                .into_iter()
                .map(|session| view! { <SessionCard session questions /> })
                .collect_view()
                .into_any()
        }}
    }
}

/// One session's card.
#[component]
fn SessionCard(session: AgentSession, questions: Signal<Vec<Question>>) -> impl IntoView {
    let agent = session.agent.clone();
    let state = session.state.name();
    let asking = {
        let agent = agent.clone();
        move || {
            let waiting: Vec<Question> = (questions.get().into_iter())
                .filter(|question| question.is_pending() && asked_by(question, &agent))
                .collect();
            (!waiting.is_empty()).then(|| {
                let links = waiting
                    .into_iter()
                    .map(|question| {
                        let href = format!("/q/{}", question.id);
                        let headline = question.shown_headline().to_string();
                        view! { <li><a href=href data-testid="session-question">{headline}</a></li> }
                    })
                    .collect_view();
                view! {
                    <div class="session-questions">
                        <h3>{tr("agents-questions")}</h3>
                        <ul>{links}</ul>
                    </div>
                }
            })
        }
    };
    let said = match (session.shown, session.last_message) {
        (Some(html), _) => {
            Some(view! { <div class="markdown said" inner_html=html></div> }.into_any())
        }
        (None, Some(text)) => Some(view! { <div class="said">{text}</div> }.into_any()),
        (None, None) => None,
    };
    view! {
        <article class="session" data-testid="session" data-state=state>
            <header>
                <h2>{agent.label()}</h2>
                <p class="meta">
                    <span class=format!("session-state {state}") data-testid="session-state">
                        {t_args("session-state", &[("state", state.into())])}
                    </span>
                    " · "
                    <Age then=session.since />
                </p>
                {agent.cwd.clone().map(|cwd| view! { <p class="muted cwd"><code>{cwd}</code></p> })}
            </header>
            {said}
            {asking}
            <TellAgentBox agent back="/agents".to_string() />
        </article>
    }
}

/// Whether `question` was asked by `agent`.
fn asked_by(question: &Question, agent: &AgentRef) -> bool {
    question
        .source
        .as_ref()
        .and_then(AgentRef::of)
        .is_some_and(|asker| asker.matches(agent))
}
