//! `/api/sessions`: the agent sessions Hark knows (SPEC §20). An agent's hook says what it is
//! doing (`POST`, a `SessionReport`); the page and the CLI list them (`GET`); every change goes
//! out as `session:updated`.

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use hark_core::model::{AgentSession, SessionList, SessionReport};

/// The session routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/sessions", get(list).post(report))
}

/// The session as it now stands.
async fn report(
    State(state): State<AppState>,
    ApiJson(report): ApiJson<SessionReport>,
) -> Result<Json<AgentSession>, ApiError> {
    Ok(Json(state.store.report_session(report).await?))
}

/// Every session Hark knows, the one heard from last first.
async fn list(State(state): State<AppState>) -> Json<SessionList> {
    Json(SessionList {
        sessions: state.store.sessions(),
    })
}
