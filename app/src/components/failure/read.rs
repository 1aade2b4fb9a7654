//! How a `Failure` is read: as one flat record of its name and every variant's fields, then
//! made the variant it names (`TryFrom`). serde's derive for an internally tagged enum buffers
//! the whole map before it reads it, which gave every inbox a second, buffered reader of each
//! type a failure holds (issue 30); a flat record reads in one pass, in any order.

use super::Failure;
use hark_core::model::{ActionRefusal, ChannelError, ChannelName, SettingKey};
use serde::Deserialize;

/// A failure's name, as `Serialize` writes it (a test holds the two together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Name {
    InvalidAnswer,
    InvalidMessage,
    InvalidSetting,
    UnknownPreference,
    NotFound,
    NotPending,
    TooManyPending,
    SaveFailed,
    Unavailable,
    ChannelTest,
    ChannelRefused,
    BadRequest,
    Transport,
}

/// A failure as it travels: its name, and every field any variant has.
#[derive(Deserialize)]
pub(super) struct Record {
    failure: Name,
    details: Option<String>,
    key: Option<SettingKey>,
    field: Option<String>,
    reason: Option<String>,
    error: Option<ChannelError>,
    channel: Option<ChannelName>,
    refusal: Option<ActionRefusal>,
}

impl TryFrom<Record> for Failure {
    type Error = String;

    fn try_from(record: Record) -> Result<Failure, String> {
        let name = record.failure;
        let given = |value: Option<_>, field: &str| {
            value.ok_or_else(|| format!("a {name:?} failure needs `{field}`"))
        };
        Ok(match name {
            Name::InvalidAnswer => Failure::InvalidAnswer {
                details: given(record.details, "details")?,
            },
            Name::InvalidMessage => Failure::InvalidMessage {
                details: given(record.details, "details")?,
            },
            Name::InvalidSetting => Failure::InvalidSetting {
                key: record
                    .key
                    .ok_or_else(|| format!("a {name:?} failure needs `key`"))?,
            },
            Name::UnknownPreference => Failure::UnknownPreference {
                field: given(record.field, "field")?,
            },
            Name::NotFound => Failure::NotFound,
            Name::NotPending => Failure::NotPending,
            Name::TooManyPending => Failure::TooManyPending,
            Name::SaveFailed => Failure::SaveFailed,
            Name::Unavailable => Failure::Unavailable {
                reason: given(record.reason, "reason")?,
            },
            Name::ChannelTest => Failure::ChannelTest {
                error: record
                    .error
                    .ok_or_else(|| format!("a {name:?} failure needs `error`"))?,
            },
            Name::ChannelRefused => Failure::ChannelRefused {
                channel: record
                    .channel
                    .ok_or_else(|| format!("a {name:?} failure needs `channel`"))?,
                refusal: record
                    .refusal
                    .ok_or_else(|| format!("a {name:?} failure needs `refusal`"))?,
            },
            Name::BadRequest => Failure::BadRequest {
                details: given(record.details, "details")?,
            },
            Name::Transport => Failure::Transport {
                reason: given(record.reason, "reason")?,
            },
        })
    }
}
