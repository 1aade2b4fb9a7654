//! `/api/messages`: messages for running agents (SPEC §18). The person writes one for an agent
//! (`POST`), everyone lists them (`GET`), and an agent's shim or hook collects what waits for it
//! (`POST /api/messages/deliver`), which marks them delivered; `?wait=<secs>` holds the call
//! until one comes, when none waits (a finished agent's hook, SPEC §20).

use crate::http::api::questions::checked;
use crate::http::api::wait::MAX_WAIT_SECS;
use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::query::ApiQuery;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{AgentMessage, AgentRef, MessageList, NewMessage};

/// The message routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/messages", get(list).post(create))
        .route("/messages/deliver", post(deliver))
}

/// 201 with the message, `status: "waiting"`.
async fn create(
    State(state): State<AppState>,
    ApiJson(message): ApiJson<NewMessage>,
) -> Result<(StatusCode, Json<AgentMessage>), ApiError> {
    let message = NewMessage {
        via: checked(message.via)?,
        ..message
    };
    Ok((
        StatusCode::CREATED,
        Json(state.store.post_message(message).await?),
    ))
}

/// Every message kept, newest first.
async fn list(State(state): State<AppState>) -> Json<MessageList> {
    Json(MessageList {
        messages: state.store.messages(),
    })
}

#[derive(serde::Deserialize)]
struct DeliverQuery {
    /// Seconds to wait for a message when none waits (capped at `MAX_WAIT_SECS`).
    wait: Option<u64>,
}

/// The messages waiting for the agent in the body, oldest first, now delivered.
async fn deliver(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<DeliverQuery>,
    ApiJson(agent): ApiJson<AgentRef>,
) -> Result<Json<MessageList>, ApiError> {
    if agent.client.trim().is_empty() {
        return Err(ApiError::bad_field("client", "client must not be empty"));
    }
    let wait = std::time::Duration::from_secs(query.wait.unwrap_or(0).min(MAX_WAIT_SECS));
    Ok(Json(MessageList {
        messages: state.store.deliver_messages_within(&agent, wait).await?,
    }))
}
