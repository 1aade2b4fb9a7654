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
    TooManyMessages,
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
    refusal: Option<ActionRefusal<crate::live::KeptRefusal>>,
}

impl TryFrom<Record> for Failure {
    type Error = String;

    fn try_from(record: Record) -> Result<Failure, String> {
        Ok(match record.failure {
            Name::InvalidAnswer => Failure::InvalidAnswer {
                details: needs(record.details, "details")?,
            },
            Name::InvalidMessage => Failure::InvalidMessage {
                details: needs(record.details, "details")?,
            },
            Name::InvalidSetting => Failure::InvalidSetting {
                key: needs(record.key, "key")?,
            },
            Name::UnknownPreference => Failure::UnknownPreference {
                field: needs(record.field, "field")?,
            },
            Name::NotFound => Failure::NotFound,
            Name::NotPending => Failure::NotPending,
            Name::TooManyPending => Failure::TooManyPending,
            Name::TooManyMessages => Failure::TooManyMessages,
            Name::SaveFailed => Failure::SaveFailed,
            Name::Unavailable => Failure::Unavailable {
                reason: needs(record.reason, "reason")?,
            },
            Name::ChannelTest => Failure::ChannelTest {
                error: needs(record.error, "error")?,
            },
            Name::ChannelRefused => Failure::ChannelRefused {
                channel: needs(record.channel, "channel")?,
                refusal: needs(record.refusal, "refusal")?,
            },
            Name::BadRequest => Failure::BadRequest {
                details: needs(record.details, "details")?,
            },
            Name::Transport => Failure::Transport {
                reason: needs(record.reason, "reason")?,
            },
        })
    }
}

/// A field this failure cannot be without.
fn needs<T>(value: Option<T>, field: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("missing field `{field}` for this failure"))
}
