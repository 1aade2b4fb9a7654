//! One question's round trip, shared by the MCP shim and `hark ask`: submit it with a
//! client-chosen id, wait for it in long-poll slices, and when the daemon dies mid-wait start a
//! new one and re-submit the same id, so the answer still arrives.

use crate::client::connection::Connection;
use crate::client::{ClientError, Messages};
use hark_core::model::{AskRequest, QuestionId, WaitResult};
use reqwest::StatusCode;
use std::time::Duration;
use tokio::time::Instant;

/// The longest single long poll (SPEC §3).
const POLL_SLICE: Duration = Duration::from_secs(60);
/// Daemon restarts tolerated in a row before the call gives up.
const MAX_RECOVERIES: u32 = 5;
const RECOVERY_PAUSE: Duration = Duration::from_millis(200);

/// How a wait ended.
#[derive(Debug)]
pub enum Ended {
    Closed(WaitResult),
    /// The caller's deadline passed first; the question stays open.
    StillPending,
}

/// A failure that ends the call, as a sentence naming the field when there is one.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct AskError {
    pub message: String,
    pub field: Option<String>,
}

impl AskError {
    fn plain(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            field: None,
        }
    }
}

impl From<ClientError> for AskError {
    fn from(error: ClientError) -> Self {
        match error {
            ClientError::Api { body, .. } => Self {
                message: body.error,
                field: body.field,
            },
            other => Self::plain(other.to_string()),
        }
    }
}

/// Gives `request` an id if it has none, so that re-submits find the same question.
pub fn with_id(mut request: AskRequest) -> (AskRequest, QuestionId) {
    let id = *request.id.get_or_insert_with(QuestionId::new_random);
    (request, id)
}

/// Submits the question, starting the daemon first when needed, and returns the request to
/// wait on: the daemon may answer with a question this agent asked before and stopped waiting
/// for (the same questions from the same place), whose id then replaces the request's.
///
/// # Errors
/// Bad input (naming the field), or no daemon could be reached or started.
pub async fn submit(connection: &Connection, request: AskRequest) -> Result<AskRequest, AskError> {
    let question = match connection.client().create(&request).await {
        Ok(question) => question,
        Err(ClientError::Unreachable { .. }) => {
            connection.ensure().await.map_err(AskError::plain)?;
            connection.client().create(&request).await?
        }
        Err(error) => return Err(error.into()),
    };
    Ok(AskRequest {
        id: Some(question.id),
        ..request
    })
}

/// Waits for the submitted `request` to close, or until `deadline`. Survives daemon restarts
/// by re-submitting the same id. With `Messages::TakeAlong` the result carries the messages for
/// the asking agent; a wait repeated after a broken connection gets the same ones again.
///
/// # Errors
/// When the daemon cannot be brought back, or refuses the question.
pub async fn wait(
    connection: &Connection,
    request: &AskRequest,
    deadline: Option<Instant>,
    messages: Messages,
) -> Result<Ended, AskError> {
    let id = request
        .id
        .ok_or_else(|| AskError::plain("internal: a question must have an id before waiting"))?;
    let mut recoveries = 0;
    loop {
        let slice = match deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(Ended::StillPending);
                }
                left.min(POLL_SLICE)
            }
            None => POLL_SLICE,
        };
        // Round up, so a sub-second remainder still waits instead of spinning.
        let secs = slice.as_millis().div_ceil(1000) as u64;
        match connection.client().wait(id, secs, true, messages).await {
            Ok(Some(result)) => return Ok(Ended::Closed(result)),
            Ok(None) => recoveries = 0,
            Err(error) if daemon_lost(&error) => {
                recoveries += 1;
                if recoveries > MAX_RECOVERIES {
                    return Err(AskError::plain(format!(
                        "the Hark daemon went away and could not be restarted: {error}"
                    )));
                }
                tracing::warn!(%id, %error, "the daemon went away; re-submitting the question");
                tokio::time::sleep(RECOVERY_PAUSE).await;
                if connection.ensure().await.is_ok() {
                    // The new daemon may not know the question: the same id makes this safe.
                    let _ = connection.client().create(request).await;
                }
            }
            Err(error) => return Err(error.into()),
        }
    }
}

/// The daemon died, is stopping, or restarted without the question.
fn daemon_lost(error: &ClientError) -> bool {
    match error {
        ClientError::Unreachable { .. } => true,
        ClientError::Api { status, .. } => {
            *status == StatusCode::NOT_FOUND || *status == StatusCode::SERVICE_UNAVAILABLE
        }
    }
}
