//! WeChat, through Tencent's iLink bot API (SPEC §17): the person logs in by scanning a QR code
//! with WeChat, and from then on each question arrives in that WeChat as text with numbered
//! options, answered by replying `2`, `1 3`, own words or `skip`. Only the account that confirmed
//! the login may answer. Outbound only (a long poll), so it works behind NAT; the model of a
//! text-only channel on the shared walk.
//!
//! - `ilink`: the API client (headers, `base_info`, the calls Hark makes);
//! - `login`: the QR login and its state; `record`: what survives a restart;
//! - `render`: a question and its outcome as text;
//! - `chat`: the task that owns the conversation (one question at a time, oldest first);
//! - `poller`: the long poll for messages, with backoff, and a session WeChat ended;
//! - `cli`: `hark wechat setup` and `unpair` (`POST /api/wechat/<action>`).

mod chat;
pub mod cli;
mod ilink;
mod login;
mod poller;
mod record;
mod render;

use super::{Channel, Relay};
use crate::channels;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::wechat::{
    Wechat as WechatConfig, WechatRefusal, WechatReport, WechatVerify,
};
use hark_core::model::{
    ActionRefusal, ChannelError, ChannelName, ChannelSummary, Channels, ChannelsReport, Config,
    ErrorBody, Event,
};
use ilink::Ilink;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tokio::sync::{Notify, mpsc};

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
/// Events and messages waiting for the chat task at most.
const INBOX: usize = 1024;

/// What the chat task is told.
pub enum Input {
    /// A store event.
    Event(Arc<Event>),
    /// One long poll's messages of `session`, read at `received_ms`, and the cursor to keep
    /// once they are handled.
    Polled {
        session: String,
        messages: Vec<ilink::Message>,
        received_ms: i64,
        cursor: Option<String>,
    },
}

/// The channel's shared part: the login, the session's state and the chat task's inbox.
pub struct Wechat {
    logins: login::Logins,
    inbox: mpsc::Sender<Input>,
    receiver: std::sync::Mutex<Option<mpsc::Receiver<Input>>>,
    /// Wakes the poller when the settings change.
    wake: Notify,
    /// WeChat ended the bot's session (errcode -14): nothing is polled or sent until a new
    /// login.
    session_ended: AtomicBool,
    /// Logins confirmed since the daemon started.
    logins_done: AtomicU64,
    /// The channel itself, for the login task it starts (set when it starts).
    me: std::sync::OnceLock<std::sync::Weak<Wechat>>,
}

impl Default for Wechat {
    fn default() -> Self {
        let (inbox, receiver) = mpsc::channel(INBOX);
        Wechat {
            logins: login::Logins::default(),
            inbox,
            receiver: std::sync::Mutex::new(Some(receiver)),
            wake: Notify::new(),
            session_ended: AtomicBool::new(false),
            logins_done: AtomicU64::new(0),
            me: std::sync::OnceLock::new(),
        }
    }
}

/// The channel as the settings stand: its API (with the token), the person, the language.
pub struct Line {
    pub api: Ilink,
    /// `apiBase`, naming the channel's target in statuses.
    pub api_base: String,
    pub user: Option<String>,
    pub lang: hark_text::Lang,
}

impl Line {
    /// The login and the person the conversation and the poll's cursor belong to.
    pub fn session(&self) -> String {
        format!(
            "{}:{}",
            self.api.session(),
            self.user.as_deref().unwrap_or_default()
        )
    }
}

impl Line {
    /// The channel, when it is on and logged in.
    pub fn of(relay: &Relay) -> Option<Line> {
        let (wechat, lang) = relay.store.read_config(|config| {
            (
                config.channels.wechat.clone(),
                hark_text::negotiate::daemon_lang(config),
            )
        });
        if !wechat.enabled {
            return None;
        }
        let token = relay.secrets.bound(TOKEN, &wechat.api_base)?;
        let base = relay
            .secrets
            .bound(BOT_BASE, &wechat.api_base)
            .unwrap_or_else(|| wechat.api_base.clone());
        Some(Line {
            api: Ilink::new(relay.http.clone(), &base, Some(token)),
            api_base: wechat.api_base,
            user: wechat.user_id,
            lang,
        })
    }

    /// Sends `text` to the person, in the conversation of `context`.
    ///
    /// # Errors
    /// When nobody is paired, or WeChat did not take it.
    pub async fn send(
        &self,
        text: &str,
        context: Option<&str>,
        client_id: &str,
    ) -> Result<(), ilink::IlinkError> {
        let Some(user) = &self.user else {
            return Err(ilink::IlinkError::Api("no WeChat account is paired".into()));
        };
        self.api.send_text(user, text, context, client_id).await
    }
}

#[async_trait::async_trait]
impl Channel for Wechat {
    fn name(&self) -> ChannelName {
        CHANNEL
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.wechat.enabled
    }

    /// Starts the chat task and the poller.
    fn start(self: Arc<Self>, relay: &Arc<Relay>) {
        let _ = self.me.set(Arc::downgrade(&self));
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(receiver) = receiver {
            tokio::spawn(chat::run(relay.clone(), self.clone(), receiver));
            tokio::spawn(poller::run(relay.clone(), self));
        }
    }

    fn settings_changed(&self) {
        self.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        if self.inbox.try_send(Input::Event(event.clone())).is_err() {
            tracing::warn!("the WeChat channel fell behind; an event was not handled");
        }
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        let Some(line) = Line::of(relay) else {
            return Err(ChannelError::NotSetUp("WeChat is not set up: run `hark wechat setup`, or log in from settings (\"Notify me elsewhere\")".into()));
        };
        if line.user.is_none() {
            return Err(ChannelError::NotSetUp(
                "no WeChat account is paired: run `hark wechat setup` and scan the code".into(),
            ));
        }
        let context = record::RecordFile::load(relay.home.as_deref())
            .await
            .1
            .context;
        let text = hark_text::t_in(line.lang, "wechat-test", &[]);
        match line
            .send(&text, context.as_deref(), &ilink::client_id())
            .await
        {
            Ok(()) => {
                relay.statuses.sent(CHANNEL, &line.api_base);
                Ok("sent a test message to the paired WeChat".into())
            }
            Err(error) => {
                relay
                    .statuses
                    .failed(CHANNEL, &line.api_base, error.to_string());
                Err(ChannelError::Undelivered(error.to_string()))
            }
        }
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let wechat = self.report_for(relay);
        if wechat.token {
            let summary = if wechat.session_expired {
                "WeChat ended the login: log in again with `hark wechat setup`"
            } else if wechat.paired {
                "logged in; questions go to the WeChat that scanned"
            } else {
                "not logged in (`hark wechat setup`)"
            };
            report.summaries.push(ChannelSummary {
                channel: CHANNEL,
                summary: summary.into(),
            });
        }
        report.wechat = wechat;
    }

    fn actions(&self) -> &'static [&'static str] {
        &["setup", "verify", "unpair"]
    }

    async fn act(
        &self,
        relay: &Arc<Relay>,
        action: &str,
        input: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        let refused = |refusal: WechatRefusal| ActionRefusal {
            status: refusal.status(),
            body: ErrorBody::field(refusal.field(), refusal.message()),
            refusal: serde_json::to_value(&refusal).ok().map(Box::new),
        };
        match action {
            "setup" => {
                let Some(shared) = self.me.get().and_then(std::sync::Weak::upgrade) else {
                    return Err(refused(WechatRefusal::Unreachable {
                        reason: "the channel has not started yet".into(),
                    }));
                };
                login::start(relay, &shared).await.map_err(refused)?;
                channels::output(&self.report_for(relay))
            }
            "verify" => {
                let request: WechatVerify = channels::input(input)?;
                self.logins.verify(&request.code).map_err(refused)?;
                channels::output(&self.report_for(relay))
            }
            "unpair" => channels::output(&self.unpair(relay).await?),
            _ => Err(ActionRefusal::no_action(CHANNEL, action)),
        }
    }
}

impl Wechat {
    /// Passes `input` to the chat task, waiting while its inbox is full (a message confirmed to
    /// WeChat by the next poll's cursor must not be dropped).
    pub async fn tell_waiting(&self, input: Input) {
        let _ = self.inbox.send(input).await;
    }

    fn logged_in(&self) {
        self.session_ended.store(false, Ordering::SeqCst);
        self.logins_done.fetch_add(1, Ordering::SeqCst);
        self.settings_changed();
    }

    /// The channel as settings and the CLI show it.
    pub fn report_for(&self, relay: &Relay) -> WechatReport {
        let wechat = relay
            .store
            .read_config(|config| config.channels.wechat.clone());
        WechatReport {
            token: relay.secrets.bound(TOKEN, &wechat.api_base).is_some(),
            paired: wechat.user_id.is_some(),
            session_expired: self.session_ended.load(Ordering::SeqCst),
            logins: self.logins_done.load(Ordering::SeqCst),
            login: self.logins.shown(),
        }
    }

    /// Says goodbye to the paired account, then forgets it and the bot token and turns the
    /// channel off.
    ///
    /// # Errors
    /// When the secrets or the config cannot be saved.
    pub async fn unpair(&self, relay: &Arc<Relay>) -> Result<WechatReport, ChannelError> {
        if let Some(line) = Line::of(relay)
            && line.user.is_some()
        {
            let context = record::RecordFile::load(relay.home.as_deref())
                .await
                .1
                .context;
            let text = hark_text::t_in(line.lang, "wechat-unpaired", &[]);
            if let Err(error) = line
                .send(&text, context.as_deref(), &ilink::client_id())
                .await
            {
                tracing::warn!(channel = %CHANNEL, %error, "could not say goodbye in WeChat");
            }
        }
        let api_base = relay
            .store
            .read_config(|config| config.channels.wechat.api_base.clone());
        let secrets = relay.secrets.clone();
        tokio::task::spawn_blocking(move || {
            secrets.set_bound(BOT_BASE, None, &api_base)?;
            secrets.set_bound(TOKEN, None, &api_base)
        })
        .await
        .map_err(std::io::Error::other)
        .and_then(|saved| saved)
        .map_err(|error| {
            ChannelError::NotSaved(format!(
                "the WeChat token could not be removed from secrets.json: {}",
                error.kind()
            ))
        })?;
        change_config(relay, |wechat| {
            wechat.enabled = false;
            wechat.user_id = None;
        })
        .await?;
        // What was said and where the person was in a question go with them.
        if let Some(home) = relay.home.clone() {
            let _ = tokio::task::spawn_blocking(move || {
                std::fs::remove_file(home.join(record::RECORD_FILE))
            })
            .await;
        }
        self.session_ended.store(false, Ordering::SeqCst);
        self.settings_changed();
        Ok(self.report_for(relay))
    }
}

/// Changes `channels.wechat` in the config, under the config's lock.
async fn change_config(
    relay: &Relay,
    change: impl FnOnce(&mut WechatConfig) + Send + 'static,
) -> Result<(), ChannelError> {
    relay
        .change_channels(move |channels| change(&mut channels.wechat))
        .await
}
