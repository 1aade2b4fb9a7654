//! `$HARK_HOME/secrets.json` (mode 0600): the channels' credentials (SPEC §11), kept apart from
//! the config so that neither the config file, the API, an export nor the log ever carries them;
//! `Debug` shows none of them. The file is one JSON object whose keys each channel names for
//! itself (`BoundKey`, `MintedKeys`), so a channel's secrets are declared in its own folder and
//! keys this release does not know are kept as they are. Reads never wait for the disk: a change
//! is written under a lock of its own.

use serde_json::{Map, Value};
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

/// The file's object.
type Values = Map<String, Value>;

/// A credential bound to the server it was given for, so pointing its channel elsewhere never
/// sends it there: `token` names the credential's key, `server` the key of its server's address.
#[derive(Clone, Copy, Debug)]
pub struct BoundKey {
    pub token: &'static str,
    pub server: &'static str,
}

/// Secrets made on first use, one per name (a signing secret per receiving address), under the
/// key `map`, each starting with `prefix`.
#[derive(Clone, Copy, Debug)]
pub struct MintedKeys {
    pub map: &'static str,
    pub prefix: &'static str,
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
                    "{SECRETS_FILE} is not a JSON object; the channels have no secrets"
                );
                Values::default()
            }),
        };
        hold_all(&values);
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

    /// The credential `key` for `server`, if one was set for that server.
    pub fn bound(&self, key: BoundKey, server: &str) -> Option<String> {
        let values = self.values();
        let bound = values.get(key.server).and_then(Value::as_str) == Some(server);
        let token = values.get(key.token).and_then(Value::as_str);
        token.filter(|_| bound).map(str::to_string)
    }

    /// Sets each credential (or, with `None` or a blank value, removes it), for `server` only,
    /// in one write.
    ///
    /// # Errors
    /// When the file cannot be written; nothing changes then.
    pub fn set_bound(
        &self,
        values: Vec<(BoundKey, Option<String>)>,
        server: &str,
    ) -> io::Result<()> {
        self.change(|kept| {
            for (key, value) in values {
                match value.filter(|value| !value.trim().is_empty()) {
                    Some(value) => {
                        kept.insert(key.token.into(), Value::String(value));
                        kept.insert(key.server.into(), Value::String(server.into()));
                    }
                    None => {
                        kept.remove(key.token);
                        kept.remove(key.server);
                    }
                }
            }
        })
    }

    /// The secret of `name` under `keys`, made (and saved) when it has none.
    ///
    /// # Errors
    /// When a new secret cannot be saved.
    pub fn minted(&self, keys: MintedKeys, name: &str) -> io::Result<String> {
        let kept = |values: &Values| {
            values
                .get(keys.map)
                .and_then(|map| map.get(name))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        if let Some(secret) = kept(&self.values()) {
            return Ok(secret);
        }
        let secret = format!("{}{}", keys.prefix, crate::security::token::generate()?);
        self.change(|values| {
            let map = values
                .entry(keys.map)
                .or_insert_with(|| Value::Object(Map::new()));
            if !map.is_object() {
                *map = Value::Object(Map::new());
            }
            if let Some(map) = map.as_object_mut()
                && !map.get(name).is_some_and(Value::is_string)
            {
                map.insert(name.to_string(), Value::String(secret.clone()));
            }
        })?;
        Ok(kept(&self.values()).unwrap_or(secret))
    }

    /// Applies `change` and saves, or changes nothing when the file cannot be written.
    fn change(&self, change: impl FnOnce(&mut Values)) -> io::Result<()> {
        let _writing = self
            .writing
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let mut next = self.values().clone();
        change(&mut next);
        hold_all(&next);
        if let Some(file) = &self.file {
            let json = serde_json::to_vec_pretty(&next).map_err(io::Error::other)?;
            hark_core::store::replace_privately(file, &json)?;
        }
        *self.values() = next;
        Ok(())
    }
}

/// Every credential in `values` into the one redaction; the addresses they are bound to (URLs)
/// are no secret.
fn hold_all(values: &Values) {
    fn hold(value: &Value) {
        match value {
            Value::String(text) if !text.contains("://") => crate::security::redact::hold(text),
            Value::Object(map) => map.values().for_each(hold),
            _ => {}
        }
    }
    values.values().for_each(hold);
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: BoundKey = BoundKey {
        token: "pigeonToken",
        server: "pigeonServer",
    };
    const SIGNING: MintedKeys = MintedKeys {
        map: "pigeons",
        prefix: "psec_",
    };

    #[test]
    fn secrets_are_kept_privately_and_never_shown() {
        let home = tempfile::tempdir().unwrap();
        let secrets = Secrets::load(Some(home.path()));
        let server = "https://pigeon.example";
        assert!(secrets.bound(TOKEN, server).is_none());
        secrets
            .set_bound(vec![(TOKEN, Some("tk_abc".into()))], server)
            .unwrap();
        assert!(
            secrets.bound(TOKEN, "https://elsewhere.example").is_none(),
            "another server never gets it"
        );
        let first = secrets.minted(SIGNING, "https://hooks.example/a").unwrap();
        assert!(first.starts_with("psec_") && first.len() > 40);
        assert_eq!(
            secrets.minted(SIGNING, "https://hooks.example/a").unwrap(),
            first
        );
        assert_ne!(
            secrets.minted(SIGNING, "https://hooks.example/b").unwrap(),
            first
        );
        assert_eq!(format!("{secrets:?}"), "Secrets(…)");
        let again = Secrets::load(Some(home.path()));
        assert_eq!(again.bound(TOKEN, server).as_deref(), Some("tk_abc"));
        assert_eq!(
            again.minted(SIGNING, "https://hooks.example/a").unwrap(),
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
        secrets.set_bound(vec![(TOKEN, None)], server).unwrap();
        assert!(
            Secrets::load(Some(home.path()))
                .bound(TOKEN, server)
                .is_none()
        );
        secrets
            .set_bound(vec![(TOKEN, Some("  ".into()))], server)
            .unwrap();
        assert!(
            secrets.bound(TOKEN, server).is_none(),
            "a blank token is none"
        );
    }

    #[test]
    fn a_file_written_before_keeps_every_key_it_had() {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join(SECRETS_FILE);
        std::fs::write(
            &file,
            r#"{"pigeonToken": "tk_old", "pigeonServer": "https://pigeon.example",
                "pigeons": {"https://hooks.example/a": "psec_old"}, "later": {"kept": true}}"#,
        )
        .unwrap();
        let secrets = Secrets::load(Some(home.path()));
        assert_eq!(
            secrets.bound(TOKEN, "https://pigeon.example").as_deref(),
            Some("tk_old")
        );
        assert_eq!(
            secrets.minted(SIGNING, "https://hooks.example/a").unwrap(),
            "psec_old"
        );
        secrets.minted(SIGNING, "https://hooks.example/b").unwrap();
        let saved: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(saved["later"]["kept"], true);
        assert_eq!(saved["pigeonToken"], "tk_old");
        assert_eq!(saved["pigeons"].as_object().unwrap().len(), 2);
    }

    #[test]
    fn a_file_that_is_not_an_object_gives_no_secrets_and_is_left_alone() {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join(SECRETS_FILE);
        std::fs::write(&file, "[1, 2]").unwrap();
        let secrets = Secrets::load(Some(home.path()));
        assert!(secrets.bound(TOKEN, "https://pigeon.example").is_none());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "[1, 2]");
    }
}
