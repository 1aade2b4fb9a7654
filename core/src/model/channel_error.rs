//! `ChannelError`: why a channel could not do what it was asked (send a test, pair, forget its
//! credentials), in a kind every surface answers the same way and a sentence that never holds a
//! secret.

use serde::{Deserialize, Serialize};

/// Why a channel could not do what it was asked. Each kind carries the sentence the API, the
/// CLI and the log show; settings says the kind in the person's language.
///
/// Read as a flat `{kind, reason}` record (`Wire`): serde's derive for an adjacently tagged enum
/// carries a buffered second reader, which the page's WebAssembly paid for (issue 30).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(
    tag = "kind",
    content = "reason",
    rename_all = "camelCase",
    from = "Wire"
)]
pub enum ChannelError {
    /// A setting or a credential it needs is missing; the sentence says which, and where it is
    /// set.
    #[error("{0}")]
    NotSetUp(String),
    /// The service could not be reached, or refused the message; the sentence says how.
    #[error("{0}")]
    Undelivered(String),
    /// This machine could not keep what the channel needs (a secret, the config).
    #[error("{0}")]
    NotSaved(String),
}

impl ChannelError {
    /// The same error with its sentence passed through `change` (a redaction).
    #[must_use]
    pub fn map_reason(self, change: impl FnOnce(&str) -> String) -> ChannelError {
        match self {
            ChannelError::NotSetUp(reason) => ChannelError::NotSetUp(change(&reason)),
            ChannelError::Undelivered(reason) => ChannelError::Undelivered(change(&reason)),
            ChannelError::NotSaved(reason) => ChannelError::NotSaved(change(&reason)),
        }
    }
}

/// A `ChannelError` as it travels.
#[derive(Deserialize)]
struct Wire {
    kind: Kind,
    reason: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum Kind {
    NotSetUp,
    Undelivered,
    NotSaved,
}

impl From<Wire> for ChannelError {
    fn from(wire: Wire) -> ChannelError {
        match wire.kind {
            Kind::NotSetUp => ChannelError::NotSetUp(wire.reason),
            Kind::Undelivered => ChannelError::Undelivered(wire.reason),
            Kind::NotSaved => ChannelError::NotSaved(wire.reason),
        }
    }
}

impl ChannelError {
    /// The HTTP status it is answered with (REST and the settings page alike).
    pub fn status(&self) -> u16 {
        match self {
            ChannelError::NotSetUp(_) => 409,
            ChannelError::Undelivered(_) => 502,
            ChannelError::NotSaved(_) => 500,
        }
    }

    /// The sentence.
    pub fn reason(&self) -> &str {
        match self {
            ChannelError::NotSetUp(reason)
            | ChannelError::Undelivered(reason)
            | ChannelError::NotSaved(reason) => reason,
        }
    }
}

/// A channel's own action (`POST /api/<channel>/<action>`, such as a bot's setup) refused: the
/// status and error body REST answers with, and the channel's own typed refusal, as JSON, for
/// the page to word in the person's language.
///
/// Generic over how the channel's refusal is held (`R`), as `Event` is over what it carries: the
/// daemon holds it as a `serde_json::Value`; the page keeps its text, read only by the settings
/// part that words it, so the first view carries no reader of any JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionRefusal<R = Box<serde_json::Value>> {
    pub status: u16,
    pub body: super::ErrorBody,
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub refusal: Option<R>,
}

/// No refusal of the channel's own (serde's `default` would ask `R: Default`).
fn none<R>() -> Option<R> {
    None
}

impl ActionRefusal {
    /// The 404 of an action `channel` does not have.
    pub fn no_action(channel: impl std::fmt::Display, action: impl std::fmt::Display) -> Self {
        ActionRefusal {
            status: 404,
            body: super::ErrorBody::new(format!("{channel} has no action {action}")),
            refusal: None,
        }
    }
}

impl<R> ActionRefusal<R> {
    /// The same refusal with the channel's own held another way (`keep`).
    pub fn map_refusal<S>(self, keep: impl FnOnce(R) -> Option<S>) -> ActionRefusal<S> {
        ActionRefusal {
            status: self.status,
            body: self.body,
            refusal: self.refusal.and_then(keep),
        }
    }
}

impl From<ChannelError> for ActionRefusal {
    fn from(error: ChannelError) -> Self {
        ActionRefusal {
            status: error.status(),
            body: super::ErrorBody::new(error.to_string()),
            refusal: serde_json::to_value(&error).ok().map(Box::new),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ChannelError;

    #[test]
    fn each_kind_has_its_status_and_travels_as_json() {
        let error = ChannelError::NotSetUp("the channel has no address yet".into());
        assert_eq!(error.status(), 409);
        assert_eq!(error.to_string(), "the channel has no address yet");
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "notSetUp", "reason": "the channel has no address yet"})
        );
        assert_eq!(serde_json::from_value::<ChannelError>(json).unwrap(), error);
        for error in [
            ChannelError::Undelivered("no".into()),
            ChannelError::NotSaved("disk".into()),
        ] {
            let text = serde_json::to_string(&error).unwrap();
            assert_eq!(serde_json::from_str::<ChannelError>(&text).unwrap(), error);
        }
        let reversed = r#"{"reason": "gone", "kind": "undelivered"}"#;
        assert_eq!(
            serde_json::from_str::<ChannelError>(reversed).unwrap(),
            ChannelError::Undelivered("gone".into())
        );
        let wrong = serde_json::from_str::<ChannelError>(r#"{"kind": "lost", "reason": ""}"#);
        assert!(wrong.unwrap_err().to_string().contains("lost"));
        assert_eq!(ChannelError::Undelivered(String::new()).status(), 502);
        assert_eq!(ChannelError::NotSaved(String::new()).status(), 500);
    }
}
