//! Feishu/Lark (SPEC §17): a self-built app whose bot keeps the long connection open (no
//! public address: Feishu's servers push events over a WebSocket Hark opens) and sends each
//! question to the paired person as an interactive card; a tap or a form on the card answers
//! there, and the card is updated when the question closes anywhere. `open.feishu.cn` (Feishu)
//! or `open.larksuite.com` (Lark): the same protocol at two addresses. Its wire only: the chat
//! engine (`channels::chat`) does the rest.
//!
//! - `open_api`: the Open Platform calls Hark makes (token, bot, address, send, update);
//! - `frame`: the long connection's protobuf frames, acknowledgements and pieces;
//! - `connection`: the long connection (pings, pongs, events);
//! - `inbound`: card callbacks and direct messages, read into the engine's inbounds;
//! - `render`: a question's card as the shared walk (`channels::walk`) stands;
//! - `setup`: checking and keeping the credentials, and the app's report;

mod connection;
pub mod frame;
mod inbound;
mod open_api;
mod render;
mod setup;

pub use open_api::{OpenApi, TokenCache};

use super::Relay;
use super::chat::learned::Learned;
use super::chat::service::ServiceError;
use super::chat::{ChatApp, LinkEnded, Listening, Responded, Response};
use crate::daemon::secrets::BoundKey;
use hark_core::model::ChannelName;
use render::Said;
use std::sync::Arc;

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Feishu;
/// The App ID and App Secret in `secrets.json`, bound to the address they were given for.
pub const APP_ID: BoundKey = BoundKey {
    token: "feishuAppId",
    server: "feishuApiBase",
};
pub const APP_SECRET: BoundKey = BoundKey {
    token: "feishuAppSecret",
    server: "feishuApiBase",
};

/// Feishu's own part: the bot, and the tenant token every call of the app shares.
#[derive(Default)]
pub struct Feishu {
    bot: Learned<open_api::Bot>,
    tokens: Arc<TokenCache>,
}

#[async_trait::async_trait]
impl ChatApp for Feishu {
    const NAME: ChannelName = CHANNEL;
    const RECORD: &'static str = "feishu.json";
    /// The card itself shows the form of "Other…" and "Skip".
    const ASKS_IN_A_WINDOW: bool = false;

    /// Its client as the settings stand.
    type Line = OpenApi;
    type Message = String;
    /// Callbacks were acknowledged on the connection: nothing is left to answer.
    type Responder = ();
    type LinkState = connection::State;

    fn line(&self, relay: &Relay, api_base: &str) -> Option<OpenApi> {
        let app_id = relay.secrets.bound(APP_ID, api_base)?;
        let app_secret = relay.secrets.bound(APP_SECRET, api_base)?;
        let tokens = self.tokens.clone();
        Some(OpenApi::new(
            relay.http.clone(),
            api_base,
            &app_id,
            &app_secret,
            tokens,
        ))
    }

    fn link_key(line: &OpenApi) -> u64 {
        line.fingerprint()
    }

    async fn post(&self, line: &OpenApi, to: &str, view: &Said) -> Result<String, ServiceError> {
        line.post(to, view.kind, &view.content).await
    }

    async fn update(
        &self,
        line: &OpenApi,
        _at: &str,
        message: &String,
        view: &Said,
    ) -> Result<(), ServiceError> {
        line.update(message, &view.content).await
    }

    fn message_id(message: &String) -> String {
        message.clone()
    }

    /// Notices are said in the chat; the card shows everything else.
    async fn respond(&self, _line: &OpenApi, (): (), response: Response<'_>) -> Responded {
        match response {
            Response::Notice(text) => Responded::SayInChat(text),
            Response::Taken
            | Response::Closed(_)
            | Response::Stranger(_)
            | Response::AskReply { .. } => Responded::Done,
        }
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &OpenApi,
        state: &mut connection::State,
    ) -> LinkEnded {
        connection::listen(self, listening, line, state).await
    }
}
