//! `$HARK_HOME/secrets.json` (mode 0600): the channels' credentials (SPEC §11): the Telegram
//! bot's token and ntfy's access token (each bound to the server it was given for, so pointing
//! the channel elsewhere never sends it there) and each webhook's signing secret. Kept apart from
//! the config so that neither the config file, the API, an export nor the log ever carries them;
//! `Debug` shows none of them. Reads never wait for the disk: a change is written under a lock of
//! its own.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file's name under `HARK_HOME`.
pub const SECRETS_FILE: &str = "secrets.json";

/// The secrets, loaded once and saved on every change.
pub struct Secrets {
    file: Option<PathBuf>,
    values: Mutex<Values>,
    /// Held while a change is written, so changes reach the file one at a time.
    writing: Mutex<()>,
}

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Values {
    #[serde(skip_serializing_if = "Option::is_none")]
    ntfy_token: Option<String>,
    /// The ntfy server `ntfy_token` belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    ntfy_server: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    telegram_token: Option<String>,
    /// The Bot API address `telegram_token` belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    telegram_api_base: Option<String>,
    /// Signing secrets by webhook URL.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    webhooks: BTreeMap<String, String>,
    /// Secrets of channels this release does not know (a later release's), kept.
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Secrets(…)")
    }
}

impl Secrets {
    /// The secrets in `home` (none in memory only). A file that cannot be read or parsed is
    /// reported and left as it is: nothing is saved over it until a secret changes.
    pub fn load(home: Option<&Path>) -> Secrets {
        let file = home.map(|home| home.join(SECRETS_FILE));
        let values = match file.as_deref().map(std::fs::read) {
            None => Values::default(),
            Some(Err(error)) if error.kind() == io::ErrorKind::NotFound => Values::default(),
            Some(Err(error)) => {
                tracing::warn!(%error, "cannot read {SECRETS_FILE}; the channels have no secrets");
                Values::default()
            }
            Some(Ok(bytes)) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                // The parser's message may quote the file: only its position is logged.
                tracing::warn!(
                    line = error.line(),
                    column = error.column(),
                    "{SECRETS_FILE} is not valid JSON; the channels have no secrets"
                );
                Values::default()
            }),
        };
        Secrets {
            file,
            values: Mutex::new(values),
            writing: Mutex::new(()),
        }
    }

    fn values(&self) -> std::sync::MutexGuard<'_, Values> {
        self.values
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// ntfy's access token for `server`, if one was set for that server.
    pub fn ntfy_token_for(&self, server: &str) -> Option<String> {
        let values = self.values();
        bound_to(&values.ntfy_token, &values.ntfy_server, server)
    }

    /// Sets (or with `None` removes) ntfy's access token, for `server` only.
    ///
    /// # Errors
    /// When the file cannot be written; nothing changes then.
    pub fn set_ntfy_token(&self, token: Option<String>, server: &str) -> io::Result<()> {
        let (token, server) = binding(token, server);
        self.change(|values| {
            values.ntfy_token = token;
            values.ntfy_server = server;
        })
    }

    /// The Telegram bot's token for the Bot API at `api_base`, if one was set for it.
    pub fn telegram_token_for(&self, api_base: &str) -> Option<String> {
        let values = self.values();
        bound_to(&values.telegram_token, &values.telegram_api_base, api_base)
    }

    /// Sets (or with `None` removes) the Telegram bot's token, for `api_base` only.
    ///
    /// # Errors
    /// When the file cannot be written; nothing changes then.
    pub fn set_telegram_token(&self, token: Option<String>, api_base: &str) -> io::Result<()> {
        let (token, api_base) = binding(token, api_base);
        self.change(|values| {
            values.telegram_token = token;
            values.telegram_api_base = api_base;
        })
    }

    /// The signing secret of the webhook at `url`, created (and saved) when it has none.
    ///
    /// # Errors
    /// When a new secret cannot be saved.
    pub fn webhook_secret(&self, url: &str) -> io::Result<String> {
        if let Some(secret) = self.values().webhooks.get(url) {
            return Ok(secret.clone());
        }
        let secret = format!("whsec_{}", crate::security::token::generate()?);
        self.change(|values| {
            values
                .webhooks
                .entry(url.to_string())
                .or_insert_with(|| secret.clone());
        })?;
        Ok(self.values().webhooks.get(url).cloned().unwrap_or(secret))
    }

    /// Applies `change` and saves, or changes nothing when the file cannot be written.
    fn change(&self, change: impl FnOnce(&mut Values)) -> io::Result<()> {
        let _writing = self
            .writing
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let mut next = self.values().clone();
        change(&mut next);
        if let Some(file) = &self.file {
            let json = serde_json::to_vec_pretty(&next).map_err(io::Error::other)?;
            hark_core::store::replace_privately(file, &json)?;
        }
        *self.values() = next;
        Ok(())
    }
}

/// A token bound to the server it was given for: it is `token` only when asked for `server`.
fn bound_to(token: &Option<String>, bound: &Option<String>, server: &str) -> Option<String> {
    token.clone().filter(|_| bound.as_deref() == Some(server))
}

/// A token (blank ones count as none) with the server it is bound to.
fn binding(token: Option<String>, server: &str) -> (Option<String>, Option<String>) {
    let token = token.filter(|token| !token.trim().is_empty());
    let server = token.as_ref().map(|_| server.to_string());
    (token, server)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_kept_privately_and_never_shown() {
        let home = tempfile::tempdir().unwrap();
        let secrets = Secrets::load(Some(home.path()));
        let server = "https://ntfy.example";
        assert!(secrets.ntfy_token_for(server).is_none());
        secrets
            .set_ntfy_token(Some("tk_abc".into()), server)
            .unwrap();
        assert!(
            secrets
                .ntfy_token_for("https://elsewhere.example")
                .is_none(),
            "another server never gets it"
        );
        let first = secrets.webhook_secret("https://hooks.example/a").unwrap();
        assert!(first.starts_with("whsec_") && first.len() > 40);
        assert_eq!(
            secrets.webhook_secret("https://hooks.example/a").unwrap(),
            first
        );
        assert_ne!(
            secrets.webhook_secret("https://hooks.example/b").unwrap(),
            first
        );
        secrets
            .set_telegram_token(Some("123:bot".into()), "https://api.telegram.org")
            .unwrap();
        assert!(secrets.telegram_token_for("http://127.0.0.1:9").is_none());
        assert_eq!(format!("{secrets:?}"), "Secrets(…)");
        let again = Secrets::load(Some(home.path()));
        assert_eq!(again.ntfy_token_for(server).as_deref(), Some("tk_abc"));
        assert_eq!(
            again
                .telegram_token_for("https://api.telegram.org")
                .as_deref(),
            Some("123:bot")
        );
        assert_eq!(
            again.webhook_secret("https://hooks.example/a").unwrap(),
            first
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(home.path().join(SECRETS_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        secrets.set_ntfy_token(None, server).unwrap();
        assert!(
            Secrets::load(Some(home.path()))
                .ntfy_token_for(server)
                .is_none()
        );
    }
}
