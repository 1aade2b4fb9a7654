//! WeChat, through Tencent's iLink bot API (SPEC §17): the person logs in by scanning a QR code
//! with WeChat, and from then on each question arrives in that WeChat as text with numbered
//! options, answered by replying `2`, `1 3`, own words or `skip`. Only the account that confirmed
//! the login may answer. Outbound only (a long poll), so it works behind NAT. Its wire only: the
//! chat engine (`channels::chat`) does the rest, as for a text-only app (one question at a
//! time, each step a message of its own, `chat::typed`).
//!
//! - `ilink`: the API client (headers, `base_info`, the calls Hark makes);
//! - `login`: the QR login and its state;
//! - `render`: a question and its outcome as text;
//! - `poller`: the long poll for messages, with the cursor and context token it keeps
//!   (`record`) and a session WeChat ended;

mod ilink;
mod login;
mod poller;
mod record;
mod render;
mod setup;

use super::chat::learned::Learned;
use super::chat::service::fingerprint;
use super::chat::{
    ChatApp, ChatSettings, LinkEnded, Listening, Responded, Response, ServiceError, Shared, refused,
};
use super::{Relay, input, output};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::wechat::WechatVerify;
use hark_core::model::{ActionRefusal, ChannelAction, ChannelName};
use ilink::Ilink;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Wechat;
/// The bot token in `secrets.json`, bound to the API address that issued it.
pub const TOKEN: BoundKey = BoundKey {
    token: "wechatToken",
    server: "wechatApiBase",
};
/// Where the bot's calls go, as the confirmed login said, bound to the API address too (its own
/// key of it, so a login without one leaves the token's alone).
pub const BOT_BASE: BoundKey = BoundKey {
    token: "wechatBotBase",
    server: "wechatBotBaseFor",
};

/// The channel as the settings stand: its API (with the token) and the person.
pub struct Line {
    pub api: Ilink,
    pub user: Option<String>,
}

impl Line {
    /// The login and the person the poll's cursor belongs to.
    pub fn session(&self) -> String {
        format!(
            "{}:{}",
            self.api.session(),
            self.user.as_deref().unwrap_or_default()
        )
    }
}

/// WeChat's own part: the login in progress, a session WeChat ended, and the conversation's
/// last context token (replies go out in it).
#[derive(Default)]
pub struct Wechat {
    logins: Arc<login::Logins>,
    /// WeChat ended the bot's session (errcode -14): nothing is polled or sent until a new
    /// login.
    session_ended: Arc<AtomicBool>,
    context: Learned<String>,
}

#[async_trait::async_trait]
impl ChatApp for Wechat {
    const NAME: ChannelName = CHANNEL;
    /// `wechat.json` keeps the poll's cursor (`record`).
    const RECORD: &'static str = "wechat-posted.json";
    const ASKS_IN_A_WINDOW: bool = false;
    /// "tell" is a word like any other in a reply: only `/tell` tells.
    const BARE_TELL: bool = false;
    const TEXT_ONLY: bool = true;
    const PAIRS_BY_CODE: bool = false;
    const UNPAIR_LOGS_OUT: bool = true;
    const ACTIONS: &'static [ChannelAction] = &[
        ChannelAction::Setup,
        ChannelAction::Verify,
        ChannelAction::Unpair,
        ChannelAction::Forget,
    ];

    type Line = Line;
    /// The client id a text was sent with.
    type Message = String;
    type Responder = ();
    type LinkState = poller::State;

    /// Nothing while WeChat's end of the session waits for a new login.
    fn line(&self, relay: &Relay, api_base: &str) -> Option<Line> {
        if self.session_ended.load(Ordering::SeqCst) {
            return None;
        }
        let token = relay.secrets.bound(TOKEN, api_base)?;
        let base = relay.secrets.bound(BOT_BASE, api_base);
        let base = base.as_deref().unwrap_or(api_base);
        Some(Line {
            api: Ilink::new(relay.http.clone(), base, Some(token)),
            user: relay
                .store
                .read_config(|config| config.channels.wechat.user_id.clone()),
        })
    }

    fn link_target(server: &str) -> String {
        format!("{server}/ilink/bot/getupdates")
    }

    fn link_key(line: &Line) -> u64 {
        fingerprint((line.session(), line.api.base()))
    }

    async fn post(&self, line: &Line, to: &str, view: &String) -> Result<String, ServiceError> {
        let client_id = ilink::client_id();
        let context = self.context.get();
        let sent = (line.api)
            .send_text(to, view, context.as_deref(), &client_id)
            .await;
        if sent.as_ref().is_err_and(ilink::session_ended) {
            self.session_ended.store(true, Ordering::SeqCst);
        }
        sent.map(|()| client_id)
    }

    /// WeChat cannot edit a message; a text-only app is never asked to.
    async fn update(
        &self,
        _line: &Line,
        _at: &str,
        _message: &String,
        _view: &String,
    ) -> Result<(), ServiceError> {
        Ok(())
    }

    fn message_id(message: &String) -> String {
        message.clone()
    }

    /// Everything is said in the chat; a closed question's follow-up says how it ended.
    async fn respond(&self, _line: &Line, (): (), response: Response<'_>) -> Responded {
        match response {
            Response::Notice(text) | Response::Stranger(text) => Responded::SayInChat(text),
            Response::Taken | Response::Closed(_) | Response::AskReply { .. } => Responded::Done,
        }
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &Line,
        state: &mut poller::State,
    ) -> LinkEnded {
        poller::listen(self, listening, line, state).await
    }

    /// `verify`: the number WeChat shows on the phone during a login.
    async fn other_action(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        action: ChannelAction,
        request: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        if action != ChannelAction::Verify {
            return Err(ActionRefusal::no_action(CHANNEL, action));
        }
        let request: WechatVerify = input(request)?;
        self.logins
            .verify(&request.code)
            .map_err(|refusal| refused(&refusal))?;
        output(&self.report(relay, shared))
    }
}
