//! `GET /api/channels` (how every channel has fared, without a secret) and
//! `POST /api/channels/test` (send a test message on one now).

use crate::error::ApiError;
use crate::json::ApiJson;
use crate::state::AppState;
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
    use app::components::elsewhere::ChannelDesk;
    Json(crate::channels::Desk(state.relay.clone()).report())
}

async fn test(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ChannelTest>,
) -> Result<Json<ChannelTestResult>, ApiError> {
    match state.relay.test(&request.channel).await {
        Ok(message) => Ok(Json(ChannelTestResult { message })),
        Err(error) => Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            ErrorBody::field("channel", error),
        )),
    }
}
