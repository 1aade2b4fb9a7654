//! The one chat engine (SPEC §14): what every chat app does the same way, written once. An app
//! implements `ChatApp` (draw a view in its format, post, update, answer an inbound, listen to
//! its service, set up) and is handed to `ChatChannel`, which is the `Channel` the relay knows.
//!
//! - `engine`: the task that owns the conversations: one per pending question, the outbox and
//!   its order, the record of posted messages, reminders, the walk into `store.close`;
//! - `inbound`: what the person does (a tap, a ticked set, words in a form, a said text):
//!   steps of the walk, pairing and re-pairing, refusals to strangers, `tell` and replies;
//! - `pair`: pairing and re-pairing by a code; `typed`: a text-only app's one question at a
//!   time, answered by typing (WeChat); `notices`: an agent that finished or waits, said in
//!   the chat, and answered by a reply;
//! - `link`: the one supervisor of an app's connection (reconnects, wakes on settings, stops
//!   on shutdown); `pauses`: the one backoff schedule (`backon`), used by both;
//! - `channel`: the `Channel` every chat app is (start, events, test, unpair, forget, report);
//!   `credentials`: keeping and forgetting an app's secrets, and its `hark status` line;
//! - `words`: the shared pairing and chat words, with the app's name as a variable;
//! - `learned`: what an app learned from its service (who its bot is), kept while it runs;
//! - `service`: what an app's service answered, read one way (one error for every app's API
//!   client, and the exchange their calls go through).

mod channel;
pub mod credentials;
mod engine;
mod inbound;
pub mod learned;
pub mod link;
mod notices;
mod pair;
pub mod pauses;
pub mod service;
mod typed;
pub mod words;

#[cfg(test)]
mod tests;

pub use channel::{ChatChannel, Shared, refused};
pub use link::{LinkEnded, Listening};
pub use service::ServiceError;

use super::Relay;
use super::walk::{Awaiting, Callback, Walk};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::SetupRefusal;
use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelName, ChannelSummary, ChannelsReport, Question, QuestionId,
};
use hark_text::Lang;
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

/// How a chat app draws what the engine shows, in its own format (its `render.rs`).
pub trait ChatViews {
    /// A message as the app draws it.
    type View: Clone + PartialEq + Send + Sync + 'static;

    /// A pending question as the walk stands.
    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> Self::View;
    /// A closed question with its outcome, and no controls.
    fn closed(&self, lang: Lang, question: &Question) -> Self::View;
    /// A reminder of the questions still waiting.
    fn reminder(&self, lang: Lang, waiting: &[Question]) -> Self::View {
        self.said(&crate::channels::walk::shown::reminder(lang, waiting))
    }
    /// A plain text.
    fn said(&self, text: &str) -> Self::View;
    /// A text-only app's step on screen, with how many questions wait behind it; a reminder
    /// says it still waits.
    fn step(
        &self,
        lang: Lang,
        question: &Question,
        walk: &Walk,
        _waiting: usize,
        _reminder: bool,
    ) -> Self::View {
        self.pending(lang, question, walk)
    }
}

/// What a chat app keeps: its credentials and its report (its `setup.rs`); its part of the
/// settings is core's (`Channels::chat_app`).
#[async_trait::async_trait]
pub trait ChatSettings: Send + Sync {
    /// Its setup request (`POST /api/<app>/setup`), its refusal and its report, as core types
    /// them.
    type Setup: serde::de::DeserializeOwned + Send;
    type Refusal: SetupRefusal + Send;
    type Report: serde::Serialize;

    /// Sets the app up from `request`: checks and keeps the credentials it gives (or the saved
    /// ones), turns the app on and issues a pairing code (WeChat: starts a QR login).
    ///
    /// # Errors
    /// Its refusal, naming the field.
    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: Self::Setup,
    ) -> Result<(), Self::Refusal>;
    /// Its credentials in `secrets.json`, and what an error calls them.
    const CREDENTIALS: &'static [BoundKey];
    const CREDENTIALS_NAMED: &'static str;
    /// Drops what it learned with its credentials, once they are forgotten.
    async fn forgot(&self, relay: &Arc<Relay>);
    /// Its report: `GET /api/channels`, settings, and the answer of its actions.
    fn report(&self, relay: &Relay, shared: &Shared) -> Self::Report;
    /// Its line in `hark status`, once it has credentials.
    fn summary(report: &Self::Report) -> Option<ChannelSummary>;
    /// Files its report in the channels' report.
    fn file(report: Self::Report, into: &mut ChannelsReport);
}

/// A chat app: its wire, and what it alone knows. Everything else is the engine's.
#[async_trait::async_trait]
pub trait ChatApp: ChatViews + ChatSettings + Send + Sync + Sized + 'static {
    /// Its name in the config, statuses and commands.
    const NAME: ChannelName;
    /// The file under `HARK_HOME` that keeps its posted messages across restarts.
    const RECORD: &'static str;
    /// Whether "Other…" and "Skip" ask for words in a window of their own (a modal), so the
    /// message itself waits for nothing; otherwise the message shows the form, or a prompt
    /// asks for a reply.
    const ASKS_IN_A_WINDOW: bool;
    /// Whether a message that replies to a question (or to its prompt, or comes while a
    /// question waits for words) answers it in the person's words, as in Telegram; otherwise
    /// such a reply is for the question's agent.
    const WORDS_ANSWER: bool = false;
    /// Whether a bare "tell …" leaves a message for an agent, as "/tell …" does (for apps that
    /// keep a leading "/" for their own commands).
    const BARE_TELL: bool = true;
    /// The command that pairs, followed by the code.
    const PAIR_COMMAND: &'static str = "pair";
    /// Whether a tap must be answered before the store records its step (Discord: within 3 s,
    /// whatever the store does); notices after it are then said in the chat.
    const ACK_FIRST: bool = false;
    /// Whether the app has no buttons and cannot edit a message (WeChat): one question at a
    /// time, oldest first, each step a new message answered by typing numbers or words
    /// (`walk/typed.rs`), a closed question followed up by a message, and a reply written
    /// before its step went out refused.
    const TEXT_ONLY: bool = false;
    /// Whether the person pairs by sending the bot a code; otherwise the app knows them from
    /// its own login (WeChat's QR code), and strangers are not answered at all.
    const PAIRS_BY_CODE: bool = true;
    /// Whether unpairing also logs out: the credentials are forgotten after the goodbye.
    const UNPAIR_LOGS_OUT: bool = false;
    /// Its actions (`POST /api/<app>/<action>`): the shared ones, and any of `other_action`.
    const ACTIONS: &'static [ChannelAction] = &[
        ChannelAction::Setup,
        ChannelAction::Unpair,
        ChannelAction::Forget,
    ];

    /// Its clients as the settings stand.
    type Line: Send + Sync;
    /// Where a posted message is, kept across restarts.
    type Message: Clone
        + PartialEq
        + serde::Serialize
        + serde::de::DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// What answering an inbound takes (Slack's trigger id, Discord's interaction token); its
    /// default answers nothing (a message said in the chat).
    type Responder: Default + Send + 'static;
    /// What its connection keeps from one attempt to the next (Discord's session).
    type LinkState: Default + Send + 'static;

    /// Its clients for its service at `server` (the settings' address), when it has its
    /// credentials there; asked only while it is on (`line_of`).
    fn line(&self, relay: &Relay, server: &str) -> Option<Self::Line>;
    /// What the link was opened with: a change of it (other credentials, another address)
    /// closes the link; other settings leave it open.
    fn link_key(line: &Self::Line) -> u64;

    /// The conversation with `person` to post in: a direct-message channel, or by default the
    /// person themself.
    ///
    /// # Errors
    /// The service's refusal, or that it could not be reached.
    async fn open(&self, line: &Self::Line, person: &str) -> Result<String, ServiceError> {
        let _ = line;
        Ok(person.to_string())
    }
    /// Posts `view` in the conversation `to`.
    ///
    /// # Errors
    /// The service's refusal, or that it could not be reached.
    async fn post(
        &self,
        line: &Self::Line,
        to: &str,
        view: &Self::View,
    ) -> Result<Self::Message, ServiceError>;
    /// Makes the message at `message`, in the conversation `at`, show `view`
    /// (`ServiceError::gone` when it is no more).
    ///
    /// # Errors
    /// The service's refusal, or that it could not be reached.
    async fn update(
        &self,
        line: &Self::Line,
        at: &str,
        message: &Self::Message,
        view: &Self::View,
    ) -> Result<(), ServiceError>;
    /// The id taps and replies name the message by.
    fn message_id(message: &Self::Message) -> String;
    /// Where the link's own failures are recorded: its service's address (`server`) by default.
    fn link_target(server: &str) -> String {
        server.to_string()
    }
    /// Answers an inbound the way the service expects (within its time).
    async fn respond(
        &self,
        line: &Self::Line,
        responder: Self::Responder,
        response: Response<'_>,
    ) -> Responded;

    /// Keeps one connection to the service until it ends (`link`).
    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &Self::Line,
        state: &mut Self::LinkState,
    ) -> LinkEnded;

    /// An action of its own, beyond setup, unpair and forget (listed in `ACTIONS`).
    ///
    /// # Errors
    /// Its refusal, naming the field; an action it does not have.
    async fn other_action(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        action: ChannelAction,
        input: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        let _ = (relay, shared, input);
        Err(ActionRefusal::no_action(Self::NAME, action))
    }
}

/// An app's clients as the settings stand, with the address of the service they are for (its
/// statuses name it).
pub struct Lined<A: ChatApp> {
    pub clients: A::Line,
    pub server: String,
}

impl<A: ChatApp> std::ops::Deref for Lined<A> {
    type Target = A::Line;

    fn deref(&self) -> &A::Line {
        &self.clients
    }
}

/// `app`'s clients while it is on, for its service where the settings say.
fn line_of<A: ChatApp>(app: &A, relay: &Relay) -> Option<Lined<A>> {
    let (on, server) = relay.store.read_config(|config| {
        let channels = &config.channels;
        (
            channels.chat_app(A::NAME).0,
            channels.chat_app_base(A::NAME),
        )
    });
    let clients = on.then(|| app.line(relay, &server)).flatten()?;
    Some(Lined { clients, server })
}

/// Which question an inbound is about: named by its id, or by the message it was on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Question(QuestionId),
    Message(String),
}

/// What the person (or anyone) did in the app, as the app's listener read it.
pub enum Inbound<R> {
    /// A button.
    Tap {
        from: String,
        callback: Callback,
        responder: R,
    },
    /// What a step's checkboxes or menu hold now (among the options `within`, all when
    /// `None`); a single choice's menu picks its first.
    Ticked {
        from: String,
        on: Target,
        step: usize,
        within: Option<Range<usize>>,
        ticked: BTreeSet<usize>,
        responder: R,
    },
    /// Words given in a form or a window: the own answer or the note of a skip.
    Words {
        from: String,
        id: QuestionId,
        step: usize,
        awaiting: Awaiting,
        text: String,
        responder: R,
    },
    /// A form that sends ticked options and words together.
    Form {
        from: String,
        id: QuestionId,
        step: usize,
        ticked: BTreeSet<usize>,
        words: String,
        responder: R,
    },
    /// A message written to the bot.
    Said(Said),
    /// A message without text (a picture, a file): the person hears that words are needed.
    Unreadable { from: String, at: String },
}

/// A message written to the bot: `at` is the conversation to answer in; `id`, when the service
/// gives one, tells a message delivered twice from two alike; `private` says the conversation is
/// the sender's alone (pairing is refused in a group); `written`, when the service says, is when
/// it was written by this machine's clock (milliseconds since 1970: a text-only app's reply
/// written before its step went out is refused).
#[derive(Clone, Debug)]
pub struct Said {
    pub id: Option<String>,
    pub from: String,
    pub at: String,
    pub text: String,
    pub replying_to: Option<String>,
    pub private: bool,
    pub written: Option<i64>,
}

/// How the engine answers an inbound.
pub enum Response<'a> {
    /// Taken: what changes shows in the message.
    Taken,
    /// The step answered or declined the question, in the store: a short confirmation (in the
    /// person's language) the app may show.
    Closed(String),
    /// A short notice for the person (already in their language).
    Notice(String),
    /// Someone who is not the paired person: told so privately, or not at all.
    Stranger(String),
    /// Ask for words for this step: in the conversation `at`, replying to the question's
    /// message `reply_to`, for apps that ask in the chat.
    AskReply {
        lang: Lang,
        question: &'a Question,
        walk: &'a Walk,
        awaiting: Awaiting,
        at: Option<String>,
        reply_to: Option<String>,
    },
}

/// What became of a response.
#[derive(Debug, PartialEq, Eq)]
pub enum Responded {
    Done,
    /// The app shows no notice privately: the engine says it in the chat.
    SayInChat(String),
    /// It asked for words with a prompt, this message: a reply to it answers the step.
    Prompted(String),
    /// It did not reach the service.
    Failed,
}

impl Responded {
    /// What a response the service was sent became: `answered`, or `Failed` with the error
    /// logged (it could not `do_what`).
    pub fn or_failed(
        app: ChannelName,
        answered: Result<Responded, ServiceError>,
        do_what: &str,
    ) -> Responded {
        answered.unwrap_or_else(|error| {
            tracing::warn!(channel = %app, %error, "could not {do_what}");
            Responded::Failed
        })
    }
}

/// What the engine is handed.
pub enum Input<R> {
    /// A store event.
    Event(Arc<hark_core::model::Event>),
    /// What the app's listener read.
    Inbound(Inbound<R>),
    /// The person was unpaired (they hear so).
    Unpaired(String),
    /// Answered once what came before is taken and its record kept (a poll's cursor may then
    /// move past it).
    Settled(tokio::sync::oneshot::Sender<()>),
}
