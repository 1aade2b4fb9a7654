//! A chat channel's record of what it posted: the message of each question in the paired
//! person's conversation that may still be edited (open, or closed with its outcome not shown
//! yet), and where the person is in it, kept in `$HARK_HOME/<channel>.json` (0600), so after a
//! restart the channel edits the messages it posted before instead of posting every pending
//! question again, and the person goes on where they were. What a message is (Slack's channel
//! and timestamp, Discord's channel and id) is the channel's own type.

use super::kept::Kept;
use crate::channels::walk::Walk;
use hark_core::model::QuestionId;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "M: DeserializeOwned"))]
struct Record<M> {
    /// The person the messages were posted to.
    person: Option<String>,
    /// Messages by question id.
    messages: BTreeMap<String, M>,
    /// Where the person is in each question, by id (none for a walk not begun).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    places: BTreeMap<String, Place>,
}

impl<M> Default for Record<M> {
    fn default() -> Self {
        Record {
            person: None,
            messages: BTreeMap::new(),
            places: BTreeMap::new(),
        }
    }
}

/// Where the person is in a question.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    pub walk: Walk,
    /// A text-only channel's step sent last and when (milliseconds since 1970): replies
    /// written before it are outdated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<(usize, i64)>,
}

/// One question's entry: its message and where the person is.
pub struct Entry<M> {
    pub id: QuestionId,
    pub message: M,
    pub place: Place,
}

/// The record, loaded at start and saved when it changes.
pub struct Posted<M> {
    kept: Kept<Record<M>>,
}

impl<M: Clone + PartialEq + Serialize + DeserializeOwned + Send + 'static> Posted<M> {
    /// The record `name` (such as `slack.json`) in `home`, read on the blocking pool; empty in
    /// memory only, or when the file cannot be read.
    pub async fn load(home: Option<PathBuf>, name: &'static str) -> Posted<M> {
        let lost = "after a restart, the questions are posted again";
        Posted {
            kept: Kept::load(home.as_deref(), name, lost).await,
        }
    }

    /// The message posted to `person` for question `id`, and where they were, if the record
    /// has it.
    pub fn message_of(&self, person: &str, id: QuestionId) -> Option<(M, Place)> {
        let held = self.kept.held();
        if held.person.as_deref() != Some(person) {
            return None;
        }
        let key = id.to_string();
        let place = held.places.get(&key).cloned().unwrap_or_default();
        Some((held.messages.get(&key)?.clone(), place))
    }

    /// Every message posted to `person` the record has, by question.
    pub fn messages_of(&self, person: &str) -> Vec<(QuestionId, M)> {
        let held = self.kept.held();
        if held.person.as_deref() != Some(person) {
            return Vec::new();
        }
        (held.messages.iter())
            .filter_map(|(id, message)| {
                Some((QuestionId(uuid::Uuid::try_parse(id).ok()?), message.clone()))
            })
            .collect()
    }

    /// Records the messages posted to `person` still to be edited; writes the file only when
    /// they changed.
    pub async fn keep(&mut self, person: &str, open: Vec<Entry<M>>) {
        let mut next = Record {
            person: Some(person.to_string()),
            ..Record::default()
        };
        for entry in open {
            let key = entry.id.to_string();
            if entry.place != Place::default() {
                next.places.insert(key.clone(), entry.place);
            }
            next.messages.insert(key, entry.message);
        }
        self.kept.keep(next).await;
    }
}
