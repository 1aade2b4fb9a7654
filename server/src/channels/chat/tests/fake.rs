//! The fake chat app and its world: the real relay, store, engine and link supervisor around a
//! fake service whose every call is recorded (and can fail, or forget a message).

use crate::channels::Relay;
use crate::channels::chat::*;
use crate::channels::walk::Walk;
use crate::channels::{Channel, walk::Tap};
use crate::daemon::secrets::Secrets;
use crate::security::access::Access;
use crate::security::token::Tokens;
use hark_core::model::channels::telegram::TelegramRefusal;
use hark_core::model::{AskRequest, Status};
use hark_core::model::{ChannelName, ChannelSummary, ChannelsReport, Question, QuestionId};
use hark_core::store::Store;
use hark_text::Lang;
use serde_json::json;
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Longest any wait for the engine may take (on the paused clock, it costs nothing).
pub(super) const PATIENCE: Duration = Duration::from_secs(3600);

/// What the fake service was asked.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Call {
    Post {
        to: String,
        id: String,
        view: String,
    },
    Update {
        id: String,
        view: String,
    },
    Respond {
        to: u32,
        response: String,
    },
}

/// What the fake service's calls fail with while it is down.
fn down() -> ServiceError {
    ServiceError::Unreachable {
        app: ChannelName::Slack,
        reason: "the fake service is down".into(),
    }
}

/// The fake service's state, shared with the test.
#[derive(Default)]
pub(super) struct Service {
    pub(super) calls: Mutex<Vec<(Instant, Call)>>,
    /// Posting attempts, failed ones too.
    pub(super) attempts: Mutex<Vec<Instant>>,
    pub(super) called: Notify,
    pub(super) down: AtomicBool,
    pub(super) next_id: AtomicU64,
    pub(super) gone: Mutex<HashSet<String>>,
    /// How the next connections end; past them, one stays open until woken.
    pub(super) endings: Mutex<VecDeque<LinkEnded>>,
    pub(super) listens: Mutex<Vec<Instant>>,
    pub(super) inbounds: tokio::sync::Mutex<Option<mpsc::Receiver<Inbound<u32>>>>,
}

impl Service {
    pub(super) fn record(&self, call: Call) {
        self.calls.lock().unwrap().push((Instant::now(), call));
        self.called.notify_waiters();
    }

    pub(super) fn listened(&self) {
        self.listens.lock().unwrap().push(Instant::now());
        self.called.notify_waiters();
    }

    /// Waits until the app has listened `count` times.
    pub(super) async fn wait_listens(&self, count: usize) {
        let waiting = async {
            loop {
                let listened = self.called.notified();
                if self.listens.lock().unwrap().len() >= count {
                    return;
                }
                listened.await;
            }
        };
        tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("the app did not listen {count} times"));
    }

    pub(super) fn calls(&self) -> Vec<Call> {
        self.calls
            .lock()
            .unwrap()
            .iter()
            .map(|(_, call)| call.clone())
            .collect()
    }

    /// Waits until a call `matches`, and returns it.
    pub(super) async fn wait(&self, what: &str, matches: impl Fn(&Call) -> bool) -> Call {
        let waiting = async {
            loop {
                let called = self.called.notified();
                if let Some(call) = self.calls().into_iter().find(&matches) {
                    return call;
                }
                called.await;
            }
        };
        tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("no {what} in {:#?}", self.calls()))
    }

    /// Waits for a post whose view contains `text`.
    pub(super) async fn posted(&self, text: &str) -> (String, String) {
        match self
            .wait(
                &format!("post of {text:?}"),
                |call| matches!(call, Call::Post { view, .. } if view.contains(text)),
            )
            .await
        {
            Call::Post { to, id, .. } => (to, id),
            _ => unreachable!(),
        }
    }

    pub(super) fn posts_of(&self, text: &str) -> usize {
        self.calls()
            .iter()
            .filter(|call| matches!(call, Call::Post { view, .. } if view.contains(text)))
            .count()
    }
}

/// The fake app: Slack's config section is its settings (the engine reads only `enabled` and
/// the person). `WORDS` makes it an app whose words answer, as Telegram: "Other…" sends a
/// prompt, and only `/tell` tells.
pub(super) struct Fake<const WORDS: bool>(pub(super) Arc<Service>);

#[async_trait::async_trait]
impl<const WORDS: bool> ChatApp for Fake<WORDS> {
    const NAME: ChannelName = ChannelName::Slack;
    const RECORD: &'static str = "fake.json";
    const ASKS_IN_A_WINDOW: bool = !WORDS;
    const WORDS_ANSWER: bool = WORDS;
    const BARE_TELL: bool = !WORDS;

    type Line = ();
    type Message = String;
    /// Which inbound a response answers; 0 for those whose notices go in the chat.
    type Responder = u32;
    type LinkState = ();

    fn line(&self, _: &Relay, _: &str) -> Option<()> {
        Some(())
    }

    fn link_key(_: &()) -> u64 {
        0
    }

    async fn open(&self, _: &(), person: &str) -> Result<String, ServiceError> {
        if self.0.down.load(Ordering::SeqCst) {
            return Err(down());
        }
        Ok(format!("D-{person}"))
    }

    async fn post(&self, _: &(), to: &str, view: &String) -> Result<String, ServiceError> {
        self.0.attempts.lock().unwrap().push(Instant::now());
        if self.0.down.load(Ordering::SeqCst) {
            return Err(down());
        }
        let id = format!("m{}", self.0.next_id.fetch_add(1, Ordering::SeqCst) + 1);
        self.0.record(Call::Post {
            to: to.to_string(),
            id: id.clone(),
            view: view.clone(),
        });
        Ok(id)
    }

    async fn update(
        &self,
        _: &(),
        _at: &str,
        message: &String,
        view: &String,
    ) -> Result<(), ServiceError> {
        if self.0.down.load(Ordering::SeqCst) {
            return Err(down());
        }
        if self.0.gone.lock().unwrap().contains(message) {
            return Err(
                ServiceError::refused(ChannelName::Slack, 404, 0, "gone").reading(false, true)
            );
        }
        self.0.record(Call::Update {
            id: message.clone(),
            view: view.clone(),
        });
        Ok(())
    }

    fn message_id(message: &String) -> String {
        message.clone()
    }

    async fn respond(&self, _: &(), to: u32, response: Response<'_>) -> Responded {
        let (said, responded) = match response {
            Response::Taken => ("taken".to_string(), Responded::Done),
            Response::Closed(text) => (format!("closed: {text}"), Responded::Done),
            Response::Notice(text) if to == 0 => (text.clone(), Responded::SayInChat(text)),
            Response::Notice(text) => (format!("notice {text}"), Responded::Done),
            Response::Stranger(text) => (format!("stranger {text}"), Responded::Done),
            Response::AskReply { awaiting, walk, .. } if WORDS => (
                format!("ask {awaiting:?}"),
                Responded::Prompted(format!("prompt-{}", walk.step)),
            ),
            Response::AskReply { awaiting, .. } => (format!("ask {awaiting:?}"), Responded::Done),
        };
        self.0.record(Call::Respond { to, response: said });
        responded
    }

    async fn listen(&self, listening: &Listening<'_, Self>, _: &(), _: &mut ()) -> LinkEnded {
        self.0.listened();
        if let Some(ended) = self.0.endings.lock().unwrap().pop_front() {
            return ended;
        }
        listening.connected(true);
        let mut inbounds = self.0.inbounds.lock().await;
        loop {
            let inbound = async {
                match inbounds.as_mut() {
                    Some(inbounds) => inbounds.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                inbound = inbound => match inbound {
                    Some(inbound) => listening.hand(inbound).await,
                    None => return LinkEnded::Again(Duration::ZERO),
                },
                stop = listening.woken() => {
                    return if stop { LinkEnded::Shutdown } else { LinkEnded::Settings };
                }
            }
        }
    }
}

impl<const WORDS: bool> ChatViews for Fake<WORDS> {
    type View = String;

    fn pending(&self, _: Lang, question: &Question, walk: &Walk) -> String {
        format!(
            "pending {} step {} ticked {:?}",
            question.questions[0].question, walk.step, walk.ticked
        )
    }

    fn closed(&self, _: Lang, question: &Question) -> String {
        format!(
            "closed {} {:?}",
            question.questions[0].question, question.status
        )
    }

    fn reminder(&self, _: Lang, waiting: &[Question]) -> String {
        format!("reminder of {}", waiting.len())
    }

    fn said(&self, text: &str) -> String {
        text.to_string()
    }
}

#[async_trait::async_trait]
impl<const WORDS: bool> ChatSettings for Fake<WORDS> {
    type Setup = serde::de::IgnoredAny;
    type Refusal = TelegramRefusal;
    type Report = serde_json::Value;

    async fn set_up(
        &self,
        _: &Arc<Relay>,
        shared: &Arc<Shared>,
        _: serde::de::IgnoredAny,
    ) -> Result<(), TelegramRefusal> {
        shared
            .codes
            .issue()
            .map(|_| ())
            .map_err(|_| TelegramRefusal::SaveFailed)
    }

    const CREDENTIALS: &'static [crate::daemon::secrets::BoundKey] = &[];
    const CREDENTIALS_NAMED: &'static str = "nothing";

    async fn forgot(&self, _: &Arc<Relay>) {}

    /// The pairing code waiting, for the tests to send.
    fn report(&self, _: &Relay, shared: &Shared) -> serde_json::Value {
        json!({ "code": shared.codes.waiting().map(|code| code.code) })
    }

    fn summary(_: &serde_json::Value) -> Option<ChannelSummary> {
        None
    }

    fn file(_: serde_json::Value, _: &mut ChannelsReport) {}
}

/// A daemon's relay with only the fake app, started.
pub(super) struct World {
    pub(super) relay: Arc<Relay>,
    pub(super) channel: Arc<dyn Channel>,
    pub(super) service: Arc<Service>,
    /// What the fake service delivers to the app's connection.
    inbounds: mpsc::Sender<Inbound<u32>>,
    shutdown: CancellationToken,
}

impl World {
    /// A world of the fake app whose words answer (as Telegram).
    pub(super) async fn with_words(config: serde_json::Value) -> World {
        World::of(None, config, |service| {
            Arc::new(ChatChannel::new(Fake::<true>(service)))
        })
        .await
    }

    pub(super) async fn start(home: Option<&std::path::Path>, config: serde_json::Value) -> World {
        World::of(home, config, |service| {
            Arc::new(ChatChannel::new(Fake::<false>(service)))
        })
        .await
    }

    async fn of(
        home: Option<&std::path::Path>,
        config: serde_json::Value,
        channel: impl FnOnce(Arc<Service>) -> Arc<dyn Channel>,
    ) -> World {
        let shutdown = CancellationToken::new();
        let (store, _) = Store::open(home, shutdown.clone());
        store
            .update_config(&json!({"language": "en"}))
            .await
            .unwrap();
        store.update_config(&config).await.unwrap();
        let mut world = World::over(store, home, channel).await;
        world.shutdown = shutdown;
        world
    }

    /// A second engine, with a service of its own, over `store` and `home`: as the daemon's
    /// after a restart.
    pub(super) async fn over(
        store: Store,
        home: Option<&std::path::Path>,
        channel: impl FnOnce(Arc<Service>) -> Arc<dyn Channel>,
    ) -> World {
        let service = Arc::new(Service::default());
        let (inbounds, receiver) = mpsc::channel(64);
        *service.inbounds.lock().await = Some(receiver);
        let channel = channel(service.clone());
        let relay = Relay::new(
            store,
            Arc::new(Secrets::load(None)),
            Arc::new(Access::new(Tokens::new(None), false, false, &[])),
            0,
            home.map(std::path::Path::to_path_buf),
            vec![channel.clone()],
        );
        relay.start();
        World {
            relay,
            channel,
            service,
            inbounds,
            // Not the store's: dropping a second engine's world leaves the store running.
            shutdown: CancellationToken::new(),
        }
    }

    /// `over` with the plain fake app.
    pub(super) async fn restarted(store: Store, home: &std::path::Path) -> World {
        World::over(store, Some(home), |service| {
            Arc::new(ChatChannel::new(Fake::<false>(service)))
        })
        .await
    }

    /// A world whose person `ME` is paired already.
    pub(super) async fn paired(home: Option<&std::path::Path>) -> World {
        World::start(
            home,
            json!({"channels": {"slack": {"enabled": true, "userId": ME}}, "remindSecs": 0}),
        )
        .await
    }

    pub(super) async fn deliver(&self, inbound: Inbound<u32>) {
        self.inbounds.send(inbound).await.unwrap();
    }

    pub(super) async fn say(&self, from: &str, text: &str, replying_to: Option<&str>) {
        self.deliver(Inbound::Said(crate::channels::chat::Said {
            id: None,
            from: from.into(),
            at: format!("D-{from}"),
            text: text.into(),
            replying_to: replying_to.map(str::to_string),
            private: true,
            written: None,
        }))
        .await;
    }

    pub(super) async fn ask(&self, text: &str, options: &[&str]) -> Question {
        self.ask_from("claude-code", text, options).await
    }

    /// A question from the agent `client`.
    pub(super) async fn ask_from(&self, client: &str, text: &str, options: &[&str]) -> Question {
        let request: AskRequest = serde_json::from_value(json!({
            "questions": [{"question": text, "options":
                options.iter().map(|label| json!({"label": label})).collect::<Vec<_>>()}],
            "source": {"client": client, "cwd": "/work/hark"}
        }))
        .unwrap();
        self.relay
            .store
            .create(request)
            .await
            .unwrap()
            .question()
            .clone()
    }

    pub(super) async fn status_of(&self, id: QuestionId) -> Status {
        self.relay.store.get(id).await.unwrap().status
    }

    pub(super) async fn pairing_code(&self) -> String {
        let answer = self
            .channel
            .act(
                &self.relay,
                hark_core::model::ChannelAction::Setup,
                json!({}),
            )
            .await
            .unwrap();
        answer["code"].as_str().unwrap().to_string()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

pub(super) const ME: &str = "UME00001";
pub(super) const OTHER: &str = "UOTHER002";
pub(super) const STRANGER: &str = "USTRANGER3";

pub(super) fn tap(from: &str, question: &Question, step: usize, tap: Tap, to: u32) -> Inbound<u32> {
    Inbound::Tap {
        from: from.into(),
        callback: crate::channels::walk::Callback {
            id: question.id,
            step,
            tap,
        },
        responder: to,
    }
}
