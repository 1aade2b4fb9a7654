//! The JSON error body `{error, field?}` that every API error and validation failure uses, and
//! the path of the field a JSON reading failed on.

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

/// The path of the value a deserialisation failed on (`questions[0].options[1].label`); for a
/// missing field, the field itself rather than its parent, where serde reports it. `.` or `?`
/// when there is no path.
pub fn field_of<E: std::fmt::Display>(error: &serde_path_to_error::Error<E>) -> String {
    let path = error.path().to_string();
    let message = error.inner().to_string();
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match missing {
        Some(missing) if path == "." => missing.to_string(),
        Some(missing) => format!("{path}.{missing}"),
        None => path,
    }
}
