//! `$HARK_HOME/config.json`: read leniently at start, replaced atomically on every change.
//! Every event reads the config, so its lock is held only to read or swap it; the file is
//! written under a second lock that only changes take, so a slow disk delays other changes,
//! never a reader.

use super::StoreError;
use crate::model::{Config, ConfigReport, ErrorBody};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The config and where it is saved (nowhere for an in-memory store).
pub struct ConfigFile {
    path: Option<PathBuf>,
    current: Mutex<Config>,
    /// Held through a whole change (decide, save, swap), so changes apply one at a time.
    changing: Mutex<()>,
}

impl ConfigFile {
    /// Loads `home/config.json` when there is one. A missing file gives the defaults; a broken
    /// one is reported and left untouched on disk until the next change.
    pub fn load(home: Option<&Path>) -> (ConfigFile, ConfigReport) {
        let path = home.map(|home| home.join("config.json"));
        let (config, report) = match &path {
            Some(path) => read(path),
            None => (Config::default(), Vec::new()),
        };
        let file = ConfigFile {
            path,
            current: Mutex::new(config),
            changing: Mutex::new(()),
        };
        (file, report)
    }

    /// A copy of the current config.
    pub fn current(&self) -> Config {
        self.lock().clone()
    }

    /// What `read` makes of the current config, without copying it.
    pub fn read<R>(&self, read: impl FnOnce(&Config) -> R) -> R {
        read(&self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Config> {
        self.current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Applies `patch` strictly and saves it before it takes effect.
    pub fn update(&self, patch: &serde_json::Value) -> Result<Config, StoreError> {
        self.update_with(|_| patch.clone())
    }

    /// Applies the patch `make` builds from the current config, under the same lock, so a
    /// change read from the config cannot undo another made meanwhile.
    pub fn update_with(
        &self,
        make: impl FnOnce(&Config) -> serde_json::Value,
    ) -> Result<Config, StoreError> {
        let _changing = self
            .changing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Only changes replace the config, and they hold `changing`: this copy stays current.
        let current = self.current();
        let patch = make(&current);
        let next = current.patched(&patch)?;
        if let Some(path) = &self.path {
            save_atomically(path, &next).map_err(|error| StoreError::Save(error.to_string()))?;
        }
        *self.lock() = next.clone();
        Ok(next)
    }
}

fn read(path: &Path) -> (Config, ConfigReport) {
    match std::fs::read(path) {
        Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(value) => Config::from_json_lenient(&value),
            Err(error) => (
                Config::default(),
                vec![ErrorBody::new(format!(
                    "{} is not valid JSON ({error}); every default is kept",
                    path.display()
                ))],
            ),
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            (Config::default(), Vec::new())
        }
        Err(error) => (
            Config::default(),
            vec![ErrorBody::new(format!(
                "cannot read {} ({error}); every default is kept",
                path.display()
            ))],
        ),
    }
}

/// Writes a sibling temporary file, flushes it to disk, then renames it over the old one, so a
/// crash leaves either the old config or the new one, never half of either.
fn save_atomically(path: &Path, config: &Config) -> std::io::Result<()> {
    let mut json = serde_json::to_vec_pretty(config).map_err(std::io::Error::other)?;
    json.push(b'\n');
    super::files::replace_privately(path, &json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn saves_atomically_and_reloads_keeping_unknown_keys() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.json"),
            r#"{"mine": 1, "port": "x"}"#,
        )
        .unwrap();
        let (file, report) = ConfigFile::load(Some(home.path()));
        assert_eq!(report[0].field.as_deref(), Some("port"));
        file.update(&json!({"remindSecs": 5})).unwrap();
        let (reloaded, report) = ConfigFile::load(Some(home.path()));
        assert!(report.is_empty());
        assert_eq!(reloaded.current().remind_secs, 5);
        assert_eq!(reloaded.current().extra["mine"], json!(1));
        let leftovers: Vec<_> = std::fs::read_dir(home.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn broken_file_gives_defaults_and_a_report() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("config.json"), "{not json").unwrap();
        let (file, report) = ConfigFile::load(Some(home.path()));
        assert_eq!(file.current(), Config::default());
        assert_eq!(report.len(), 1);
    }

    #[test]
    fn readers_are_not_held_up_while_a_change_is_made() {
        let home = tempfile::tempdir().unwrap();
        let file = std::sync::Arc::new(ConfigFile::load(Some(home.path())).0);
        let (done, finished) = std::sync::mpsc::channel();
        let changing = file.clone();
        std::thread::spawn(move || {
            // A reader inside the change (as every event is, beside one) reads at once.
            let result = changing
                .update_with(|_| json!({"remindSecs": changing.read(|c| c.remind_secs) + 1}));
            let _ = done.send(result.map(|config| config.remind_secs));
        });
        let remind = finished
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("a read during a change went through");
        assert_eq!(remind.unwrap(), Config::default().remind_secs + 1);
    }

    #[test]
    fn rejected_update_changes_nothing_on_disk() {
        let home = tempfile::tempdir().unwrap();
        let (file, _) = ConfigFile::load(Some(home.path()));
        assert!(file.update(&json!({"sound": "loud"})).is_err());
        assert!(!home.path().join("config.json").exists());
        assert!(file.current().sound);
    }
}
