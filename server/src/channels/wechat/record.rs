//! What the WeChat poll keeps across restarts in `$HARK_HOME/wechat.json` (0600): the long
//! poll's cursor, once the engine has taken what it read (so no message is read twice or
//! lost), and the conversation's last context token (replies go out in it), for the login and
//! person they belong to. The engine keeps the questions' own record (`wechat-posted.json`).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file's name under `HARK_HOME`.
const RECORD_FILE: &str = "wechat.json";

/// The record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Record {
    /// The login and person the rest belongs to (`Line::session`).
    pub session: Option<String>,
    /// `get_updates_buf`: where the long poll goes on.
    pub cursor: String,
    /// The person's last message's `context_token`.
    pub context: Option<String>,
}

/// The file, and what it holds now.
pub struct RecordFile {
    file: Option<PathBuf>,
    saved: Record,
}

impl RecordFile {
    /// The record in `home` (empty in memory only, or when the file cannot be read), read on
    /// the blocking pool.
    pub async fn load(home: Option<&Path>) -> (RecordFile, Record) {
        let file = home.map(|home| home.join(RECORD_FILE));
        let reading = file.clone();
        let saved: Record = tokio::task::spawn_blocking(move || {
            reading
                .and_then(|file| std::fs::read(file).ok())
                .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
        (
            RecordFile {
                file,
                saved: saved.clone(),
            },
            saved,
        )
    }

    /// Writes `record` when it changed.
    pub async fn keep(&mut self, record: &Record) {
        if *record == self.saved {
            return;
        }
        self.saved = record.clone();
        let (Some(file), Ok(json)) = (self.file.clone(), serde_json::to_vec(record)) else {
            return;
        };
        let saved =
            tokio::task::spawn_blocking(move || hark_core::store::replace_privately(&file, &json))
                .await;
        if !matches!(saved, Ok(Ok(()))) {
            tracing::warn!(
                "cannot write {RECORD_FILE}; after a restart, WeChat messages may be read again"
            );
        }
    }
}

/// Removes the record (a logout): the next login starts afresh.
pub async fn forget(home: Option<&Path>) {
    if let Some(file) = home.map(|home| home.join(RECORD_FILE)) {
        let _ = tokio::task::spawn_blocking(move || std::fs::remove_file(file)).await;
    }
}
