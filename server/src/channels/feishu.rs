//! Feishu/Lark (SPEC §17): a self-built app whose bot keeps the long connection open (no
//! public address: Feishu's servers push events over a WebSocket Hark opens) and sends each
//! question to the paired person as an interactive card; a tap or a form on the card answers
//! there, and the card is updated when the question closes anywhere. `open.feishu.cn` (Feishu)
//! or `open.larksuite.com` (Lark): the same protocol at two addresses.
//!
//! - `open_api`: the Open Platform calls Hark makes (token, bot, address, send, update);
//! - `frame`: the long connection's protobuf frames, acknowledgements and pieces;
//! - `connection`: the long connection (pings, pongs, events, reconnection);
//! - `render`: a question's card as the shared walk (`channels::walk`) stands;
//! - `chat`: the task that owns the conversations: card callbacks, direct messages
//!   (`pair <code>`, `tell …`, replies), reminders;
//! - `cli`: `hark feishu setup` and `unpair` (`POST /api/feishu/<action>`; settings also calls
//!   `forget`).

mod chat;
pub mod cli;
mod connection;
pub mod frame;
mod open_api;
mod render;

pub use open_api::{FeishuError, OpenApi, TokenCache};

use super::pairing::PairingCodes;
use super::{Channel, Relay};
use crate::channels;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::feishu::{
    Feishu as FeishuConfig, FeishuRefusal, FeishuReport, FeishuSetup,
};
use hark_core::model::{
    ActionRefusal, ChannelError, ChannelName, ChannelSummary, Channels, ChannelsReport, Config,
    ErrorBody, Event,
};
use hark_text::Lang;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

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
/// Events waiting for the chat task at most.
const INBOX: usize = 1024;

/// What the chat task is told.
pub enum Input {
    /// A store event.
    Event(Arc<Event>),
    /// An event that came over the long connection (a message, a card callback).
    Payload(serde_json::Value),
    /// The person was unpaired.
    Unpaired(String),
}

/// The app as the settings stand: its client, the paired person and the language.
pub struct Line {
    pub api: OpenApi,
    pub api_base: String,
    pub open_id: Option<String>,
    pub lang: Lang,
}

impl Line {
    /// The app, when it is on and has its credentials.
    pub fn of(relay: &Relay, feishu: &Feishu) -> Option<Line> {
        let (config, lang) = relay.store.read_config(|config| {
            (
                config.channels.feishu.clone(),
                hark_text::negotiate::daemon_lang(config),
            )
        });
        if !config.enabled {
            return None;
        }
        let app_id = relay.secrets.bound(APP_ID, &config.api_base)?;
        let app_secret = relay.secrets.bound(APP_SECRET, &config.api_base)?;
        Some(Line {
            api: OpenApi::new(
                relay.http.clone(),
                &config.api_base,
                &app_id,
                &app_secret,
                feishu.tokens.clone(),
            ),
            api_base: config.api_base,
            open_id: config.open_id,
            lang,
        })
    }
}

/// The app's shared part: the pairing code, the bot, the connection's state, the chat task's
/// inbox, the tenant token.
pub struct Feishu {
    codes: PairingCodes<String>,
    bot: Mutex<Option<open_api::Bot>>,
    connected: AtomicBool,
    inbox: mpsc::Sender<Input>,
    receiver: Mutex<Option<mpsc::Receiver<Input>>>,
    tokens: Arc<TokenCache>,
    /// Wakes the connection when the settings change.
    wake: Notify,
    /// People paired since the daemon started.
    pairings: AtomicU64,
}

impl Default for Feishu {
    fn default() -> Self {
        let (inbox, receiver) = mpsc::channel(INBOX);
        Feishu {
            codes: PairingCodes::default(),
            bot: Mutex::new(None),
            connected: AtomicBool::new(false),
            inbox,
            receiver: Mutex::new(Some(receiver)),
            tokens: Arc::new(TokenCache::default()),
            wake: Notify::new(),
            pairings: AtomicU64::new(0),
        }
    }
}

#[async_trait::async_trait]
impl Channel for Feishu {
    fn name(&self) -> ChannelName {
        CHANNEL
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.feishu.enabled
    }

    /// Starts the chat task and the connection.
    fn start(self: Arc<Self>, relay: &Arc<Relay>) {
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(receiver) = receiver {
            tokio::spawn(chat::run(relay.clone(), self.clone(), receiver));
            tokio::spawn(connection::run(relay.clone(), self));
        }
    }

    fn settings_changed(&self) {
        self.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        if self.inbox.try_send(Input::Event(event.clone())).is_err() {
            tracing::warn!("Feishu fell behind; an event was not handled");
        }
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        self.test_message(relay).await
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let app = self.report_for(relay);
        if app.token {
            let name = app.bot.as_deref().map_or_else(
                || "whose name is not known yet".to_string(),
                |name| format!("\"{name}\""),
            );
            let link = if app.connected {
                "connected"
            } else {
                "not connected"
            };
            let paired = if app.paired {
                "a person is paired"
            } else {
                "nobody paired yet (`hark feishu setup`)"
            };
            report.summaries.push(ChannelSummary {
                channel: CHANNEL,
                summary: format!("app {name} at {}, {link}, {paired}", app.api_base),
            });
        }
        report.feishu = app;
    }

    fn actions(&self) -> &'static [&'static str] {
        &["setup", "unpair", "forget"]
    }

    async fn act(
        &self,
        relay: &Arc<Relay>,
        action: &str,
        input: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        match action {
            "setup" => {
                let request: FeishuSetup = channels::input(input)?;
                match self.setup(relay, request).await {
                    Ok(report) => channels::output(&report),
                    Err(refusal) => Err(ActionRefusal {
                        status: refusal.status(),
                        body: ErrorBody::field(refusal.field(), refusal.message()),
                        refusal: serde_json::to_value(&refusal).ok().map(Box::new),
                    }),
                }
            }
            "unpair" => channels::output(&self.unpair(relay).await?),
            "forget" => {
                self.forget(relay).await?;
                channels::output(&self.report_for(relay))
            }
            _ => Err(ActionRefusal::no_action(CHANNEL, action)),
        }
    }
}

impl Feishu {
    /// Passes `input` to the chat task, waiting while its inbox is full (what came over the
    /// connection has been acknowledged to Feishu, so it must not be dropped).
    pub async fn tell_waiting(&self, input: Input) {
        let _ = self.inbox.send(input).await;
    }

    fn set_connected(&self, connected: bool) {
        self.connected.store(connected, Ordering::SeqCst);
    }

    fn paired(&self) {
        self.pairings.fetch_add(1, Ordering::SeqCst);
    }

    fn bot(&self) -> Option<open_api::Bot> {
        self.bot
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }

    fn learned(&self, bot: Option<open_api::Bot>) {
        *self.bot.lock().unwrap_or_else(|poison| poison.into_inner()) = bot;
    }

    /// The app as settings and the CLI show it.
    pub fn report_for(&self, relay: &Relay) -> FeishuReport {
        let config = relay
            .store
            .read_config(|config| config.channels.feishu.clone());
        FeishuReport {
            token: relay.secrets.bound(APP_ID, &config.api_base).is_some()
                && relay.secrets.bound(APP_SECRET, &config.api_base).is_some(),
            bot: self.bot().and_then(|bot| bot.app_name),
            api_base: config.api_base,
            connected: self.connected.load(Ordering::SeqCst),
            paired: config.open_id.is_some(),
            pairings: self.pairings.load(Ordering::SeqCst),
            pairing: self.codes.waiting(),
        }
    }

    /// Checks the credentials given (or the saved ones) with Feishu, saves them, turns the app
    /// on and makes a new pairing code.
    ///
    /// # Errors
    /// Why Feishu cannot be set up, naming the field.
    pub async fn setup(
        &self,
        relay: &Arc<Relay>,
        request: FeishuSetup,
    ) -> Result<FeishuReport, FeishuRefusal> {
        let saved_base = relay
            .store
            .read_config(|config| config.channels.feishu.api_base.clone());
        let api_base = match request
            .api_base
            .as_deref()
            .map(str::trim)
            .filter(|base| !base.is_empty())
        {
            Some(base) => hark_core::model::channels::feishu::setup_api_base(base)?,
            None => saved_base.clone(),
        };
        let given = |value: Option<String>| {
            value
                .map(|value| value.trim().to_string())
                .filter(|value| !value.is_empty())
        };
        let saved = |key| relay.secrets.bound(key, &saved_base);
        let app_id = match given(request.app_id) {
            Some(id) if !id.starts_with("cli_") => return Err(FeishuRefusal::AppIdShape),
            Some(id) => id,
            None => saved(APP_ID).ok_or(FeishuRefusal::NoCredentials)?,
        };
        let app_secret = given(request.app_secret)
            .or_else(|| saved(APP_SECRET))
            .ok_or(FeishuRefusal::NoCredentials)?;
        let api = OpenApi::new(
            relay.http.clone(),
            &api_base,
            &app_id,
            &app_secret,
            self.tokens.clone(),
        );
        match api.check().await {
            Ok(()) => {}
            Err(error) if error.wrong_app_id() => return Err(FeishuRefusal::WrongAppId),
            Err(error) if error.wrong_secret() => return Err(FeishuRefusal::WrongAppSecret),
            Err(error @ FeishuError::Refused { .. }) => {
                return Err(FeishuRefusal::WrongAppSecret).inspect_err(|_| {
                    tracing::info!(channel = %CHANNEL, %error, "Feishu refused the app's credentials");
                });
            }
            Err(error) => {
                return Err(FeishuRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        }
        let bot = match api.bot().await {
            Ok(bot) => bot,
            Err(error @ FeishuError::Refused { .. }) => {
                return Err(FeishuRefusal::NoBot {
                    reason: error.to_string(),
                });
            }
            Err(error) => {
                return Err(FeishuRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        };
        self.learned(Some(bot));
        let secrets = relay.secrets.clone();
        let base = api_base.clone();
        tokio::task::spawn_blocking(move || {
            secrets.set_bound(APP_ID, Some(app_id), &base)?;
            secrets.set_bound(APP_SECRET, Some(app_secret), &base)
        })
        .await
        .map_err(std::io::Error::other)
        .and_then(|saved| saved)
        .map_err(|_| FeishuRefusal::SaveFailed)?;
        let moved = api_base != saved_base;
        change_config(relay, move |feishu| {
            feishu.enabled = true;
            if moved {
                // Open ids belong to one app on one platform: the person pairs again.
                feishu.open_id = None;
            }
            feishu.api_base = api_base;
        })
        .await
        .map_err(|_| FeishuRefusal::SaveFailed)?;
        self.codes.issue().map_err(|_| FeishuRefusal::SaveFailed)?;
        self.settings_changed();
        Ok(self.report_for(relay))
    }

    /// Forgets the paired person (who is told so).
    ///
    /// # Errors
    /// When the config cannot be saved.
    pub async fn unpair(&self, relay: &Arc<Relay>) -> Result<FeishuReport, ChannelError> {
        let before = relay
            .store
            .read_config(|config| config.channels.feishu.open_id.clone());
        change_config(relay, |feishu| feishu.open_id = None).await?;
        if let Some(person) = before {
            self.tell_waiting(Input::Unpaired(person)).await;
        }
        Ok(self.report_for(relay))
    }

    /// Forgets the credentials and turns the app off.
    ///
    /// # Errors
    /// When the secrets or the config cannot be saved.
    pub async fn forget(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.feishu.api_base.clone());
        let secrets = relay.secrets.clone();
        let not_saved = |error: std::io::Error| {
            ChannelError::NotSaved(format!(
                "the Feishu app's credentials could not be removed from secrets.json: {}",
                error.kind()
            ))
        };
        tokio::task::spawn_blocking(move || {
            secrets.set_bound(APP_ID, None, &api_base)?;
            secrets.set_bound(APP_SECRET, None, &api_base)
        })
        .await
        .map_err(|error| not_saved(std::io::Error::other(error)))?
        .map_err(not_saved)?;
        self.learned(None);
        change_config(relay, |feishu| {
            feishu.enabled = false;
            feishu.open_id = None;
        })
        .await?;
        self.settings_changed();
        Ok(())
    }

    /// `hark channel test feishu`: a message to the paired person.
    async fn test_message(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        let Some(line) = Line::of(relay, self) else {
            return Err(ChannelError::NotSetUp("Feishu/Lark is not set up: run `hark feishu setup`, or turn it on and pair in settings (\"Notify me elsewhere\")".into()));
        };
        let Some(person) = line.open_id.clone() else {
            return Err(ChannelError::NotSetUp("nobody is paired in Feishu/Lark yet: run `hark feishu setup` and send the bot `pair <code>` in a direct message".into()));
        };
        let text = hark_text::t_in(line.lang, "feishu-test", &[]);
        let said = render::said(&text);
        match line.api.post(&person, said.kind, &said.content).await {
            Ok(_) => {
                relay.statuses.sent(CHANNEL, &line.api_base);
                Ok("sent a test message to the paired person in Feishu/Lark".into())
            }
            Err(error) => {
                relay
                    .statuses
                    .failed(CHANNEL, &line.api_base, error.to_string());
                Err(ChannelError::Undelivered(error.to_string()))
            }
        }
    }
}

/// Changes `channels.feishu` in the config, under the config's lock.
async fn change_config(
    relay: &Relay,
    change: impl FnOnce(&mut FeishuConfig) + Send + 'static,
) -> Result<(), ChannelError> {
    relay
        .change_channels(move |channels| change(&mut channels.feishu))
        .await
}
