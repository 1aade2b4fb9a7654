//! What every chat app does alike with its credentials and its status line: the service address
//! they are bound to, a credential as typed, the end of a setup (kept in `secrets.json`, turned
//! on, a new pairing code), forgetting them, and the line `hark status` shows once they are set.

use super::ServiceError;
use crate::channels::Relay;
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::ChatAppState;
use hark_core::model::{ChannelError, ChannelName, ChannelSummary};

/// The address of `app`'s service as the settings stand: its credentials are bound to it.
pub fn server(relay: &Relay, app: ChannelName) -> String {
    relay
        .store
        .read_config(|config| config.channels.chat_app_base(app))
}

/// A credential as typed in a setup: trimmed, and none when blank (the saved one then stands).
pub fn given(typed: Option<String>) -> Option<String> {
    typed
        .map(|typed| typed.trim().to_string())
        .filter(|typed| !typed.is_empty())
}

/// What a service said of credentials a setup checks: its answer, else `wrong` when it did not
/// take them (as `not_taken` reads its refusal), else that it could not be reached.
///
/// # Errors
/// `wrong`, or `unreachable` with the reason.
pub fn checked<T, R>(
    answer: Result<T, ServiceError>,
    not_taken: fn(&ServiceError) -> bool,
    wrong: R,
    unreachable: impl FnOnce(String) -> R,
) -> Result<T, R> {
    answer.map_err(|error| {
        if not_taken(&error) {
            wrong
        } else {
            unreachable(error.to_string())
        }
    })
}

/// The end of every pairing app's setup, once its service took the credentials: keeps them
/// (bound to `server`), turns the app on with `on` and makes a new pairing code.
///
/// # Errors
/// When the secrets, the settings or the code cannot be saved.
pub async fn take_on(
    relay: &Relay,
    shared: &super::Shared,
    values: Vec<(BoundKey, String)>,
    server: &str,
    on: impl FnOnce(&mut hark_core::model::Channels) + Send + 'static,
) -> std::io::Result<()> {
    let values = values.into_iter().map(|(key, value)| (key, Some(value)));
    relay.save_credentials(values.collect(), server).await?;
    relay
        .change_channels(on)
        .await
        .map_err(|error| std::io::Error::other(error.to_string()))?;
    shared.codes.issue().map(|_| ())
}

/// Forgets chat app `app`'s credentials `keys`; `what` names them in the error.
///
/// # Errors
/// When `secrets.json` cannot be written.
pub async fn forget(
    relay: &Relay,
    app: ChannelName,
    keys: &'static [BoundKey],
    what: &str,
) -> Result<(), ChannelError> {
    let values = keys.iter().map(|key| (*key, None)).collect();
    relay
        .save_credentials(values, &server(relay, app))
        .await
        .map_err(|error| {
            ChannelError::NotSaved(format!(
                "{what} could not be removed from secrets.json: {}",
                error.kind()
            ))
        })
}

/// A chat app's line in `hark status`: `<kind> <name>[, connected or not], <paired or not>`.
pub struct StatusLine<'a> {
    pub channel: ChannelName,
    /// "bot" or "app".
    pub kind: &'a str,
    /// Its name, as the service gave it ("@hark" or "\"Hark\"").
    pub name: Option<String>,
    /// The service's address, for apps that may be at more than one (Feishu or Lark).
    pub at: Option<String>,
    /// Whether its link is up, for apps that keep one.
    pub connected: Option<bool>,
    pub paired: bool,
    /// Who pairs, in the line's words: "person", or Telegram's "chat".
    pub who: &'a str,
}

impl<'a> StatusLine<'a> {
    /// The line of an app that pairs by a code (`kind` "bot" or "app", named `@name`), from
    /// its report's shared part; none before it has credentials.
    pub fn of(channel: ChannelName, kind: &'a str, state: ChatAppState<'_>) -> Option<Self> {
        state.token.then(|| StatusLine {
            channel,
            kind,
            name: state.bot.map(|name| format!("@{name}")),
            at: None,
            connected: state.connected,
            paired: state.paired,
            who: "person",
        })
    }

    /// The line.
    pub fn summary(self) -> ChannelSummary {
        let name = self
            .name
            .unwrap_or_else(|| "whose name is not known yet".to_string());
        let at = self.at.map(|at| format!(" at {at}")).unwrap_or_default();
        let link = match self.connected {
            Some(true) => ", connected",
            Some(false) => ", not connected",
            None => "",
        };
        let paired = if self.paired {
            format!("a {} is paired", self.who)
        } else {
            let none = if self.who == "person" {
                "nobody".to_string()
            } else {
                format!("no {}", self.who)
            };
            format!("{none} paired yet (`hark {} setup`)", self.channel)
        };
        ChannelSummary {
            channel: self.channel,
            summary: format!("{} {name}{at}{link}, {paired}", self.kind),
        }
    }
}
