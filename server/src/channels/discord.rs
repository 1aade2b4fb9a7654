//! Discord (SPEC §17): a bot that keeps a Gateway connection and sends each question to the
//! paired person's direct messages with buttons and select menus; a tap answers there, and the
//! message is edited when the question closes anywhere. Only outbound connections: nothing needs
//! to reach this machine. Its wire only: the chat engine (`channels::chat`) does the rest.
//!
//! - `rest`: the REST routes Hark calls;
//! - `gateway`: the Gateway (Hello, Identify, heartbeats, Resume, close codes);
//! - `inbound`: interactions and direct messages, read into the engine's inbounds;
//! - `render`: a question's message and components as the shared walk (`channels::walk`)
//!   stands, and the modal of "Other…" and "Skip";
//! - `setup`: checking and keeping the token, and the bot's report;

mod gateway;
mod inbound;
mod render;
mod rest;
mod setup;

pub use rest::Rest;

use super::Relay;
use super::chat::learned::Learned;
use super::chat::service::ServiceError;
use super::chat::{ChatApp, LinkEnded, Listening, Responded, Response};
use crate::daemon::secrets::BoundKey;
use hark_core::model::ChannelName;
use serde_json::{Value, json};

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Discord;
/// The bot token in `secrets.json`, bound to the REST address it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "discordToken",
    server: "discordApiBase",
};

/// An interaction to answer: its id and token.
pub struct Interaction {
    id: String,
    token: String,
}

/// Discord's own part: who the bot is, as Discord said (`GET /users/@me`, READY).
#[derive(Default)]
pub struct Discord {
    identity: Learned<rest::Me>,
}

impl Discord {
    /// The bot's own user id, once known: its own messages are not the person's.
    fn bot_user(&self) -> Option<String> {
        self.identity.get().map(|identity| identity.id)
    }
}

/// An answer only the tapper sees.
fn ephemeral(text: &str) -> Value {
    json!({"type": 4, "data": {"content": text, "flags": 64}})
}

#[async_trait::async_trait]
impl ChatApp for Discord {
    const NAME: ChannelName = CHANNEL;
    const RECORD: &'static str = "discord.json";
    const ASKS_IN_A_WINDOW: bool = true;
    const ACK_FIRST: bool = true;

    /// Its client as the settings stand.
    type Line = Rest;
    type Message = rest::Sent;
    /// The interaction to answer (none for a direct message).
    type Responder = Option<Interaction>;
    type LinkState = gateway::State;

    fn line(&self, relay: &Relay, api_base: &str) -> Option<Rest> {
        let token = relay.secrets.bound(TOKEN, api_base)?;
        Some(Rest::new(relay.http.clone(), api_base, &token))
    }

    fn link_key(line: &Rest) -> u64 {
        line.fingerprint()
    }

    async fn open(&self, line: &Rest, person: &str) -> Result<String, ServiceError> {
        line.direct(person).await
    }

    async fn post(
        &self,
        line: &Rest,
        to: &str,
        view: &render::Shown,
    ) -> Result<rest::Sent, ServiceError> {
        line.send(to, &view.0).await
    }

    async fn update(
        &self,
        line: &Rest,
        _at: &str,
        message: &rest::Sent,
        view: &render::Shown,
    ) -> Result<(), ServiceError> {
        line.edit(message, &view.0).await
    }

    fn message_id(message: &rest::Sent) -> String {
        message.id.clone()
    }

    /// Every interaction is answered within Discord's 3 s: taken (the message is edited by the
    /// next sync), a notice only the tapper sees, or the modal.
    async fn respond(
        &self,
        line: &Rest,
        interaction: Option<Interaction>,
        response: Response<'_>,
    ) -> Responded {
        let Some(interaction) = interaction else {
            return match response {
                Response::Notice(text) => Responded::SayInChat(text),
                _ => Responded::Done,
            };
        };
        let answer = match response {
            Response::Taken | Response::Closed(_) => json!({"type": 6}),
            Response::Notice(text) | Response::Stranger(text) => ephemeral(&text),
            Response::AskReply {
                lang,
                question,
                walk,
                awaiting,
                ..
            } => render::modal(lang, question, walk, awaiting),
        };
        let answered = line.respond(&interaction.id, &interaction.token, &answer);
        let answered = answered.await.map(|()| Responded::Done);
        Responded::or_failed(CHANNEL, answered, "answer an interaction")
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &Rest,
        state: &mut gateway::State,
    ) -> LinkEnded {
        gateway::listen(self, listening, line, state).await
    }
}
