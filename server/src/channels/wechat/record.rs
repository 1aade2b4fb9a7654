//! What the WeChat channel keeps across restarts in `$HARK_HOME/wechat.json` (0600): the long
//! poll's cursor (so no message is read twice or lost), the conversation's last context token
//! (replies go out in it), and the question on screen with where the person is in it (WeChat
//! cannot edit a sent message, so after a restart the walk goes on instead of starting over).

use crate::channels::walk::Walk;
use hark_core::model::QuestionId;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The file's name under `HARK_HOME`.
pub const RECORD_FILE: &str = "wechat.json";

/// The record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Record {
    /// The login and person the rest belongs to (`Line::session`).
    pub session: Option<String>,
    /// `get_updates_buf`: where the long poll goes on.
    pub cursor: String,
    /// The last message's `context_token`.
    pub context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Shown>,
}

/// The question whose text was sent last, and the walk through it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub id: QuestionId,
    pub walk: Walk,
    /// When its current step was sent (milliseconds since 1970; none while it waits to go
    /// out): replies written before are outdated.
    #[serde(default)]
    pub sent_at_ms: Option<i64>,
}

/// The file, and what it holds now.
pub struct RecordFile {
    file: Option<PathBuf>,
    saved: Record,
}

impl RecordFile {
    /// The record in `home` (empty in memory only, or when the file cannot be read), read on
    /// the blocking pool.
    pub async fn load(home: Option<&std::path::Path>) -> (RecordFile, Record) {
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
