//! Slack (SPEC §17): a Slack app that keeps a Socket Mode link open (its app-level token) and
//! posts each question to the paired person's direct messages with buttons (its bot token); a
//! tap answers there, and the message is updated when the question closes anywhere. Only
//! outbound connections: nothing needs to reach this machine. Its wire only: the chat engine
//! (`channels::chat`) does the rest.
//!
//! - `web_api`: the Web API methods Hark calls;
//! - `socket`: the Socket Mode link (hello, acknowledgements, disconnect);
//! - `inbound`: the payloads the link carries, read into the engine's inbounds;
//! - `render`: a question's message in Block Kit as the shared walk (`channels::walk`) stands,
//!   and the modal of "Other…" and "Skip";
//! - `setup`: checking and keeping the tokens, and the app's report;

mod inbound;
mod render;
mod setup;
mod socket;
mod web_api;

pub use web_api::WebApi;

use super::Relay;
use super::chat::learned::Learned;
use super::chat::service::{ServiceError, fingerprint};
use super::chat::{ChatApp, LinkEnded, Listening, Responded, Response};
use crate::daemon::secrets::BoundKey;
use hark_core::model::ChannelName;

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Slack;
/// The bot token (`xoxb-`) and the app-level token (`xapp-`) in `secrets.json`, bound to the
/// Web API address they were given for.
pub const BOT_TOKEN: BoundKey = BoundKey {
    token: "slackBotToken",
    server: "slackApiBase",
};
pub const APP_TOKEN: BoundKey = BoundKey {
    token: "slackAppToken",
    server: "slackApiBase",
};

/// The app as the settings stand: its two tokens' clients.
pub struct Line {
    pub bot: WebApi,
    /// Without it no link can be opened (the bot token alone still posts).
    pub app: Option<WebApi>,
}

/// Slack's own part: who the bot is, as `auth.test` said.
#[derive(Default)]
pub struct Slack {
    identity: Learned<web_api::Identity>,
}

impl Slack {
    /// The bot's own user id, once known: its own messages are not the person's.
    fn bot_user(&self) -> Option<String> {
        self.identity.get().map(|identity| identity.user_id)
    }
}

#[async_trait::async_trait]
impl ChatApp for Slack {
    const NAME: ChannelName = CHANNEL;
    const RECORD: &'static str = "slack.json";
    const ASKS_IN_A_WINDOW: bool = true;

    type Line = Line;
    type Message = web_api::Posted;
    /// A tap's `trigger_id`, which opens a modal (empty for what opens none).
    type Responder = String;
    type LinkState = socket::State;

    fn line(&self, relay: &Relay, api_base: &str) -> Option<Line> {
        let bot = relay.secrets.bound(BOT_TOKEN, api_base)?;
        let app = relay.secrets.bound(APP_TOKEN, api_base);
        Some(Line {
            bot: WebApi::new(relay.http.clone(), api_base, &bot),
            app: app.map(|app| WebApi::new(relay.http.clone(), api_base, &app)),
        })
    }

    fn link_key(line: &Line) -> u64 {
        fingerprint((
            line.app.as_ref().map(WebApi::fingerprint),
            line.bot.fingerprint(),
        ))
    }

    async fn open(&self, line: &Line, person: &str) -> Result<String, ServiceError> {
        line.bot.direct(person).await
    }

    async fn post(
        &self,
        line: &Line,
        to: &str,
        view: &render::Shown,
    ) -> Result<web_api::Posted, ServiceError> {
        line.bot.post(to, &view.text, &view.blocks).await
    }

    async fn update(
        &self,
        line: &Line,
        _at: &str,
        message: &web_api::Posted,
        view: &render::Shown,
    ) -> Result<(), ServiceError> {
        line.bot.update(message, &view.text, &view.blocks).await
    }

    fn message_id(message: &web_api::Posted) -> String {
        message.ts.clone()
    }

    /// Slack's taps were acknowledged on the link already: only a modal is answered here;
    /// notices are said in the direct messages, and strangers hear nothing.
    async fn respond(&self, line: &Line, trigger: String, response: Response<'_>) -> Responded {
        match response {
            Response::Taken | Response::Closed(_) | Response::Stranger(_) => Responded::Done,
            Response::Notice(text) => Responded::SayInChat(text),
            Response::AskReply {
                lang,
                question,
                walk,
                awaiting,
                ..
            } => {
                let view = render::modal(lang, question, walk, awaiting);
                let opened = line.bot.open_view(&trigger, &view).await;
                Responded::or_failed(CHANNEL, opened.map(|()| Responded::Done), "open a modal")
            }
        }
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &Line,
        state: &mut socket::State,
    ) -> LinkEnded {
        socket::listen(self, listening, line, state).await
    }
}
