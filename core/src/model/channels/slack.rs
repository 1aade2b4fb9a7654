//! Config key `channels.slack` and what the Slack app reports and refuses (SPEC §17): an app
//! that connects over Socket Mode (its app-level token opens the WebSocket), posts each question
//! to the paired person's direct messages with buttons (its bot token), and takes the taps back.
//! Both tokens are in `secrets.json`.

use super::PairingCode;
use super::address::web_address;
use super::hidden::Hidden;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// Slack's Web API unless `channels.slack.apiBase` says otherwise.
pub const SLACK_API: &str = "https://slack.com/api";

/// `channels.slack`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Slack {
    pub enabled: bool,
    /// Where the Web API answers (a test's stand-in).
    pub api_base: String,
    /// The one person (`U…`) who receives and may answer questions, set by pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

impl Default for Slack {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: SLACK_API.to_string(),
            user_id: None,
        }
    }
}

/// The Slack app as settings and `hark slack setup` show it (never its tokens).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlackReport {
    /// Whether both tokens are saved.
    pub token: bool,
    /// The bot's name and its workspace, once Slack confirmed the bot token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Whether the Socket Mode connection is open now.
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

/// `POST /api/slack/setup`: new tokens (checked with Slack before they are saved), or none to
/// keep the saved ones and only make a new pairing code.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlackSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_token: Option<String>,
}

/// Shows whether each secret was given, never what it is.
impl std::fmt::Debug for SlackSetup {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SlackSetup")
            .field("bot_token", &Hidden(&self.bot_token))
            .field("app_token", &Hidden(&self.app_token))
            .finish()
    }
}

/// Why Slack could not be set up; `message` is for the API and the CLI, settings says it in
/// the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum SlackRefusal {
    /// The bot token does not start with `xoxb-`.
    BotTokenShape,
    /// The app-level token does not start with `xapp-`.
    AppTokenShape,
    /// Slack does not take the bot token (`auth.test`).
    WrongBotToken,
    /// Slack does not take the app-level token (`apps.connections.open`), or it lacks
    /// `connections:write`.
    WrongAppToken,
    /// A token is missing and none is saved.
    NoToken,
    /// Slack could not be asked; `reason` says why.
    Unreachable { reason: String },
    /// The tokens could not be saved.
    SaveFailed,
}

impl super::SetupRefusal for SlackRefusal {
    fn status(&self) -> u16 {
        match self {
            SlackRefusal::BotTokenShape | SlackRefusal::AppTokenShape | SlackRefusal::NoToken => {
                400
            }
            SlackRefusal::WrongBotToken | SlackRefusal::WrongAppToken => 422,
            SlackRefusal::Unreachable { .. } => 502,
            SlackRefusal::SaveFailed => 500,
        }
    }

    fn field(&self) -> &'static str {
        match self {
            SlackRefusal::AppTokenShape | SlackRefusal::WrongAppToken => "appToken",
            _ => "botToken",
        }
    }

    fn message(&self) -> String {
        match self {
            SlackRefusal::BotTokenShape => "botToken does not look like a bot token: Slack's \"Bot User OAuth Token\" starts with xoxb-".into(),
            SlackRefusal::AppTokenShape => "appToken does not look like an app-level token: it starts with xapp- (Basic Information, App-Level Tokens)".into(),
            SlackRefusal::WrongBotToken => "botToken is not taken by Slack: copy the Bot User OAuth Token again (OAuth & Permissions), and install the app to the workspace".into(),
            SlackRefusal::WrongAppToken => "appToken is not taken by Slack: make an app-level token with the connections:write scope, and turn Socket Mode on".into(),
            SlackRefusal::NoToken => "botToken and appToken are needed: no Slack tokens are saved yet".into(),
            SlackRefusal::Unreachable { reason } => format!("botToken could not be checked: {reason}"),
            SlackRefusal::SaveFailed => "botToken could not be saved in secrets.json".into(),
        }
    }
}

/// Checks and tidies `channels.slack`.
pub(super) fn check(slack: &mut Slack) -> Result<(), ErrorBody> {
    slack.api_base = web_address("channels.slack.apiBase", &slack.api_base)?;
    if let Some(user) = &slack.user_id
        && (user.is_empty() || !user.bytes().all(|byte| byte.is_ascii_alphanumeric()))
    {
        return Err(ErrorBody::field(
            "channels.slack.userId",
            "channels.slack.userId must be a Slack user id such as U012AB3CD (pair with `hark slack setup`)",
        ));
    }
    Ok(())
}

impl super::ChatAppSettings for Slack {
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

impl super::PairingReport for SlackReport {
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
