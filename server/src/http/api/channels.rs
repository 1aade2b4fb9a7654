//! `GET /api/channels` (how every channel has fared, without a secret) and
//! `POST /api/channels/test` (send a test message on one now). Each channel's own actions are
//! routed by the relay (`Relay::routes`, from `Channel::actions`).

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{ChannelTest, ChannelTestResult, ChannelsReport, ErrorBody};

/// The channel routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/channels", get(report))
        .route("/channels/test", post(test))
}

async fn report(State(state): State<AppState>) -> Json<ChannelsReport> {
    Json(state.relay.report())
}

async fn test(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ChannelTest>,
) -> Result<Json<ChannelTestResult>, ApiError> {
    match state.relay.test(request.channel).await {
        Ok(message) => Ok(Json(ChannelTestResult { message })),
        Err(error) => Err(ApiError::new(
            StatusCode::from_u16(error.status()).unwrap_or(StatusCode::BAD_GATEWAY),
            ErrorBody::field("channel", error.to_string()),
        )),
    }
}
