//! What can go wrong when a question or the config changes.

use crate::model::{ErrorBody, QuestionId, Status, limits::MAX_PENDING};

/// A store failure; the HTTP layer maps each variant to its status code.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Invalid(#[from] ErrorBody),
    #[error("no question has the id {0}")]
    NotFound(QuestionId),
    #[error("question {id} is no longer pending: it is {}", status.as_str())]
    NotPending { id: QuestionId, status: Status },
    #[error("{MAX_PENDING} questions are already pending; answer or cancel some first")]
    TooManyPending,
    #[error("could not save the config: {0}")]
    Save(String),
    #[error("the daemon is shutting down")]
    ShuttingDown,
    #[error("could not record the change, so nothing changed: {0}")]
    Storage(String),
}

impl StoreError {
    /// The HTTP status this failure answers with, for REST handlers and server functions alike.
    pub fn http_status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            StoreError::Invalid(_) => StatusCode::BAD_REQUEST,
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::NotPending { .. } => StatusCode::CONFLICT,
            StoreError::TooManyPending => StatusCode::TOO_MANY_REQUESTS,
            StoreError::ShuttingDown | StoreError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
            StoreError::Save(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A server function's error text: the Fluent key that explains this failure to the person,
    /// then the details (naming the field) for anyone reading the raw response.
    pub fn server_fn_message(&self) -> String {
        format!("{}: {self}", self.message_key())
    }

    /// The Fluent key that explains this failure to the person.
    pub fn message_key(&self) -> &'static str {
        match self {
            StoreError::Invalid(_) => "error-invalid-answer",
            StoreError::NotFound(_) => "error-not-found",
            StoreError::NotPending { .. } => "error-not-pending",
            StoreError::TooManyPending => "error-too-many",
            StoreError::ShuttingDown | StoreError::Storage(_) => "error-unavailable",
            StoreError::Save(_) => "settings-save-failed",
        }
    }
}
