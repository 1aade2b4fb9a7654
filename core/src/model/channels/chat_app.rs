//! What every chat app is asked and shows alike (SPEC §14): its actions (`ChannelAction`, each
//! `POST /api/<app>/<action>`, a `hark <app>` command and a settings form), its part of the
//! settings the chat engine reads and changes (on, and who is paired: `Channels::chat_app`), and
//! the part of its report every app that pairs by a code has (`ChatAppState`,
//! `ChannelsReport::pairing_app`), so the engine, the REST routes, the CLI and the settings page
//! handle each app with one piece of code.

use super::{ChannelName, Channels, ChannelsReport, PairingCode};
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

impl Channels {
    /// Whether chat app `app` is on, and who it is paired with (Telegram's chat id as text).
    pub fn chat_app(&self, app: ChannelName) -> (bool, Option<String>) {
        match app {
            ChannelName::Telegram => {
                let chat = self.telegram.chat_id.map(|chat| chat.to_string());
                (self.telegram.enabled, chat)
            }
            ChannelName::Wechat => (self.wechat.enabled, self.wechat.user_id.clone()),
            ChannelName::Slack => (self.slack.enabled, self.slack.user_id.clone()),
            ChannelName::Feishu => (self.feishu.enabled, self.feishu.open_id.clone()),
            ChannelName::Discord => (self.discord.enabled, self.discord.user_id.clone()),
            ChannelName::Ntfy | ChannelName::Webhook => (false, None),
        }
    }

    /// Pairs chat app `app` with `person` (or nobody); a Telegram chat paired turns the bot on.
    pub fn pair_chat_app(&mut self, app: ChannelName, person: Option<String>) {
        match app {
            ChannelName::Telegram => {
                self.telegram.chat_id = person.and_then(|person| person.parse().ok());
                self.telegram.enabled |= self.telegram.chat_id.is_some();
            }
            ChannelName::Wechat => self.wechat.user_id = person,
            ChannelName::Slack => self.slack.user_id = person,
            ChannelName::Feishu => self.feishu.open_id = person,
            ChannelName::Discord => self.discord.user_id = person,
            ChannelName::Ntfy | ChannelName::Webhook => {}
        }
    }

    /// Turns chat app `app` on or off.
    pub fn enable_chat_app(&mut self, app: ChannelName, enabled: bool) {
        match app {
            ChannelName::Telegram => self.telegram.enabled = enabled,
            ChannelName::Wechat => self.wechat.enabled = enabled,
            ChannelName::Slack => self.slack.enabled = enabled,
            ChannelName::Feishu => self.feishu.enabled = enabled,
            ChannelName::Discord => self.discord.enabled = enabled,
            ChannelName::Ntfy | ChannelName::Webhook => {}
        }
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

impl ChannelsReport {
    /// The shared part of the report of `channel`, when it is a chat app that pairs by a code.
    pub fn pairing_app(&self, channel: ChannelName) -> Option<ChatAppState<'_>> {
        let (token, bot, connected, paired, pairings, pairing) = match channel {
            ChannelName::Telegram => {
                let app = &self.telegram;
                (
                    app.token,
                    &app.bot,
                    None,
                    app.paired,
                    app.pairings,
                    &app.pairing,
                )
            }
            ChannelName::Slack => {
                let app = &self.slack;
                (
                    app.token,
                    &app.bot,
                    Some(app.connected),
                    app.paired,
                    app.pairings,
                    &app.pairing,
                )
            }
            ChannelName::Discord => {
                let app = &self.discord;
                (
                    app.token,
                    &app.bot,
                    Some(app.connected),
                    app.paired,
                    app.pairings,
                    &app.pairing,
                )
            }
            ChannelName::Feishu => {
                let app = &self.feishu;
                (
                    app.token,
                    &app.bot,
                    Some(app.connected),
                    app.paired,
                    app.pairings,
                    &app.pairing,
                )
            }
            ChannelName::Wechat | ChannelName::Ntfy | ChannelName::Webhook => return None,
        };
        Some(ChatAppState {
            token,
            bot: bot.as_deref(),
            connected,
            paired,
            pairings,
            pairing: pairing.as_ref(),
        })
    }
}
