//! The Telegram bot (SPEC §11): each question becomes a message in one paired chat, with buttons
//! that answer it there; the message is edited when the question closes anywhere. The bot only
//! ever calls out (long polling), so it works behind NAT with nothing reaching this machine.
//!
//! - `bot_api`: the Bot API client (frankenstein's methods over our reqwest);
//! - `sent`: which message each open question has, kept across restarts;
//! - `updates`: the few fields of Telegram's answers Hark reads;
//! - `render`: a question's message as the shared walk (`channels::walk`) stands;
//! - `chat`: the task that owns the conversations and sends; `inbound`: taps and replies;
//! - `poller`: `getUpdates`, with backoff while Telegram cannot be reached;
//! - `cli`: `hark telegram setup` and `unpair`, which call the bot's actions of those names
//!   (`POST /api/telegram/<action>`; settings also calls `forget`).

mod bot_api;
mod chat;
pub mod cli;
mod inbound;
mod poller;
mod render;
mod sent;
mod updates;

pub use bot_api::{BotApi, BotError};

use super::pairing::PairingCodes;
use super::{Channel, Relay};
use crate::channels;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::telegram::{
    Telegram as TelegramConfig, TelegramRefusal, TelegramReport, TelegramSetup,
};
use hark_core::model::{
    ActionRefusal, ChannelError, ChannelName, ChannelSummary, Channels, ChannelsReport, Config,
    ErrorBody, Event,
};
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Telegram;
/// The bot's token in `secrets.json`, bound to the Bot API address it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "telegramToken",
    server: "telegramApiBase",
};
/// Events and updates waiting for the chat task at most.
const INBOX: usize = 1024;

/// What the chat task is told.
pub enum Input {
    /// A store event.
    Event(Arc<Event>),
    /// Something the bot received.
    Update(Box<updates::Update>),
    /// The chat was unpaired: forget its messages.
    Unpaired(i64),
}

/// The bot's shared part: the pairing code, the bot's name, and the chat task's inbox.
pub struct Telegram {
    codes: PairingCodes<i64>,
    /// The bot's username, once Telegram confirmed the token.
    bot: Mutex<Option<String>>,
    inbox: mpsc::Sender<Input>,
    receiver: Mutex<Option<mpsc::Receiver<Input>>>,
    /// Wakes the poller when the settings change.
    wake: Notify,
    /// Chats paired since the daemon started, so `hark telegram setup` knows its code worked.
    pairings: std::sync::atomic::AtomicU64,
}

impl Default for Telegram {
    fn default() -> Self {
        let (inbox, receiver) = mpsc::channel(INBOX);
        Telegram {
            codes: PairingCodes::default(),
            bot: Mutex::new(None),
            inbox,
            receiver: Mutex::new(Some(receiver)),
            wake: Notify::new(),
            pairings: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

#[async_trait::async_trait]
impl Channel for Telegram {
    fn name(&self) -> ChannelName {
        CHANNEL
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.telegram.enabled
    }

    /// Starts the chat task and the poller.
    fn start(self: Arc<Self>, relay: &Arc<Relay>) {
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

    /// The poller looks again.
    fn settings_changed(&self) {
        self.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        self.tell(Input::Event(event.clone()));
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        test(relay).await
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let bot = self.report_for(relay);
        if bot.token {
            let name = bot.bot.as_deref().map_or_else(
                || "whose name is not known yet".to_string(),
                |name| format!("@{name}"),
            );
            let paired = if bot.paired {
                "a chat is paired"
            } else {
                "no chat paired yet (`hark telegram setup`)"
            };
            report.summaries.push(ChannelSummary {
                channel: CHANNEL,
                summary: format!("bot {name}, {paired}"),
            });
        }
        report.telegram = bot;
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
                let request: TelegramSetup = channels::input(input)?;
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

/// A bot token as @BotFather makes them: the bot's id, a colon, 30 or more URL-safe characters.
fn token_shaped(token: &str) -> bool {
    let Some((id, secret)) = token.split_once(':') else {
        return false;
    };
    !id.is_empty()
        && id.len() <= 20
        && id.bytes().all(|byte| byte.is_ascii_digit())
        && (30..=100).contains(&secret.len())
        && secret
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

impl Telegram {
    /// Passes `input` to the chat task; a full inbox drops it (and says so).
    pub fn tell(&self, input: Input) {
        if self.inbox.try_send(input).is_err() {
            tracing::warn!("the Telegram bot fell behind; an event was not handled");
        }
    }

    /// Passes `input` to the chat task, waiting while its inbox is full (the poller: an update
    /// it has confirmed to Telegram must not be dropped).
    pub async fn tell_waiting(&self, input: Input) {
        let _ = self.inbox.send(input).await;
    }

    /// A chat was paired.
    fn paired(&self) {
        self.pairings
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    fn bot(&self) -> Option<String> {
        self.bot
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }

    fn learned_bot(&self, username: Option<String>) {
        *self.bot.lock().unwrap_or_else(|poison| poison.into_inner()) = username;
    }

    /// The bot as settings and the CLI show it.
    pub fn report_for(&self, relay: &Relay) -> TelegramReport {
        let telegram = relay
            .store
            .read_config(|config| config.channels.telegram.clone());
        let bot = self.bot();
        let pairing = self.codes.waiting().map(|mut pairing| {
            pairing.link = bot
                .as_ref()
                .map(|bot| format!("https://t.me/{bot}?start={}", pairing.code));
            pairing
        });
        TelegramReport {
            token: relay.secrets.bound(TOKEN, &telegram.api_base).is_some(),
            bot,
            paired: telegram.chat_id.is_some(),
            pairings: self.pairings.load(std::sync::atomic::Ordering::SeqCst),
            pairing,
        }
    }

    /// Checks `token` (or the saved one) with Telegram, saves it, turns the bot on and makes a
    /// new pairing code.
    ///
    /// # Errors
    /// Why the bot cannot be set up.
    pub async fn setup(
        &self,
        relay: &Arc<Relay>,
        token: Option<String>,
    ) -> Result<TelegramReport, TelegramRefusal> {
        let telegram = self;
        let api_base = relay
            .store
            .read_config(|config| config.channels.telegram.api_base.clone());
        let token = match token.map(|token| token.trim().to_string()) {
            Some(token) if !token.is_empty() => {
                if !token_shaped(&token) {
                    return Err(TelegramRefusal::TokenShape);
                }
                token
            }
            _ => relay
                .secrets
                .bound(TOKEN, &api_base)
                .ok_or(TelegramRefusal::NoToken)?,
        };
        let api = BotApi::new(relay.http.clone(), &api_base, &token);
        let me = match api.me().await {
            Ok(me) => me,
            Err(error) if error.wrong_token() => return Err(TelegramRefusal::WrongToken),
            Err(error) => {
                return Err(TelegramRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        };
        telegram.learned_bot(me.username);
        let secrets = relay.secrets.clone();
        let saving_base = api_base.clone();
        tokio::task::spawn_blocking(move || secrets.set_bound(TOKEN, Some(token), &saving_base))
            .await
            .map_err(std::io::Error::other)
            .and_then(|saved| saved)
            .map_err(|_| TelegramRefusal::SaveFailed)?;
        change_config(relay, |telegram| telegram.enabled = true)
            .await
            .map_err(|_| TelegramRefusal::SaveFailed)?;
        telegram
            .codes
            .issue()
            .map_err(|_| TelegramRefusal::SaveFailed)?;
        telegram.settings_changed();
        Ok(telegram.report_for(relay))
    }

    /// Forgets the paired chat (which is told so); the bot then answers nobody until a chat
    /// pairs again.
    ///
    /// # Errors
    /// When the config cannot be saved.
    pub async fn unpair(&self, relay: &Arc<Relay>) -> Result<TelegramReport, ChannelError> {
        let before = relay
            .store
            .read_config(|config| config.channels.telegram.chat_id);
        change_config(relay, |telegram| telegram.chat_id = None).await?;
        if let Some(chat) = before {
            self.tell(Input::Unpaired(chat));
        }
        Ok(self.report_for(relay))
    }

    /// Forgets the bot token and turns the bot off.
    ///
    /// # Errors
    /// When the secrets or the config cannot be saved.
    pub async fn forget(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.telegram.api_base.clone());
        let secrets = relay.secrets.clone();
        let not_saved = |error: std::io::Error| {
            ChannelError::NotSaved(format!(
                "the bot token could not be removed from secrets.json: {}",
                error.kind()
            ))
        };
        tokio::task::spawn_blocking(move || secrets.set_bound(TOKEN, None, &api_base))
            .await
            .map_err(|error| not_saved(std::io::Error::other(error)))?
            .map_err(not_saved)?;
        self.learned_bot(None);
        change_config(relay, |telegram| {
            telegram.enabled = false;
            telegram.chat_id = None;
        })
        .await?;
        self.settings_changed();
        Ok(())
    }
}

/// `hark channel test telegram`: a message to the paired chat.
async fn test(relay: &Arc<Relay>) -> Result<String, ChannelError> {
    let Some(line) = chat::Line::of(relay) else {
        return Err(ChannelError::NotSetUp("Telegram is not set up: run `hark telegram setup`, or turn the bot on and pair a chat in settings (\"Notify me elsewhere\")".into()));
    };
    let Some(chat) = line.chat else {
        return Err(ChannelError::NotSetUp("no Telegram chat is paired yet: run `hark telegram setup` and send the code to the bot".into()));
    };
    let text = render::escape(&hark_text::t_in(line.lang, "telegram-test", &[]));
    match line.send(chat, text, None).await {
        Ok(_) => {
            relay.statuses.sent(CHANNEL, &line.api_base);
            Ok("sent a test message to the paired Telegram chat".into())
        }
        Err(error) => {
            relay
                .statuses
                .failed(CHANNEL, &line.api_base, error.to_string());
            Err(ChannelError::Undelivered(error.to_string()))
        }
    }
}

/// Changes `channels.telegram` in the config, under the config's lock.
async fn change_config(
    relay: &Relay,
    change: impl FnOnce(&mut TelegramConfig) + Send + 'static,
) -> Result<(), ChannelError> {
    relay
        .change_channels(move |channels| change(&mut channels.telegram))
        .await
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_checked_for_shape_before_telegram_is_asked() {
        assert!(super::token_shaped(
            "123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs"
        ));
        for wrong in [
            "",
            "123456789",
            ":AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs",
            "12a:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs",
            "123:short",
            "123:AAEhBOweik6ad9r QXMENQjcrGbqCr4K-Qs",
            "123:AAEhBOweik6ad9r/QXMENQjcrGbqCr4K-Qs",
        ] {
            assert!(!super::token_shaped(wrong), "{wrong}");
        }
    }
}
