//! The bot's record of what it sent: the message of each question in the paired chat that may
//! still be edited (open, or closed with its outcome not shown yet), kept in
//! `$HARK_HOME/telegram.json` (0600), so after a restart the bot edits the messages it sent before
//! instead of sending every pending question again.

use hark_core::model::QuestionId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The file's name under `HARK_HOME`.
pub const SENT_FILE: &str = "telegram.json";

#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
struct Record {
    chat: Option<i64>,
    /// Message ids by question id.
    messages: BTreeMap<String, i32>,
}

/// The record, loaded at start and saved when it changes.
pub struct SentLog {
    file: Option<PathBuf>,
    record: Record,
}

impl SentLog {
    /// The record in `home` (empty in memory only, or when the file cannot be read).
    pub fn load(home: Option<&std::path::Path>) -> SentLog {
        let file = home.map(|home| home.join(SENT_FILE));
        let record = file
            .as_ref()
            .and_then(|file| std::fs::read(file).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        SentLog { file, record }
    }

    /// The message sent to `chat` for question `id`, if the record has one.
    pub fn message_of(&self, chat: i64, id: QuestionId) -> Option<i32> {
        if self.record.chat != Some(chat) {
            return None;
        }
        self.record.messages.get(&id.to_string()).copied()
    }

    /// Every message the record holds for `chat`.
    pub fn messages_in(&self, chat: i64) -> Vec<(QuestionId, i32)> {
        if self.record.chat != Some(chat) {
            return Vec::new();
        }
        self.record
            .messages
            .iter()
            .filter_map(|(id, message)| {
                let id = uuid::Uuid::try_parse(id).ok()?;
                Some((QuestionId(id), *message))
            })
            .collect()
    }

    /// Records the messages in `chat` still to be edited; writes the file only when they
    /// changed.
    pub async fn keep(&mut self, chat: i64, open: impl Iterator<Item = (QuestionId, i32)>) {
        let next = Record {
            chat: Some(chat),
            messages: open
                .map(|(id, message)| (id.to_string(), message))
                .collect(),
        };
        if next == self.record {
            return;
        }
        self.record = next;
        let (Some(file), Ok(json)) = (self.file.clone(), serde_json::to_vec(&self.record)) else {
            return;
        };
        let saved =
            tokio::task::spawn_blocking(move || hark_core::store::replace_privately(&file, &json))
                .await;
        if !matches!(saved, Ok(Ok(()))) {
            tracing::warn!(
                "cannot write {SENT_FILE}; after a restart, pending questions are sent to Telegram again"
            );
        }
    }
}
