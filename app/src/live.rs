//! The live state of the UI: questions, config and connection, kept current over `/api/ws` in
//! the browser (gloo-net, reconnecting with backoff and rebuilding from `init`).

use hark_core::model::{Config, Event, Question, QuestionId};
use leptos::prelude::*;

/// How the page's WebSocket stands, shown by the connection dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// Before the first attempt (and always on the server).
    Connecting,
    Live,
    Reconnecting,
    Offline,
}

/// Reactive state shared by every page through context.
#[derive(Clone, Copy)]
pub struct Live {
    /// `None` until the first `init`; pages fall back to their server-rendered data until then.
    pub questions: RwSignal<Option<Vec<Question>>>,
    pub config: RwSignal<Option<Config>>,
    pub connection: RwSignal<Connection>,
    /// The clock that relative ages follow; ticks in the browser.
    pub now: RwSignal<chrono::DateTime<chrono::Utc>>,
}

impl Live {
    /// Creates the state and provides it to every component below.
    pub fn provide() -> Live {
        let live = Live {
            questions: RwSignal::new(None),
            config: RwSignal::new(None),
            connection: RwSignal::new(Connection::Connecting),
            now: RwSignal::new(chrono::Utc::now()),
        };
        provide_context(live);
        live
    }

    /// The state provided by `App`.
    pub fn expect() -> Live {
        expect_context::<Live>()
    }

    /// Applies one event from the daemon.
    pub fn apply(&self, event: Event) {
        match event {
            Event::Init(init) => {
                self.questions.set(Some(init.questions));
                self.config.set(Some(init.config));
            }
            Event::QuestionCreated(question) | Event::QuestionUpdated(question) => {
                self.upsert(question)
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                // Dealt with, here or on another device: its draft has served its purpose.
                #[cfg(feature = "hydrate")]
                crate::components::draft::forget(question.id);
                self.upsert(question);
            }
            Event::QuestionRemind(_) => {}
            Event::ConfigUpdated(config) => self.config.set(Some(config)),
        }
    }

    fn upsert(&self, question: Question) {
        self.questions.update(|questions| {
            let Some(questions) = questions else { return };
            match questions.iter_mut().find(|known| known.id == question.id) {
                Some(known) => *known = question,
                None => questions.insert(0, question),
            }
        });
    }

    /// The live copy of one question, when the stream has it.
    pub fn question(&self, id: QuestionId) -> Option<Question> {
        self.questions
            .read()
            .as_ref()
            .and_then(|questions| questions.iter().find(|q| q.id == id).cloned())
    }
}

/// How often relative ages ("3 min ago") are refreshed.
#[cfg(feature = "hydrate")]
const AGE_TICK_MS: u32 = 20_000;

/// Something that hears each event before it is applied (the page's attention signals); given
/// by `App`, so this module knows nothing of what listens.
pub type Listener = fn(Live, &Event);

/// Opens the event stream at once and reads it once the whole page has hydrated (see
/// `hydration_finished`), handing each event to `listener` first; does nothing on the server.
/// The handshake thus overlaps hydration (and a lazy route's download) instead of following it.
pub fn connect(live: Live, listener: Listener) {
    #[cfg(feature = "hydrate")]
    let opened = browser::open();
    #[cfg(feature = "hydrate")]
    WHEN_HYDRATED.with(|start| {
        *start.borrow_mut() = Some(Box::new(move || {
            if let Some(body) = document().body() {
                let _ = body.set_attribute("data-hydrated", "true");
            }
            leptos::task::spawn_local(browser::run(live, listener, opened));
            leptos::task::spawn_local(async move {
                loop {
                    gloo_timers::future::TimeoutFuture::new(AGE_TICK_MS).await;
                    live.now.set(chrono::Utc::now());
                }
            });
        }));
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (live, listener);
}

#[cfg(feature = "hydrate")]
thread_local! {
    /// What `connect` starts once hydration is over.
    static WHEN_HYDRATED: std::cell::RefCell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Called by the entry point once every part of the page has hydrated, the lazily loaded
/// routes included. Only then is the event stream read (the socket keeps what arrives until
/// then): hydration must find exactly the nodes the server sent, and an event applied while a
/// lazy route's code is still loading would change what that route renders (a question closed
/// meanwhile, quick replies that arrived with the config), which breaks hydration.
#[cfg(feature = "hydrate")]
pub fn hydration_finished() {
    if let Some(start) = WHEN_HYDRATED.with(|start| start.borrow_mut().take()) {
        start();
    }
}

#[cfg(feature = "hydrate")]
mod browser {
    use super::{Connection, Listener, Live};
    use futures::StreamExt;
    use gloo_net::websocket::{Message, futures::WebSocket};
    use gloo_timers::future::TimeoutFuture;
    use hark_core::model::Event;
    use leptos::prelude::*;

    const FIRST_RETRY_MS: u32 = 500;
    const MAX_RETRY_MS: u32 = 15_000;
    /// After this many failed attempts in a row the dot says "offline" rather than "reconnecting".
    const ATTEMPTS_BEFORE_OFFLINE: u32 = 4;

    fn events_url() -> Option<String> {
        let location = window().location();
        let scheme = if location.protocol().ok()? == "https:" {
            "wss"
        } else {
            "ws"
        };
        Some(format!("{scheme}://{}/api/ws", location.host().ok()?))
    }

    /// A new connection to the event stream; it keeps what arrives until it is read.
    pub fn open() -> Option<WebSocket> {
        events_url().and_then(|url| WebSocket::open(&url).ok())
    }

    /// Reads the stream from `opened` on, reconnecting whenever it ends.
    pub async fn run(live: Live, listener: Listener, mut opened: Option<WebSocket>) {
        let mut retry_ms = FIRST_RETRY_MS;
        let mut failures = 0;
        loop {
            if let Some(socket) = opened.take().or_else(open) {
                let (_keep_open, mut incoming) = socket.split();
                while let Some(Ok(message)) = incoming.next().await {
                    let Message::Text(text) = message else {
                        continue;
                    };
                    let Ok(event) = serde_json::from_str::<Event>(&text) else {
                        continue;
                    };
                    listener(live, &event);
                    if matches!(event, Event::Init(_)) {
                        live.connection.set(Connection::Live);
                        retry_ms = FIRST_RETRY_MS;
                        failures = 0;
                    }
                    live.apply(event);
                }
            }
            failures += 1;
            live.connection.set(if failures >= ATTEMPTS_BEFORE_OFFLINE {
                Connection::Offline
            } else {
                Connection::Reconnecting
            });
            TimeoutFuture::new(retry_ms).await;
            retry_ms = (retry_ms * 2).min(MAX_RETRY_MS);
        }
    }
}
