//! The engine in process, with a fake `ChatApp` on a paused clock: the real relay, store, engine
//! and link supervisor, and a fake service whose every call is recorded (and can fail, or
//! forget a message). Pairing and re-pairing, strangers, a tap into `store.close`, a question
//! answered elsewhere, an outage and its pauses, the record across a restart, reminders, `tell`
//! and replies, and the link's schedule.

use super::*;
use crate::channels::{Channel, walk::Tap};
use crate::daemon::secrets::Secrets;
use crate::security::access::Access;
use crate::security::token::Tokens;
use hark_core::model::{AskRequest, Status};
use hark_core::store::{Outcome, Store};
use serde_json::json;
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Longest any wait for the engine may take (on the paused clock, it costs nothing).
const PATIENCE: Duration = Duration::from_secs(3600);

/// What the fake service was asked.
#[derive(Clone, Debug, PartialEq)]
enum Call {
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

/// A failure of the fake service.
#[derive(Debug)]
struct Failure {
    passing: bool,
    gone: bool,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(if self.gone { "gone" } else { "unreachable" })
    }
}

impl ChatError for Failure {
    fn passing(&self) -> bool {
        self.passing
    }

    fn gone(&self) -> bool {
        self.gone
    }
}

/// The fake service's state, shared with the test.
#[derive(Default)]
struct Service {
    calls: Mutex<Vec<(Instant, Call)>>,
    /// Posting attempts, failed ones too.
    attempts: Mutex<Vec<Instant>>,
    called: Notify,
    down: AtomicBool,
    next_id: AtomicU64,
    gone: Mutex<HashSet<String>>,
    /// How the next connections end; past them, one stays open until woken.
    endings: Mutex<VecDeque<LinkEnded>>,
    listens: Mutex<Vec<Instant>>,
    inbounds: tokio::sync::Mutex<Option<mpsc::Receiver<Inbound<u32>>>>,
}

impl Service {
    fn record(&self, call: Call) {
        self.calls.lock().unwrap().push((Instant::now(), call));
        self.called.notify_waiters();
    }

    fn listened(&self) {
        self.listens.lock().unwrap().push(Instant::now());
        self.called.notify_waiters();
    }

    /// Waits until the app has listened `count` times.
    async fn wait_listens(&self, count: usize) {
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

    fn calls(&self) -> Vec<Call> {
        self.calls
            .lock()
            .unwrap()
            .iter()
            .map(|(_, call)| call.clone())
            .collect()
    }

    /// Waits until a call `matches`, and returns it.
    async fn wait(&self, what: &str, matches: impl Fn(&Call) -> bool) -> Call {
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
    async fn posted(&self, text: &str) -> (String, String) {
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

    fn posts_of(&self, text: &str) -> usize {
        self.calls()
            .iter()
            .filter(|call| matches!(call, Call::Post { view, .. } if view.contains(text)))
            .count()
    }
}

/// The fake app: Slack's config section is its settings (the engine reads only `enabled` and
/// the person).
struct Fake(Arc<Service>);

#[async_trait::async_trait]
impl ChatApp for Fake {
    const NAME: ChannelName = ChannelName::Slack;
    const RECORD: &'static str = "fake.json";
    const ASKS_IN_A_WINDOW: bool = true;

    type Line = ();
    type Message = String;
    type View = String;
    type Error = Failure;
    /// Which inbound a response answers; 0 for those whose notices go in the chat.
    type Responder = u32;
    type LinkState = ();

    fn on(channels: &Channels) -> bool {
        channels.slack.enabled
    }

    fn person(channels: &Channels) -> Option<String> {
        channels.slack.user_id.clone()
    }

    fn set_person(channels: &mut Channels, person: Option<String>) {
        channels.slack.user_id = person;
    }

    fn set_enabled(channels: &mut Channels, enabled: bool) {
        channels.slack.enabled = enabled;
    }

    fn line(&self, relay: &Relay) -> Option<()> {
        relay
            .store
            .read_config(|config| config.channels.slack.enabled)
            .then_some(())
    }

    fn server(_: &()) -> &str {
        "fake"
    }

    fn link_key(_: &()) -> u64 {
        0
    }

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

    async fn open(&self, _: &(), person: &str) -> Result<String, Failure> {
        if self.0.down.load(Ordering::SeqCst) {
            return Err(Failure {
                passing: true,
                gone: false,
            });
        }
        Ok(format!("D-{person}"))
    }

    async fn post(&self, _: &(), to: &str, view: &String) -> Result<String, Failure> {
        self.0.attempts.lock().unwrap().push(Instant::now());
        if self.0.down.load(Ordering::SeqCst) {
            return Err(Failure {
                passing: true,
                gone: false,
            });
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
    ) -> Result<(), Failure> {
        if self.0.down.load(Ordering::SeqCst) {
            return Err(Failure {
                passing: true,
                gone: false,
            });
        }
        if self.0.gone.lock().unwrap().contains(message) {
            return Err(Failure {
                passing: false,
                gone: true,
            });
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
            Response::AskReply { awaiting, .. } => (format!("ask {awaiting:?}"), Responded::Done),
        };
        self.0.record(Call::Respond { to, response: said });
        responded
    }

    async fn listen(&self, listening: &Listening<'_, Self>, line: &(), _: &mut ()) -> LinkEnded {
        self.0.listened();
        if let Some(ended) = self.0.endings.lock().unwrap().pop_front() {
            return ended;
        }
        listening.connected(line, true);
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

    async fn setup(
        &self,
        _: &Arc<Relay>,
        shared: &Shared,
        _: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        let code = shared.codes.issue().map_err(|error| ActionRefusal {
            status: 500,
            body: hark_core::model::ErrorBody::new(error.to_string()),
            refusal: None,
        })?;
        Ok(json!({ "code": code.code }))
    }

    async fn forget_credentials(&self, _: &Arc<Relay>) -> Result<(), ChannelError> {
        Ok(())
    }

    fn report(&self, _: &Relay, _: &Shared, _: &mut ChannelsReport) {}

    fn own_report(&self, _: &Relay, _: &Shared) -> Result<serde_json::Value, ActionRefusal> {
        Ok(json!({}))
    }
}

/// A daemon's relay with only the fake app, started.
struct World {
    relay: Arc<Relay>,
    channel: Arc<dyn Channel>,
    service: Arc<Service>,
    /// What the fake service delivers to the app's connection.
    inbounds: mpsc::Sender<Inbound<u32>>,
    shutdown: CancellationToken,
}

impl World {
    async fn start(home: Option<&std::path::Path>, config: serde_json::Value) -> World {
        let shutdown = CancellationToken::new();
        let (store, _) = Store::open(home, shutdown.clone());
        store
            .update_config(&json!({"language": "en"}))
            .await
            .unwrap();
        store.update_config(&config).await.unwrap();
        let service = Arc::new(Service::default());
        let (inbounds, receiver) = mpsc::channel(64);
        *service.inbounds.lock().await = Some(receiver);
        let channel: Arc<dyn Channel> = Arc::new(ChatChannel::new(Fake(service.clone())));
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
            shutdown,
        }
    }

    /// A world whose person `ME` is paired already.
    async fn paired(home: Option<&std::path::Path>) -> World {
        World::start(
            home,
            json!({"channels": {"slack": {"enabled": true, "userId": ME}}, "remindSecs": 0}),
        )
        .await
    }

    async fn deliver(&self, inbound: Inbound<u32>) {
        self.inbounds.send(inbound).await.unwrap();
    }

    async fn say(&self, from: &str, text: &str, replying_to: Option<&str>) {
        self.deliver(Inbound::Said {
            id: None,
            from: from.into(),
            at: format!("D-{from}"),
            text: text.into(),
            replying_to: replying_to.map(str::to_string),
            private: true,
        })
        .await;
    }

    async fn ask(&self, text: &str, options: &[&str]) -> Question {
        let request: AskRequest = serde_json::from_value(json!({
            "questions": [{"question": text, "options":
                options.iter().map(|label| json!({"label": label})).collect::<Vec<_>>()}],
            "source": {"client": "claude-code", "cwd": "/work/hark"}
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

    async fn status_of(&self, id: QuestionId) -> Status {
        self.relay.store.get(id).await.unwrap().status
    }

    async fn pairing_code(&self) -> String {
        let answer = self
            .channel
            .act(&self.relay, "setup", json!({}))
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

const ME: &str = "UME00001";
const OTHER: &str = "UOTHER002";
const STRANGER: &str = "USTRANGER3";

fn tap(from: &str, question: &Question, step: usize, tap: Tap, to: u32) -> Inbound<u32> {
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

#[tokio::test(start_paused = true)]
async fn pairing_takes_the_right_code_once_and_strangers_hear_only_a_few_refusals() {
    let world = World::start(
        None,
        json!({"channels": {"slack": {"enabled": true}}, "remindSecs": 0}),
    )
    .await;
    let code = world.pairing_code().await;
    world.say(ME, "pair WRONGCODE", None).await;
    world.service.posted("That code is not right").await;
    world.say(ME, &format!("pair {code}"), None).await;
    let (to, _) = world.service.posted("Paired").await;
    assert_eq!(to, format!("D-{ME}"));
    let person = world
        .relay
        .store
        .read_config(|config| config.channels.slack.user_id.clone());
    assert_eq!(person.as_deref(), Some(ME));
    // Used once: the same code again is wrong.
    world.say(OTHER, &format!("pair {code}"), None).await;
    world
        .service
        .wait("the refusal of a used code", |call| {
            matches!(call, Call::Post { to, view, .. }
                if *to == format!("D-{OTHER}") && view.contains("That code is not right"))
        })
        .await;

    world.say(STRANGER, "hello?", None).await;
    world.service.posted("Sorry, this Slack bot").await;
    for _ in 0..7 {
        world.say(STRANGER, "hello?", None).await;
    }
    // The person's hint comes after every reply to the strangers was posted, in order.
    world.say(ME, "hello", None).await;
    world.service.posted("Use the buttons").await;
    let to_stranger = world
        .service
        .calls()
        .iter()
        .filter(|call| matches!(call, Call::Post { to, .. } if *to == format!("D-{STRANGER}")))
        .count();
    assert_eq!(to_stranger, 5, "at most five replies to a stranger");
    assert_eq!(world.relay.report().channels[0].failures, 0);
}

#[tokio::test(start_paused = true)]
async fn someone_else_pairing_tells_the_one_before_and_moves_the_questions() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (to, _) = world.service.posted("pending Deploy now?").await;
    assert_eq!(to, format!("D-{ME}"));
    let code = world.pairing_code().await;
    world.say(OTHER, &format!("pair {code}"), None).await;
    let (told, _) = world.service.posted("no longer paired").await;
    assert_eq!(told, format!("D-{ME}"));
    world.service.posted("Paired").await;
    world
        .service
        .wait("the question in the new chat", |call| {
            matches!(call, Call::Post { to, view, .. }
                if *to == format!("D-{OTHER}") && view.contains("Deploy now?"))
        })
        .await;
    // The one before can no longer answer; the new person can.
    world.deliver(tap(ME, &question, 0, Tap::Pick(1), 7)).await;
    world
        .service
        .wait("the stranger's refusal", |call| {
            matches!(call, Call::Respond { to: 7, response } if response.starts_with("stranger"))
        })
        .await;
    world
        .deliver(tap(OTHER, &question, 0, Tap::Pick(0), 8))
        .await;
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { view, .. } if view.starts_with("closed Deploy now?"))
        })
        .await;
    assert_eq!(world.status_of(question.id).await, Status::Answered);
    let answered = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(answered.answers.unwrap()[0].selected, ["Yes"]);
}

#[tokio::test(start_paused = true)]
async fn a_walk_goes_into_the_store_and_a_question_closed_elsewhere_refuses_later_taps() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Deploy now?").await;
    // "Other…" opens a window for the person's words, which answer.
    world.deliver(tap(ME, &question, 0, Tap::OwnWords, 1)).await;
    world
        .service
        .wait(
            "the window",
            |call| matches!(call, Call::Respond { to: 1, response } if response == "ask OwnWords"),
        )
        .await;
    world
        .deliver(Inbound::Words {
            from: ME.into(),
            id: question.id,
            step: 0,
            awaiting: Awaiting::OwnWords,
            text: "tomorrow".into(),
            responder: 2,
        })
        .await;
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.starts_with("closed"))
        })
        .await;
    let answered = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(
        answered.answers.unwrap()[0].free_text.as_deref(),
        Some("tomorrow")
    );

    // Closed on the page: the message shows it, and a tap says it is closed.
    let second = world.ask("Ship it?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Ship it?").await;
    world
        .relay
        .store
        .close(second.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.contains("Declined"))
        })
        .await;
    world.deliver(tap(ME, &second, 0, Tap::Pick(0), 0)).await;
    world.service.posted("already answered or closed").await;
    assert_eq!(world.status_of(second.id).await, Status::Declined);
}

#[tokio::test(start_paused = true)]
async fn an_outage_is_tried_again_on_the_pause_schedule_then_everything_goes_out_in_order() {
    let world = World::paired(None).await;
    world.service.down.store(true, Ordering::SeqCst);
    world.ask("First?", &["Yes"]).await;
    world.ask("Second?", &["Yes"]).await;
    // Let a few pauses pass (the paused clock jumps), then the service comes back.
    tokio::time::sleep(Duration::from_secs(20)).await;
    world.service.down.store(false, Ordering::SeqCst);
    world.service.posted("Second?").await;
    let posts: Vec<String> = world
        .service
        .calls()
        .into_iter()
        .filter_map(|call| match call {
            Call::Post { view, .. } => Some(view),
            _ => None,
        })
        .collect();
    assert!(
        posts[0].contains("First?") && posts[1].contains("Second?"),
        "{posts:?}"
    );
    // The engine opens the conversation before it posts: its tries while down failed there,
    // so the posting attempts are the ones after the service came back.
    let status = &world.relay.report().channels[0];
    assert!(status.failures >= 4, "{status:?}");
    assert_eq!(status.last_error.as_deref(), Some("unreachable"));
    assert!(status.sent >= 1);
}

#[tokio::test(start_paused = true)]
async fn the_pauses_between_tries_double_up_to_thirty_seconds() {
    let world = World::paired(None).await;
    world.ask("First?", &["Yes"]).await;
    world.service.posted("First?").await;
    world.service.down.store(true, Ordering::SeqCst);
    world.service.attempts.lock().unwrap().clear();
    // A reply to post while down.
    world.say(ME, "hello", None).await;
    tokio::time::sleep(Duration::from_secs(120)).await;
    let attempts = world.service.attempts.lock().unwrap().clone();
    let pauses: Vec<u64> = attempts
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).as_secs())
        .collect();
    assert_eq!(pauses[..6], [1, 2, 4, 8, 16, 30], "{pauses:?}");
    world.service.down.store(false, Ordering::SeqCst);
    world.service.posted("Use the buttons").await;
}

#[tokio::test(start_paused = true)]
async fn after_a_restart_messages_are_updated_not_posted_again_unless_they_are_gone() {
    let home = tempfile::tempdir().unwrap();
    let first = World::paired(Some(home.path())).await;
    let kept = first.ask("Kept?", &["Yes"]).await;
    let deleted = first.ask("Deleted?", &["Yes"]).await;
    let (_, kept_message) = first.service.posted("pending Kept?").await;
    let (_, deleted_message) = first.service.posted("pending Deleted?").await;
    // The record is written after the posts.
    first.say(ME, "hello", None).await;
    first.service.posted("Use the buttons").await;
    // The first engine loses its service for good (it changes nothing from now on), and a
    // second engine starts over the same store (its questions still pending) and home, as the
    // daemon's after a restart.
    first.service.down.store(true, Ordering::SeqCst);
    let store = first.relay.store.clone();
    let service = Arc::new(Service::default());
    service.gone.lock().unwrap().insert(deleted_message.clone());
    let channel: Arc<dyn Channel> = Arc::new(ChatChannel::new(Fake(service.clone())));
    let relay = Relay::new(
        store,
        Arc::new(Secrets::load(None)),
        Arc::new(Access::new(Tokens::new(None), false, false, &[])),
        0,
        Some(home.path().to_path_buf()),
        vec![channel],
    );
    relay.start();
    service
        .wait(
            "the kept message updated",
            |call| matches!(call, Call::Update { id, .. } if *id == kept_message),
        )
        .await;
    service.posted("pending Deleted?").await;
    assert_eq!(service.posts_of("Kept?"), 0, "{:#?}", service.calls());
    assert_eq!(first.status_of(kept.id).await, Status::Pending);
    assert_eq!(first.status_of(deleted.id).await, Status::Pending);
}

#[tokio::test(start_paused = true)]
async fn reminders_and_tell_reach_the_person_and_the_agent() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Deploy now?").await;
    // The store's reminder, as the relay hands it on.
    let remind = Arc::new(hark_core::model::Event::QuestionRemind(
        hark_core::model::RemindData {
            ids: vec![question.id],
        },
    ));
    world
        .channel
        .handle(&world.relay, &remind, &world.relay.store.config());
    world.service.posted("reminder of 1").await;

    world.say(ME, "tell use the staging database", None).await;
    world.service.posted("Sent to claude-code").await;
    world.say(ME, "and be quick", Some(&message)).await;
    world
        .service
        .wait("the second confirmation", |call| {
            matches!(call, Call::Post { view, .. } if view.contains("Sent to"))
                && world.service.posts_of("Sent to") == 2
        })
        .await;
    let mut texts: Vec<String> = world
        .relay
        .store
        .messages()
        .into_iter()
        .map(|message| message.text)
        .collect();
    texts.sort();
    assert_eq!(texts, ["and be quick", "use the staging database"]);
    // A reply to a closed question's message still reaches its agent.
    world
        .relay
        .store
        .close(question.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();
    world
        .service
        .wait(
            "the outcome",
            |call| matches!(call, Call::Update { view, .. } if view.contains("Declined")),
        )
        .await;
    world.say(ME, "never mind", Some(&message)).await;
    world
        .service
        .wait("the third confirmation", |_| {
            world.service.posts_of("Sent to") == 3
        })
        .await;
}

#[tokio::test(start_paused = true)]
async fn the_link_reconnects_on_one_schedule_and_refused_credentials_wait_for_new_settings() {
    let world = World::paired(None).await;
    let failed = || LinkEnded::Failed {
        reason: "unreachable".into(),
        retry_after: None,
    };
    // The first connection stays open; the test's scripted endings start with the second.
    world.service.wait_listens(1).await;
    world.service.endings.lock().unwrap().extend([
        failed(),
        failed(),
        failed(),
        LinkEnded::Again(Duration::ZERO),
        failed(),
        LinkEnded::Failed {
            reason: "slow down".into(),
            retry_after: Some(Duration::from_secs(7)),
        },
        LinkEnded::Refused("wrong token".into()),
    ]);
    // The open connection ends: the scripted ones follow.
    world.service.endings.lock().unwrap().push_front(failed());
    world
        .relay
        .store
        .update_config(&json!({"remindSecs": 1}))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(100)).await;
    let listens = world.service.listens.lock().unwrap().clone();
    let gaps: Vec<u64> = listens
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).as_secs())
        .collect();
    // Settings woke the open one; then 1, 2, 4 s of pauses; a real connection ends and the next
    // opens at once; 1 s again, then the 7 s asked for; then the refusal waits.
    assert_eq!(gaps.get(1..8), Some(&[1, 2, 4, 8, 0, 1, 7][..]), "{gaps:?}");
    let before = listens.len();
    // New settings end the wait for them.
    let changed = Instant::now();
    world
        .relay
        .store
        .update_config(&json!({"remindSecs": 2}))
        .await
        .unwrap();
    world.service.wait_listens(before + 1).await;
    let woken = *world.service.listens.lock().unwrap().last().unwrap();
    assert!(
        woken - changed < Duration::from_secs(1),
        "{:?}",
        woken - changed
    );
}
