//! Config key `channels.telegram` and what the Telegram bot reports and refuses: a bot that
//! sends each question to one paired chat, with buttons that answer it there. Its token is in
//! `secrets.json`.

use super::PairingCode;
use super::address::web_address;
use super::hidden::Hidden;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// The Bot API's address unless `channels.telegram.apiBase` says otherwise.
pub const TELEGRAM_API: &str = "https://api.telegram.org";

/// `channels.telegram`: a bot that sends each question to one paired chat, with buttons that
/// answer it. Its token is in `secrets.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Telegram {
    pub enabled: bool,
    /// Where the Bot API answers (a local Bot API server, or a test's stand-in).
    pub api_base: String,
    /// The one chat that receives and may answer questions, set by pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_id: Option<i64>,
}

impl Default for Telegram {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: TELEGRAM_API.to_string(),
            chat_id: None,
        }
    }
}

/// The Telegram bot as settings and `hark telegram setup` show it (never its token).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TelegramReport {
    /// Whether a bot token is saved.
    pub token: bool,
    /// The bot's username (without `@`), once Telegram confirmed the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Whether a chat is paired.
    pub paired: bool,
    /// Chats paired since the daemon started (a pairing that took place shows as a new count).
    #[serde(default)]
    pub pairings: u64,
    /// The pairing code waiting to be sent to the bot, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<PairingCode>,
}

/// `POST /api/telegram/setup`: a new bot token (checked with Telegram before it is saved), or
/// none to keep the saved one and only make a new pairing code.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TelegramSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
}

/// Shows whether each secret was given, never what it is.
impl std::fmt::Debug for TelegramSetup {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("TelegramSetup")
            .field("bot_token", &Hidden(&self.bot_token))
            .finish()
    }
}

/// Why a Telegram bot could not be set up; `message` is for the API and the CLI, settings
/// says it in the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum TelegramRefusal {
    /// Not shaped like a token from @BotFather (digits, a colon, then 30 or more characters).
    TokenShape,
    /// Telegram does not know the token.
    WrongToken,
    /// No token was given and none is saved.
    NoToken,
    /// Telegram could not be asked; `reason` says why.
    Unreachable { reason: String },
    /// The token could not be saved.
    SaveFailed,
}

impl super::SetupRefusal for TelegramRefusal {
    fn status(&self) -> u16 {
        match self {
            TelegramRefusal::TokenShape | TelegramRefusal::NoToken => 400,
            TelegramRefusal::WrongToken => 422,
            TelegramRefusal::Unreachable { .. } => 502,
            TelegramRefusal::SaveFailed => 500,
        }
    }

    fn message(&self) -> String {
        match self {
            TelegramRefusal::TokenShape => "botToken does not look like a bot token: BotFather gives one such as 123456789:AAE… (digits, a colon, then letters, digits, - and _)".into(),
            TelegramRefusal::WrongToken => "botToken is not known to Telegram: copy it again from @BotFather (/mybots, API Token)".into(),
            TelegramRefusal::NoToken => "botToken is missing: no bot token is saved yet; create a bot with @BotFather and give its token".into(),
            TelegramRefusal::Unreachable { reason } => format!("botToken could not be checked: {reason}"),
            TelegramRefusal::SaveFailed => "botToken could not be saved in secrets.json".into(),
        }
    }
}

/// Checks and tidies `channels.telegram`.
pub(super) fn check(telegram: &mut Telegram) -> Result<(), ErrorBody> {
    telegram.api_base = web_address("channels.telegram.apiBase", &telegram.api_base)?;
    if telegram.chat_id == Some(0) {
        return Err(ErrorBody::field(
            "channels.telegram.chatId",
            "channels.telegram.chatId must be a Telegram chat id (pair with `hark telegram setup`)",
        ));
    }
    Ok(())
}

impl super::ChatAppSettings for Telegram {
    fn api_base(&self) -> &str {
        &self.api_base
    }

    fn enabled(&self) -> bool {
        self.enabled
    }

    fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    fn person(&self) -> Option<String> {
        self.chat_id.map(|chat| chat.to_string())
    }

    fn pair(&mut self, person: Option<String>) {
        // A chat paired turns the bot on.
        self.chat_id = person.and_then(|person| person.parse().ok());
        self.enabled |= self.chat_id.is_some();
    }
}

impl super::PairingReport for TelegramReport {
    fn shared(&self) -> super::ChatAppState<'_> {
        super::ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: None,
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}
