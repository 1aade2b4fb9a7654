//! `$HARK_HOME/secrets.json` (mode 0600): the channels' credentials (SPEC §11): ntfy's access
//! token and each webhook's signing secret. Kept apart from the config so that neither the
//! config file, the API, an export nor the log ever carries them; `Debug` shows none of them.

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
}

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Values {
    #[serde(skip_serializing_if = "Option::is_none")]
    ntfy_token: Option<String>,
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
        }
    }

    fn values(&self) -> std::sync::MutexGuard<'_, Values> {
        self.values
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// ntfy's access token, if one was set.
    pub fn ntfy_token(&self) -> Option<String> {
        self.values().ntfy_token.clone()
    }

    /// Whether ntfy has an access token (what settings may show).
    pub fn has_ntfy_token(&self) -> bool {
        self.values().ntfy_token.is_some()
    }

    /// Sets (or with `None` removes) ntfy's access token.
    ///
    /// # Errors
    /// When the file cannot be written; nothing changes then.
    pub fn set_ntfy_token(&self, token: Option<String>) -> io::Result<()> {
        self.change(|values| values.ntfy_token = token.filter(|token| !token.trim().is_empty()))
    }

    /// The signing secret of the webhook at `url`, created (and saved) when it has none.
    ///
    /// # Errors
    /// When a new secret cannot be saved.
    pub fn webhook_secret(&self, url: &str) -> io::Result<String> {
        if let Some(secret) = self.values().webhooks.get(url) {
            return Ok(secret.clone());
        }
        let secret = format!("whsec_{}", crate::token::generate()?);
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
        let mut values = self.values();
        let mut next = values.clone();
        change(&mut next);
        if let Some(file) = &self.file {
            let json = serde_json::to_vec_pretty(&next).map_err(io::Error::other)?;
            hark_core::store::replace_privately(file, &json)?;
        }
        *values = next;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_kept_privately_and_never_shown() {
        let home = tempfile::tempdir().unwrap();
        let secrets = Secrets::load(Some(home.path()));
        assert!(!secrets.has_ntfy_token());
        secrets.set_ntfy_token(Some("tk_abc".into())).unwrap();
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
        assert_eq!(format!("{secrets:?}"), "Secrets(…)");
        let again = Secrets::load(Some(home.path()));
        assert_eq!(again.ntfy_token().as_deref(), Some("tk_abc"));
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
        secrets.set_ntfy_token(None).unwrap();
        assert!(!Secrets::load(Some(home.path())).has_ntfy_token());
    }
}
