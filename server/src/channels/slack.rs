//! Slack (SPEC §17): a Slack app that keeps a Socket Mode link open (its app-level token) and
//! posts each question to the paired person's direct messages with buttons (its bot token); a
//! tap answers there, and the message is updated when the question closes anywhere. Only
//! outbound connections: nothing needs to reach this machine.
//!
//! - `web_api`: the Web API methods Hark calls;
//! - `socket`: the Socket Mode link (hello, acknowledgements, disconnect, reconnection);
//! - `render`: a question's message in Block Kit as the shared walk (`channels::walk`) stands,
//!   and the modal of "Other…" and "Skip";
//! - `chat`: the task that owns the conversations: taps, modal submissions, direct messages
//!   (`pair <code>`, `tell …`), reminders;
//! - `cli`: `hark slack setup` and `unpair` (`POST /api/slack/<action>`; settings also calls
//!   `forget`).

mod chat;
pub mod cli;
mod render;
mod socket;
mod web_api;

pub use web_api::{SlackError, WebApi};

use super::pairing::PairingCodes;
use super::{Channel, Relay};
use crate::channels;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::slack::{
    Slack as SlackConfig, SlackRefusal, SlackReport, SlackSetup,
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
/// Events and payloads waiting for the chat task at most.
const INBOX: usize = 1024;

/// What the chat task is told.
pub enum Input {
    /// A store event.
    Event(Arc<Event>),
    /// An event or an interaction that came over the Socket Mode link.
    Payload(serde_json::Value),
    /// The person was unpaired.
    Unpaired(String),
}

/// The app as the settings stand: its two tokens' clients, the paired person and the language.
pub struct Line {
    pub bot: WebApi,
    /// Without it no link can be opened (the bot token alone still posts).
    pub app: Option<WebApi>,
    pub api_base: String,
    pub user: Option<String>,
    pub lang: Lang,
}

impl Line {
    /// The app, when it is on and has its bot token.
    pub fn of(relay: &Relay) -> Option<Line> {
        let (slack, lang) = relay.store.read_config(|config| {
            (
                config.channels.slack.clone(),
                hark_text::negotiate::daemon_lang(config),
            )
        });
        if !slack.enabled {
            return None;
        }
        let bot = relay.secrets.bound(BOT_TOKEN, &slack.api_base)?;
        let app = relay.secrets.bound(APP_TOKEN, &slack.api_base);
        Some(Line {
            bot: WebApi::new(relay.http.clone(), &slack.api_base, &bot),
            app: app.map(|app| WebApi::new(relay.http.clone(), &slack.api_base, &app)),
            api_base: slack.api_base,
            user: slack.user_id,
            lang,
        })
    }
}

/// Who the bot is, as `auth.test` said.
#[derive(Clone, Debug, Default)]
struct Identity {
    user_id: String,
    name: Option<String>,
    team: Option<String>,
}

/// The app's shared part: the pairing code, who the bot is, the link's state, the chat task's
/// inbox.
pub struct Slack {
    codes: PairingCodes<String>,
    identity: Mutex<Option<Identity>>,
    connected: AtomicBool,
    inbox: mpsc::Sender<Input>,
    receiver: Mutex<Option<mpsc::Receiver<Input>>>,
    /// Wakes the link when the settings change.
    wake: Notify,
    /// People paired since the daemon started.
    pairings: AtomicU64,
}

impl Default for Slack {
    fn default() -> Self {
        let (inbox, receiver) = mpsc::channel(INBOX);
        Slack {
            codes: PairingCodes::default(),
            identity: Mutex::new(None),
            connected: AtomicBool::new(false),
            inbox,
            receiver: Mutex::new(Some(receiver)),
            wake: Notify::new(),
            pairings: AtomicU64::new(0),
        }
    }
}

#[async_trait::async_trait]
impl Channel for Slack {
    fn name(&self) -> ChannelName {
        CHANNEL
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.slack.enabled
    }

    /// Starts the chat task and the link.
    fn start(self: Arc<Self>, relay: &Arc<Relay>) {
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(receiver) = receiver {
            tokio::spawn(chat::run(relay.clone(), self.clone(), receiver));
            tokio::spawn(socket::run(relay.clone(), self));
        }
    }

    fn settings_changed(&self) {
        self.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        if self.inbox.try_send(Input::Event(event.clone())).is_err() {
            tracing::warn!("Slack fell behind; an event was not handled");
        }
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        test(relay).await
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let app = self.report_for(relay);
        if app.token {
            let name = app.bot.as_deref().map_or_else(
                || "whose name is not known yet".to_string(),
                |name| format!("@{name}"),
            );
            let link = if app.connected {
                "connected"
            } else {
                "not connected"
            };
            let paired = if app.paired {
                "a person is paired"
            } else {
                "nobody paired yet (`hark slack setup`)"
            };
            report.summaries.push(ChannelSummary {
                channel: CHANNEL,
                summary: format!("app {name}, {link}, {paired}"),
            });
        }
        report.slack = app;
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
                let request: SlackSetup = channels::input(input)?;
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

impl Slack {
    /// Passes `input` to the chat task, waiting while its inbox is full (what came over the
    /// link has been acknowledged to Slack, so it must not be dropped).
    pub async fn tell_waiting(&self, input: Input) {
        let _ = self.inbox.send(input).await;
    }

    fn set_connected(&self, connected: bool) {
        self.connected.store(connected, Ordering::SeqCst);
    }

    fn paired(&self) {
        self.pairings.fetch_add(1, Ordering::SeqCst);
    }

    fn identity(&self) -> Option<Identity> {
        self.identity
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }

    fn learned(&self, identity: Option<Identity>) {
        *self
            .identity
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = identity;
    }

    fn learned_identity(&self, identity: web_api::Identity) {
        self.learned(Some(Identity {
            user_id: identity.user_id,
            name: identity.user,
            team: identity.team,
        }));
    }

    /// The bot's own user id, once known: its own messages are not the person's.
    pub fn bot_user(&self) -> Option<String> {
        self.identity().map(|identity| identity.user_id)
    }

    /// The app as settings and the CLI show it.
    pub fn report_for(&self, relay: &Relay) -> SlackReport {
        let slack = relay
            .store
            .read_config(|config| config.channels.slack.clone());
        let identity = self.identity();
        SlackReport {
            token: relay.secrets.bound(BOT_TOKEN, &slack.api_base).is_some()
                && relay.secrets.bound(APP_TOKEN, &slack.api_base).is_some(),
            bot: identity.as_ref().and_then(|identity| identity.name.clone()),
            team: identity.and_then(|identity| identity.team),
            connected: self.connected.load(Ordering::SeqCst),
            paired: slack.user_id.is_some(),
            pairings: self.pairings.load(Ordering::SeqCst),
            pairing: self.codes.waiting(),
        }
    }

    /// Checks the tokens given (or the saved ones) with Slack, saves them, turns the app on
    /// and makes a new pairing code.
    ///
    /// # Errors
    /// Why Slack cannot be set up, naming the token.
    pub async fn setup(
        &self,
        relay: &Arc<Relay>,
        request: SlackSetup,
    ) -> Result<SlackReport, SlackRefusal> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.slack.api_base.clone());
        let given = |token: Option<String>| {
            token
                .map(|token| token.trim().to_string())
                .filter(|token| !token.is_empty())
        };
        let bot = match given(request.bot_token) {
            Some(token) if !token.starts_with("xoxb-") => {
                return Err(SlackRefusal::BotTokenShape);
            }
            Some(token) => token,
            None => relay
                .secrets
                .bound(BOT_TOKEN, &api_base)
                .ok_or(SlackRefusal::NoToken)?,
        };
        let app = match given(request.app_token) {
            Some(token) if !token.starts_with("xapp-") => {
                return Err(SlackRefusal::AppTokenShape);
            }
            Some(token) => token,
            None => relay
                .secrets
                .bound(APP_TOKEN, &api_base)
                .ok_or(SlackRefusal::NoToken)?,
        };
        let unreachable = |error: SlackError| SlackRefusal::Unreachable {
            reason: error.to_string(),
        };
        let identity = match WebApi::new(relay.http.clone(), &api_base, &bot)
            .identity()
            .await
        {
            Ok(identity) => identity,
            Err(error) if error.wrong_token() => return Err(SlackRefusal::WrongBotToken),
            Err(error) => return Err(unreachable(error)),
        };
        match WebApi::new(relay.http.clone(), &api_base, &app)
            .socket_address()
            .await
        {
            Ok(_) => {}
            Err(error) if error.wrong_token() => return Err(SlackRefusal::WrongAppToken),
            Err(error) => return Err(unreachable(error)),
        }
        self.learned_identity(identity);
        let secrets = relay.secrets.clone();
        let base = api_base.clone();
        tokio::task::spawn_blocking(move || {
            secrets.set_bound(BOT_TOKEN, Some(bot), &base)?;
            secrets.set_bound(APP_TOKEN, Some(app), &base)
        })
        .await
        .map_err(std::io::Error::other)
        .and_then(|saved| saved)
        .map_err(|_| SlackRefusal::SaveFailed)?;
        change_config(relay, |slack| slack.enabled = true)
            .await
            .map_err(|_| SlackRefusal::SaveFailed)?;
        self.codes.issue().map_err(|_| SlackRefusal::SaveFailed)?;
        self.settings_changed();
        Ok(self.report_for(relay))
    }

    /// Forgets the paired person (who is told so).
    ///
    /// # Errors
    /// When the config cannot be saved.
    pub async fn unpair(&self, relay: &Arc<Relay>) -> Result<SlackReport, ChannelError> {
        let before = relay
            .store
            .read_config(|config| config.channels.slack.user_id.clone());
        change_config(relay, |slack| slack.user_id = None).await?;
        if let Some(user) = before {
            let _ = self.inbox.try_send(Input::Unpaired(user));
        }
        Ok(self.report_for(relay))
    }

    /// Forgets both tokens and turns the app off.
    ///
    /// # Errors
    /// When the secrets or the config cannot be saved.
    pub async fn forget(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.slack.api_base.clone());
        let secrets = relay.secrets.clone();
        let not_saved = |error: std::io::Error| {
            ChannelError::NotSaved(format!(
                "the Slack tokens could not be removed from secrets.json: {}",
                error.kind()
            ))
        };
        tokio::task::spawn_blocking(move || {
            secrets.set_bound(BOT_TOKEN, None, &api_base)?;
            secrets.set_bound(APP_TOKEN, None, &api_base)
        })
        .await
        .map_err(|error| not_saved(std::io::Error::other(error)))?
        .map_err(not_saved)?;
        self.learned(None);
        change_config(relay, |slack| {
            slack.enabled = false;
            slack.user_id = None;
        })
        .await?;
        self.settings_changed();
        Ok(())
    }
}

/// `hark channel test slack`: a message in the paired person's direct messages.
async fn test(relay: &Arc<Relay>) -> Result<String, ChannelError> {
    let Some(line) = Line::of(relay) else {
        return Err(ChannelError::NotSetUp("Slack is not set up: run `hark slack setup`, or turn it on and pair in settings (\"Notify me elsewhere\")".into()));
    };
    let Some(user) = line.user.clone() else {
        return Err(ChannelError::NotSetUp("nobody is paired in Slack yet: run `hark slack setup` and send the bot `pair <code>` in a direct message".into()));
    };
    let text = hark_text::t_in(line.lang, "slack-test", &[]);
    let shown = render::said(&text);
    let sent = match line.bot.direct(&user).await {
        Ok(channel) => line.bot.post(&channel, &shown.text, &shown.blocks).await,
        Err(error) => Err(error),
    };
    match sent {
        Ok(_) => {
            relay.statuses.sent(CHANNEL, &line.api_base);
            Ok("sent a test message to the paired person in Slack".into())
        }
        Err(error) => {
            relay
                .statuses
                .failed(CHANNEL, &line.api_base, error.to_string());
            Err(ChannelError::Undelivered(error.to_string()))
        }
    }
}

/// Changes `channels.slack` in the config, under the config's lock.
async fn change_config(
    relay: &Relay,
    change: impl FnOnce(&mut SlackConfig) + Send + 'static,
) -> Result<(), ChannelError> {
    relay
        .change_channels(move |channels| change(&mut channels.slack))
        .await
}
