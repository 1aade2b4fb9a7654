//! The JSON error body `{error, field?}` that every API error and validation failure uses.

use serde::{Deserialize, Serialize};

/// A human sentence, and the path of the offending field when there is one
/// (`questions[1].options[0].label`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{error}")]
pub struct ErrorBody {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl ErrorBody {
    /// An error that is not about one field.
    pub fn new(error: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            field: None,
        }
    }

    /// An error about `field`; the sentence should name it too, so that it reads well alone.
    pub fn field(field: impl Into<String>, error: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            field: Some(field.into()),
        }
    }
}
