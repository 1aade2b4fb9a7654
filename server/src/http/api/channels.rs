//! `GET /api/channels` (how every channel has fared, without a secret),
//! `POST /api/channels/test` (send a test message on one now), and the Telegram bot's
//! `POST /api/telegram/setup` (check and save a token, make a pairing code) and
//! `POST /api/telegram/unpair`.

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{
    ChannelTest, ChannelTestResult, ChannelsReport, ErrorBody, TelegramReport, TelegramSetup,
};

/// The channel routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/channels", get(report))
        .route("/channels/test", post(test))
        .route("/telegram/setup", post(telegram_setup))
        .route("/telegram/unpair", post(telegram_unpair))
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
            StatusCode::BAD_GATEWAY,
            ErrorBody::field("channel", error),
        )),
    }
}

async fn telegram_setup(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<TelegramSetup>,
) -> Result<Json<TelegramReport>, ApiError> {
    use crate::channels::telegram::Telegram;
    Telegram::setup(&state.relay, request.bot_token)
        .await
        .map(Json)
        .map_err(|refusal| {
            let status =
                StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            ApiError::new(status, ErrorBody::field("botToken", refusal.message()))
        })
}

async fn telegram_unpair(State(state): State<AppState>) -> Result<Json<TelegramReport>, ApiError> {
    crate::channels::telegram::Telegram::unpair(&state.relay)
        .await
        .map(Json)
        .map_err(|error| {
            ApiError::internal(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the Telegram chat could not be unpaired",
                &error,
            )
        })
}
