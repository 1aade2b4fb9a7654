//! A JSON file a channel keeps under `HARK_HOME` (0600) across restarts: read once on the
//! blocking pool (empty when missing or unreadable, or in memory only), written again only when
//! what it holds changed; a write that fails is logged with what it costs.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// The file, and what it holds now.
pub struct Kept<T> {
    file: Option<PathBuf>,
    saved: T,
    /// What is lost when the file cannot be written, for the log.
    lost: &'static str,
}

impl<T: Clone + Default + PartialEq + Serialize + DeserializeOwned + Send + 'static> Kept<T> {
    /// The file `name` in `home`, and what it holds.
    pub async fn load(home: Option<&Path>, name: &str, lost: &'static str) -> Kept<T> {
        let file = home.map(|home| home.join(name));
        let reading = file.clone();
        let saved = tokio::task::spawn_blocking(move || {
            reading
                .and_then(|file| std::fs::read(file).ok())
                .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
        Kept { file, saved, lost }
    }

    /// What it holds.
    pub fn held(&self) -> &T {
        &self.saved
    }

    /// Keeps `value`, writing the file when it changed.
    pub async fn keep(&mut self, value: T) {
        if value == self.saved {
            return;
        }
        self.saved = value;
        let (Some(file), Ok(json)) = (self.file.clone(), serde_json::to_vec(&self.saved)) else {
            return;
        };
        let shown = file.display().to_string();
        let saved =
            tokio::task::spawn_blocking(move || hark_core::store::replace_privately(&file, &json))
                .await;
        if !matches!(saved, Ok(Ok(()))) {
            tracing::warn!(file = shown, "cannot write the file; {}", self.lost);
        }
    }
}

/// Removes the file `name` from `home`.
pub async fn forget(home: Option<&Path>, name: &str) {
    if let Some(file) = home.map(|home| home.join(name)) {
        let _ = tokio::task::spawn_blocking(move || std::fs::remove_file(file)).await;
    }
}
