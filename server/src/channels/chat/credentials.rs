//! What every chat app does alike with its credentials and its status line: keeping them in
//! `secrets.json` (bound to the service's address) and forgetting them, on the blocking pool;
//! the end of a setup (kept, turned on, a new pairing code); and the line `hark status` shows
//! once they are set.

use crate::channels::Relay;
use crate::daemon::secrets::BoundKey;
use hark_core::model::{ChannelError, ChannelName, ChannelSummary};

/// Keeps each credential under its key, bound to the service address `server`.
///
/// # Errors
/// When `secrets.json` cannot be written.
pub async fn keep(
    relay: &Relay,
    values: Vec<(BoundKey, String)>,
    server: &str,
) -> std::io::Result<()> {
    let secrets = relay.secrets.clone();
    let server = server.to_string();
    tokio::task::spawn_blocking(move || {
        values
            .into_iter()
            .try_for_each(|(key, value)| secrets.set_bound(key, Some(value), &server))
    })
    .await
    .map_err(std::io::Error::other)?
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
    keep(relay, values, server).await?;
    relay
        .change_channels(on)
        .await
        .map_err(|error| std::io::Error::other(error.to_string()))?;
    shared.codes.issue().map(|_| ())
}

/// Forgets `keys`, bound to the service address `server`; `what` names them in the error.
///
/// # Errors
/// When `secrets.json` cannot be written.
pub async fn forget(
    relay: &Relay,
    keys: &'static [BoundKey],
    server: &str,
    what: &str,
) -> Result<(), ChannelError> {
    let secrets = relay.secrets.clone();
    let server = server.to_string();
    tokio::task::spawn_blocking(move || {
        keys.iter()
            .try_for_each(|key| secrets.set_bound(*key, None, &server))
    })
    .await
    .map_err(std::io::Error::other)
    .and_then(|removed| removed)
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

impl StatusLine<'_> {
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
