//! What every chat app is asked and shows alike (SPEC §14): its actions (`ChannelAction`, each
//! `POST /api/<app>/<action>`, a `hark <app>` command and a settings form), and the part of its
//! report every app that pairs by a code has (`ChatAppState`), read through `PairingApp`, so
//! the REST routes, the CLI and the settings page handle each app with one piece of code.

use super::discord::{DiscordRefusal, DiscordReport, DiscordSetup};
use super::feishu::{FeishuRefusal, FeishuReport, FeishuSetup};
use super::slack::{SlackRefusal, SlackReport, SlackSetup};
use super::telegram::{TelegramRefusal, TelegramReport, TelegramSetup};
use super::{ChannelName, ChannelsReport, PairingCode, SetupRefusal};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a channel is asked to do besides its events and its test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ChannelAction {
    /// Check and keep its credentials and make a pairing code (WeChat: start a login).
    Setup,
    /// Give the number WeChat shows on the phone during a login.
    Verify,
    /// Forget the paired person; the app stays on.
    Unpair,
    /// Forget the credentials and the person, and turn the app off.
    Forget,
}

impl ChannelAction {
    /// Its name in the route (`/api/<app>/<name>`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelAction::Setup => "setup",
            ChannelAction::Verify => "verify",
            ChannelAction::Unpair => "unpair",
            ChannelAction::Forget => "forget",
        }
    }
}

impl fmt::Display for ChannelAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The part of a chat app's report that every app pairing by a code has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatAppState<'a> {
    /// Whether its credentials are saved.
    pub token: bool,
    /// The bot's or the app's name, once the service confirmed the credentials.
    pub bot: Option<&'a str>,
    /// Whether its link to the service is up, for apps that keep one (Telegram polls).
    pub connected: Option<bool>,
    pub paired: bool,
    /// People paired since the daemon started.
    pub pairings: u64,
    /// The code to send the bot, while it is valid.
    pub pairing: Option<&'a PairingCode>,
}

/// A chat app that pairs by a code, named by its report: the request its setup takes, the
/// refusals it answers, and its report's shared part.
pub trait PairingApp: Serialize + DeserializeOwned + Default + Clone + Send + 'static {
    const CHANNEL: ChannelName;
    type Setup: Serialize + DeserializeOwned + Default + Send;
    type Refusal: SetupRefusal + DeserializeOwned;

    fn state(&self) -> ChatAppState<'_>;
}

impl PairingApp for TelegramReport {
    const CHANNEL: ChannelName = ChannelName::Telegram;
    type Setup = TelegramSetup;
    type Refusal = TelegramRefusal;

    fn state(&self) -> ChatAppState<'_> {
        ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: None,
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}

impl PairingApp for SlackReport {
    const CHANNEL: ChannelName = ChannelName::Slack;
    type Setup = SlackSetup;
    type Refusal = SlackRefusal;

    fn state(&self) -> ChatAppState<'_> {
        ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: Some(self.connected),
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}

impl PairingApp for DiscordReport {
    const CHANNEL: ChannelName = ChannelName::Discord;
    type Setup = DiscordSetup;
    type Refusal = DiscordRefusal;

    fn state(&self) -> ChatAppState<'_> {
        ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: Some(self.connected),
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}

impl PairingApp for FeishuReport {
    const CHANNEL: ChannelName = ChannelName::Feishu;
    type Setup = FeishuSetup;
    type Refusal = FeishuRefusal;

    fn state(&self) -> ChatAppState<'_> {
        ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: Some(self.connected),
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}

impl ChannelsReport {
    /// The shared part of the report of `channel`, when it is a chat app that pairs by a code.
    pub fn pairing_app(&self, channel: ChannelName) -> Option<ChatAppState<'_>> {
        match channel {
            ChannelName::Telegram => Some(self.telegram.state()),
            ChannelName::Slack => Some(self.slack.state()),
            ChannelName::Discord => Some(self.discord.state()),
            ChannelName::Feishu => Some(self.feishu.state()),
            ChannelName::Wechat | ChannelName::Ntfy | ChannelName::Webhook => None,
        }
    }
}
