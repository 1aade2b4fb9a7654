//! The live state of the UI: questions, config and connection, kept current over `/api/ws` in
//! the browser (reconnecting with backoff and rebuilding from `init`; see `browser`, whose
//! headless twin on the server opens nothing). The first connection is the one the page's
//! first script opened (`server::early_socket`).

use hark_core::model::{AgentMessage, AgentSession, Event, Question, QuestionId, SessionState};
use leptos::prelude::*;

#[cfg_attr(not(feature = "hydrate"), path = "live/headless.rs")]
mod browser;
mod sent;

pub use sent::{KeptRefusal, LiveConfig, LiveMessage, LiveQuestion, Sent};

pub use browser::hydration_finished;

/// Where the page's first script leaves the event stream it opened, for `browser` to take over.
pub const EARLY_SOCKET: &str = "__harkEvents";

/// How often, at most, the page says that the person is typing in one question: the daemon
/// holds the question a minute past the last time it heard.
const TYPING_EVERY_SECS: i64 = 10;

/// How the page's WebSocket stands, shown by the connection dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// Before the first attempt (and always on the server).
    Connecting,
    Live,
    Reconnecting,
    Offline,
}

/// An event as the page reads it: each config, question and message as its brief beside its
/// whole text (`Sent`).
pub type PageEvent = Event<LiveConfig, LiveQuestion, LiveMessage>;

/// Reactive state shared by every page through context.
#[derive(Clone, Copy)]
pub struct Live {
    /// `None` until the first `init`; pages fall back to their server-rendered data until then.
    pub questions: RwSignal<Option<Vec<LiveQuestion>>>,
    pub config: RwSignal<Option<LiveConfig>>,
    /// The messages for agents, newest first; `None` until the first `init`.
    pub messages: RwSignal<Option<Vec<LiveMessage>>>,
    /// The agent sessions, the one heard from last first; `None` until the first `init`.
    pub sessions: RwSignal<Option<Vec<AgentSession>>>,
    pub connection: RwSignal<Connection>,
    /// The clock that relative ages follow; ticks in the browser.
    pub now: RwSignal<chrono::DateTime<chrono::Utc>>,
    /// The question the page last said the person types in, and when.
    typing_said: StoredValue<Option<(QuestionId, chrono::DateTime<chrono::Utc>)>>,
}

impl Live {
    /// Creates the state and provides it to every component below.
    pub fn provide() -> Live {
        let live = Live {
            questions: RwSignal::new(None),
            config: RwSignal::new(None),
            messages: RwSignal::new(None),
            sessions: RwSignal::new(None),
            connection: RwSignal::new(Connection::Connecting),
            now: RwSignal::new(chrono::Utc::now()),
            typing_said: StoredValue::new(None),
        };
        provide_context(live);
        live
    }

    /// The state provided by `App` on the server, and by `frontend`'s `hydrate()` in the browser.
    pub fn expect() -> Live {
        expect_context::<Live>()
    }

    /// Applies one event from the daemon.
    pub fn apply(&self, event: PageEvent) {
        match event {
            Event::Init(init) => {
                self.questions.set(Some(init.questions));
                self.config.set(Some(init.config));
                self.messages.set(Some(init.messages));
                self.sessions.set(Some(init.sessions));
            }
            Event::QuestionCreated(question) | Event::QuestionUpdated(question) => {
                self.upsert(question)
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                // Dealt with, here or on another device: its draft has served its purpose.
                crate::draft::forget(question.id);
                self.upsert(question);
            }
            Event::QuestionRemind(_) => {}
            Event::ConfigUpdated(config) => self.config.set(Some(config)),
            Event::MessageCreated(message) | Event::MessageDelivered(message) => {
                self.messages.update(|messages| {
                    let Some(messages) = messages else { return };
                    match messages.iter_mut().find(|known| known.id == message.id) {
                        Some(known) => *known = message,
                        None => messages.insert(0, message),
                    }
                });
            }
            Event::SessionUpdated(session) => self.sessions.update(|sessions| {
                let Some(sessions) = sessions else { return };
                let known = sessions.iter().position(|known| known.id == session.id);
                if let Some(known) = known {
                    sessions.remove(known);
                }
                if session.state != SessionState::Ended {
                    sessions.insert(0, session);
                }
            }),
        }
    }

    fn upsert(&self, question: LiveQuestion) {
        self.questions.update(|questions| {
            let Some(questions) = questions else { return };
            match questions.iter_mut().find(|known| known.id == question.id) {
                Some(known) => *known = question,
                None => questions.insert(0, question),
            }
        });
    }

    /// The person is editing an answer to `id`: the daemon is told (at most every
    /// `TYPING_EVERY_SECS`), so the question's time limit waits for them.
    pub fn typing(&self, id: QuestionId) {
        let now = chrono::Utc::now();
        let due = self.typing_said.with_value(|said| {
            said.as_ref().is_none_or(|(last_id, at)| {
                *last_id != id || (now - *at).num_seconds() >= TYPING_EVERY_SECS
            })
        });
        if due {
            self.typing_said.set_value(Some((id, now)));
            browser::say(&hark_core::model::PageSays::Typing { id });
        }
    }

    /// The live copy of one question, read whole, when the stream has it.
    pub fn question(&self, id: QuestionId) -> Option<Question> {
        self.questions
            .read()
            .as_ref()
            .and_then(|questions| questions.iter().find(|q| q.id == id)?.whole())
    }

    /// The live questions read whole, once the stream has them.
    pub fn whole_questions(&self) -> Option<Vec<Question>> {
        self.questions
            .read()
            .as_ref()
            .map(|questions| questions.iter().filter_map(Sent::whole).collect())
    }

    /// The live messages for agents read whole, newest first, once the stream has them.
    pub fn whole_messages(&self) -> Option<Vec<AgentMessage>> {
        self.messages
            .read()
            .as_ref()
            .map(|messages| messages.iter().filter_map(Sent::whole).collect())
    }
}

/// Something that hears each event before it is applied (the page's attention signals); given
/// by `App`, so this module knows nothing of what listens.
pub type Listener = fn(Live, &PageEvent);

/// Opens the event stream at once and reads it once the whole page has hydrated (see
/// `hydration_finished`), handing each event to `listener` first; does nothing on the server.
/// The handshake thus overlaps hydration (and a lazy island's download) instead of following it.
pub fn connect(live: Live, listener: Listener) {
    browser::connect(live, listener)
}
