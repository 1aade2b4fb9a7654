//! What can go wrong when a question or the config changes.

use crate::model::{ErrorBody, QuestionId, Status, limits::MAX_PENDING};

/// A store failure. The edges say what it means to their callers: the server's `ApiError`
/// answers with its `status`, the app's server-function error with the same status and a
/// message in the person's language.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Invalid(#[from] ErrorBody),
    #[error("no question has the id {0}")]
    NotFound(QuestionId),
    #[error("no rule has the id {0}")]
    RuleNotFound(crate::model::rule::RuleId),
    #[error("question {id} is no longer pending: it is {}", status.as_str())]
    NotPending { id: QuestionId, status: Status },
    #[error("{MAX_PENDING} questions are already pending; answer or cancel some first")]
    TooManyPending,
    /// Too many messages already wait: for this agent (`MAX_WAITING_PER_AGENT`), or for all.
    #[error("{waiting} messages already wait {}; they are collected the next time {} reaches Hark", if *for_agent { "for this agent" } else { "for agents" }, if *for_agent { "it" } else { "each" })]
    TooManyMessages { waiting: usize, for_agent: bool },
    #[error("could not save the config: {0}")]
    Save(String),
    #[error("the daemon is shutting down")]
    ShuttingDown,
    #[error("could not record the change, so nothing changed: {0}")]
    Storage(String),
}

impl StoreError {
    /// The HTTP status SPEC §3 answers this refusal with, the one mapping every edge (REST,
    /// the page's server functions) uses. A number, not a type: the store knows no HTTP crate.
    pub fn status(&self) -> u16 {
        match self {
            StoreError::Invalid(_) => 400,
            StoreError::NotFound(_) | StoreError::RuleNotFound(_) => 404,
            StoreError::NotPending { .. } => 409,
            StoreError::TooManyPending | StoreError::TooManyMessages { .. } => 429,
            StoreError::ShuttingDown | StoreError::Storage(_) => 503,
            StoreError::Save(_) => 500,
        }
    }
}
