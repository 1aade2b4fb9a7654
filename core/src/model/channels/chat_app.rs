//! What every chat app is asked and shows alike (SPEC §14): its actions (`ChannelAction`, each
//! `POST /api/<app>/<action>`, a `hark <app>` command and a settings form), its part of the
//! settings the chat engine reads and changes (on, and who is paired: `ChatAppSettings`, read
//! through `Channels::chat_app`), and the part of its report every app that pairs by a code has
//! (`ChatAppState`, through `ChannelsReport::pairing_app`), so the engine, the REST routes, the
//! CLI and the settings page handle each app with one piece of code; each app's own file says
//! which of its fields those are.

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

/// A chat app's part of the settings that the chat engine reads and changes: whether it is on,
/// and who it is paired with. Each app's config type says which of its fields that is.
pub trait ChatAppSettings {
    /// The address of the service's API, which its credentials are bound to.
    fn api_base(&self) -> &str;
    fn enabled(&self) -> bool;
    fn set_enabled(&mut self, enabled: bool);
    /// The paired person, as text (Telegram's chat id too).
    fn person(&self) -> Option<String>;
    /// Pairs `person` (or nobody).
    fn pair(&mut self, person: Option<String>);
}

impl Channels {
    /// Whether chat app `app` is on, and who it is paired with.
    pub fn chat_app(&self, app: ChannelName) -> (bool, Option<String>) {
        self.chat_app_settings(app)
            .map_or((false, None), |app| (app.enabled(), app.person()))
    }

    /// The address of chat app `app`'s service (empty for a channel that is no chat app).
    pub fn chat_app_base(&self, app: ChannelName) -> String {
        self.chat_app_settings(app)
            .map(|app| app.api_base().to_string())
            .unwrap_or_default()
    }

    /// Pairs chat app `app` with `person` (or nobody).
    pub fn pair_chat_app(&mut self, app: ChannelName, person: Option<String>) {
        if let Some(app) = self.chat_app_settings_mut(app) {
            app.pair(person);
        }
    }

    /// Turns chat app `app` on or off.
    pub fn enable_chat_app(&mut self, app: ChannelName, enabled: bool) {
        if let Some(app) = self.chat_app_settings_mut(app) {
            app.set_enabled(enabled);
        }
    }
}

/// A chat app that pairs by a code: the part of its report every such app has.
pub trait PairingReport {
    fn shared(&self) -> ChatAppState<'_>;
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
        self.pairing_report(channel).map(PairingReport::shared)
    }
}
