//! Config key `channels.discord` and what the Discord bot reports and refuses (SPEC §17): a bot
//! that keeps a Gateway connection, sends each question to the paired person's direct messages
//! with buttons and select menus, and takes the taps back. Its token is in `secrets.json`.

use super::PairingCode;
use super::address::web_address;
use super::hidden::Hidden;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// Discord's REST API unless `channels.discord.apiBase` says otherwise.
pub const DISCORD_API: &str = "https://discord.com/api/v10";

/// `channels.discord`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Discord {
    pub enabled: bool,
    /// Where the REST API answers (a test's stand-in); the Gateway's address comes from it.
    pub api_base: String,
    /// The one person (a user id, digits) who receives and may answer questions, set by pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

impl Default for Discord {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: DISCORD_API.to_string(),
            user_id: None,
        }
    }
}

/// The Discord bot as settings and `hark discord setup` show it (never its token).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscordReport {
    /// Whether a bot token is saved.
    pub token: bool,
    /// The bot's username, once Discord confirmed the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Whether the Gateway connection is open (READY or RESUMED) now.
    pub connected: bool,
    /// Whether a person is paired.
    pub paired: bool,
    /// People paired since the daemon started (a pairing that took place shows as a new count).
    #[serde(default)]
    pub pairings: u64,
    /// The code to send the bot as `pair <code>` in a direct message, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<PairingCode>,
}

/// `POST /api/discord/setup`: a new bot token (checked with Discord before it is saved), or
/// none to keep the saved one and only make a new pairing code.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscordSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
}

/// Shows whether each secret was given, never what it is.
impl std::fmt::Debug for DiscordSetup {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("DiscordSetup")
            .field("bot_token", &Hidden(&self.bot_token))
            .finish()
    }
}

/// Why Discord could not be set up; `message` is for the API and the CLI, settings says it in
/// the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum DiscordRefusal {
    /// Not shaped like a bot token (three dot-separated parts of URL-safe base64).
    TokenShape,
    /// Discord does not take the token (`GET /users/@me` answers 401).
    WrongToken,
    /// No token was given and none is saved.
    NoToken,
    /// Discord could not be asked; `reason` says why.
    Unreachable { reason: String },
    /// The token could not be saved.
    SaveFailed,
}

impl super::SetupRefusal for DiscordRefusal {
    fn status(&self) -> u16 {
        match self {
            DiscordRefusal::TokenShape | DiscordRefusal::NoToken => 400,
            DiscordRefusal::WrongToken => 422,
            DiscordRefusal::Unreachable { .. } => 502,
            DiscordRefusal::SaveFailed => 500,
        }
    }

    fn message(&self) -> String {
        match self {
            DiscordRefusal::TokenShape => "botToken does not look like a bot token: the Developer Portal's Bot page gives one of three parts separated by dots".into(),
            DiscordRefusal::WrongToken => "botToken is not taken by Discord: reset it on the Developer Portal's Bot page and copy the new one".into(),
            DiscordRefusal::NoToken => "botToken is missing: no Discord bot token is saved yet".into(),
            DiscordRefusal::Unreachable { reason } => format!("botToken could not be checked: {reason}"),
            DiscordRefusal::SaveFailed => "botToken could not be saved in secrets.json".into(),
        }
    }
}

/// Checks and tidies `channels.discord`.
pub(super) fn check(discord: &mut Discord) -> Result<(), ErrorBody> {
    discord.api_base = web_address("channels.discord.apiBase", &discord.api_base)?;
    if let Some(user) = &discord.user_id
        && (user.is_empty() || user.len() > 20 || !user.bytes().all(|byte| byte.is_ascii_digit()))
    {
        return Err(ErrorBody::field(
            "channels.discord.userId",
            "channels.discord.userId must be a Discord user id, digits such as 82198898841029460 (pair with `hark discord setup`)",
        ));
    }
    Ok(())
}

impl super::ChatAppSettings for Discord {
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
        self.user_id.clone()
    }

    fn pair(&mut self, person: Option<String>) {
        self.user_id = person;
    }
}

impl super::PairingReport for DiscordReport {
    fn shared(&self) -> super::ChatAppState<'_> {
        super::ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: Some(self.connected),
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}
