//! Discord (SPEC §17): a bot that keeps a Gateway connection and sends each question to the
//! paired person's direct messages with buttons and select menus; a tap answers there, and the
//! message is edited when the question closes anywhere. Only outbound connections: nothing needs
//! to reach this machine.
//!
//! - `rest`: the REST routes Hark calls;
//! - `gateway`: the Gateway (Hello, Identify, heartbeats, Resume, close codes);
//! - `render`: a question's message and components as the shared walk (`channels::walk`)
//!   stands, and the modal of "Other…" and "Skip";
//! - `chat`: the task that owns the conversations: interactions, direct messages
//!   (`pair <code>`, `tell …`, replies), reminders;
//! - `cli`: `hark discord setup` and `unpair` (`POST /api/discord/<action>`; settings also
//!   calls `forget`).

mod chat;
pub mod cli;
mod gateway;
mod render;
mod rest;

pub use rest::{DiscordError, Rest};

use super::pairing::PairingCodes;
use super::{Channel, Relay};
use crate::channels;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::discord::{
    Discord as DiscordConfig, DiscordRefusal, DiscordReport, DiscordSetup,
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
pub const CHANNEL: ChannelName = ChannelName::Discord;
/// The bot token in `secrets.json`, bound to the REST address it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "discordToken",
    server: "discordApiBase",
};
/// Events and payloads waiting for the chat task at most.
const INBOX: usize = 1024;

/// What the chat task is told.
pub enum Input {
    /// A store event.
    Event(Arc<Event>),
    /// An `INTERACTION_CREATE` from the Gateway.
    Interaction(serde_json::Value),
    /// A `MESSAGE_CREATE` from the Gateway.
    Message(serde_json::Value),
    /// The person was unpaired.
    Unpaired(String),
}

/// The bot as the settings stand: its REST client, the paired person and the language.
pub struct Line {
    pub rest: Rest,
    pub api_base: String,
    pub user: Option<String>,
    pub lang: Lang,
}

impl Line {
    /// The bot, when it is on and has its token.
    pub fn of(relay: &Relay) -> Option<Line> {
        let (discord, lang) = relay.store.read_config(|config| {
            (
                config.channels.discord.clone(),
                hark_text::negotiate::daemon_lang(config),
            )
        });
        if !discord.enabled {
            return None;
        }
        let token = relay.secrets.bound(TOKEN, &discord.api_base)?;
        Some(Line {
            rest: Rest::new(relay.http.clone(), &discord.api_base, &token),
            api_base: discord.api_base,
            user: discord.user_id,
            lang,
        })
    }
}

/// Who the bot is, as Discord said.
#[derive(Clone, Debug, Default)]
struct Identity {
    user_id: String,
    name: Option<String>,
}

/// The bot's shared part: the pairing code, who the bot is, the connection's state, the chat
/// task's inbox.
pub struct Discord {
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

impl Default for Discord {
    fn default() -> Self {
        let (inbox, receiver) = mpsc::channel(INBOX);
        Discord {
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
impl Channel for Discord {
    fn name(&self) -> ChannelName {
        CHANNEL
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.discord.enabled
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
            tokio::spawn(gateway::run(relay.clone(), self));
        }
    }

    fn settings_changed(&self) {
        self.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        if self.inbox.try_send(Input::Event(event.clone())).is_err() {
            tracing::warn!("Discord fell behind; an event was not handled");
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
                "nobody paired yet (`hark discord setup`)"
            };
            report.summaries.push(ChannelSummary {
                channel: CHANNEL,
                summary: format!("bot {name}, {link}, {paired}"),
            });
        }
        report.discord = app;
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
                let request: DiscordSetup = channels::input(input)?;
                match self.setup(relay, request.bot_token).await {
                    Ok(report) => channels::output(&report),
                    Err(refusal) => Err(ActionRefusal {
                        status: refusal.status(),
                        body: ErrorBody::field("botToken", refusal.message()),
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

impl Discord {
    /// Passes `input` to the chat task, waiting while its inbox is full (what came over the
    /// connection has taken it from Discord, so it must not be dropped).
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

    /// The bot's own user, from the Gateway's READY.
    fn learned_user(&self, id: &str, name: Option<&str>) {
        let mut identity = self
            .identity
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let known = identity.get_or_insert_with(Identity::default);
        known.user_id = id.to_string();
        if let Some(name) = name {
            known.name = Some(name.to_string());
        }
    }

    /// The bot's own user id, once known: its own messages are not the person's.
    pub fn bot_user(&self) -> Option<String> {
        self.identity().map(|identity| identity.user_id)
    }

    /// The bot as settings and the CLI show it.
    pub fn report_for(&self, relay: &Relay) -> DiscordReport {
        let discord = relay
            .store
            .read_config(|config| config.channels.discord.clone());
        DiscordReport {
            token: relay.secrets.bound(TOKEN, &discord.api_base).is_some(),
            bot: self.identity().and_then(|identity| identity.name),
            connected: self.connected.load(Ordering::SeqCst),
            paired: discord.user_id.is_some(),
            pairings: self.pairings.load(Ordering::SeqCst),
            pairing: self.codes.waiting(),
        }
    }

    /// Checks `token` (or the saved one) with Discord, saves it, turns the bot on and makes a
    /// new pairing code.
    ///
    /// # Errors
    /// Why Discord cannot be set up.
    pub async fn setup(
        &self,
        relay: &Arc<Relay>,
        token: Option<String>,
    ) -> Result<DiscordReport, DiscordRefusal> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.discord.api_base.clone());
        let token = match token.map(|token| token.trim().to_string()) {
            Some(token) if !token.is_empty() => {
                if !token_shaped(&token) {
                    return Err(DiscordRefusal::TokenShape);
                }
                token
            }
            _ => relay
                .secrets
                .bound(TOKEN, &api_base)
                .ok_or(DiscordRefusal::NoToken)?,
        };
        let me = match Rest::new(relay.http.clone(), &api_base, &token).me().await {
            Ok(me) => me,
            Err(error) if error.wrong_token() => return Err(DiscordRefusal::WrongToken),
            Err(error) => {
                return Err(DiscordRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        };
        self.learned(Some(Identity {
            user_id: me.id,
            name: Some(me.username),
        }));
        let secrets = relay.secrets.clone();
        let base = api_base.clone();
        tokio::task::spawn_blocking(move || secrets.set_bound(TOKEN, Some(token), &base))
            .await
            .map_err(std::io::Error::other)
            .and_then(|saved| saved)
            .map_err(|_| DiscordRefusal::SaveFailed)?;
        change_config(relay, |discord| discord.enabled = true)
            .await
            .map_err(|_| DiscordRefusal::SaveFailed)?;
        self.codes.issue().map_err(|_| DiscordRefusal::SaveFailed)?;
        self.settings_changed();
        Ok(self.report_for(relay))
    }

    /// Forgets the paired person (who is told so).
    ///
    /// # Errors
    /// When the config cannot be saved.
    pub async fn unpair(&self, relay: &Arc<Relay>) -> Result<DiscordReport, ChannelError> {
        let before = relay
            .store
            .read_config(|config| config.channels.discord.user_id.clone());
        change_config(relay, |discord| discord.user_id = None).await?;
        if let Some(user) = before {
            let _ = self.inbox.try_send(Input::Unpaired(user));
        }
        Ok(self.report_for(relay))
    }

    /// Forgets the token and turns the bot off.
    ///
    /// # Errors
    /// When the secrets or the config cannot be saved.
    pub async fn forget(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.discord.api_base.clone());
        let secrets = relay.secrets.clone();
        let not_saved = |error: std::io::Error| {
            ChannelError::NotSaved(format!(
                "the Discord token could not be removed from secrets.json: {}",
                error.kind()
            ))
        };
        tokio::task::spawn_blocking(move || secrets.set_bound(TOKEN, None, &api_base))
            .await
            .map_err(|error| not_saved(std::io::Error::other(error)))?
            .map_err(not_saved)?;
        self.learned(None);
        change_config(relay, |discord| {
            discord.enabled = false;
            discord.user_id = None;
        })
        .await?;
        self.settings_changed();
        Ok(())
    }
}

/// A bot token as the Developer Portal makes them: three parts of URL-safe base64 separated by
/// dots.
fn token_shaped(token: &str) -> bool {
    let parts: Vec<&str> = token.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        })
        && (50..=120).contains(&token.len())
}

/// `hark channel test discord`: a message in the paired person's direct messages.
async fn test(relay: &Arc<Relay>) -> Result<String, ChannelError> {
    let Some(line) = Line::of(relay) else {
        return Err(ChannelError::NotSetUp("Discord is not set up: run `hark discord setup`, or turn it on and pair in settings (\"Notify me elsewhere\")".into()));
    };
    let Some(user) = line.user.clone() else {
        return Err(ChannelError::NotSetUp("nobody is paired in Discord yet: run `hark discord setup` and send the bot `pair <code>` in a direct message".into()));
    };
    let shown = render::said(&hark_text::t_in(line.lang, "discord-test", &[]));
    let sent = match line.rest.direct(&user).await {
        Ok(channel) => line.rest.send(&channel, &shown.0).await,
        Err(error) => Err(error),
    };
    match sent {
        Ok(_) => {
            relay.statuses.sent(CHANNEL, &line.api_base);
            Ok("sent a test message to the paired person in Discord".into())
        }
        Err(error) => {
            relay
                .statuses
                .failed(CHANNEL, &line.api_base, error.to_string());
            Err(ChannelError::Undelivered(error.to_string()))
        }
    }
}

/// Changes `channels.discord` in the config, under the config's lock.
async fn change_config(
    relay: &Relay,
    change: impl FnOnce(&mut DiscordConfig) + Send + 'static,
) -> Result<(), ChannelError> {
    relay
        .change_channels(move |channels| change(&mut channels.discord))
        .await
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_checked_for_shape_before_discord_is_asked() {
        assert!(super::token_shaped(
            "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
        ));
        for wrong in ["", "xoxb-1-2", "a.b", "MTIz.Gh Ij.abc", "a..b"] {
            assert!(!super::token_shaped(wrong), "{wrong}");
        }
    }
}
