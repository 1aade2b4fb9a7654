//! The bot's own routes under `/api`: `POST /telegram/setup` (check and keep a token, make a
//! pairing code) and `POST /telegram/unpair` (forget the paired chat).

use super::Telegram;
use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use hark_core::model::ErrorBody;
use hark_core::model::channels::telegram::{TelegramReport, TelegramSetup};
use std::sync::Arc;

/// The routes, serving `bot`.
pub fn routes(bot: Arc<Telegram>) -> Router<AppState> {
    let unpairing = bot.clone();
    Router::new()
        .route(
            "/telegram/setup",
            post(
                move |State(state): State<AppState>, ApiJson(request): ApiJson<TelegramSetup>| async move {
                    setup(&bot, &state, request).await
                },
            ),
        )
        .route(
            "/telegram/unpair",
            post(move |State(state): State<AppState>| async move {
                unpair(&unpairing, &state).await
            }),
        )
}

async fn setup(
    bot: &Telegram,
    state: &AppState,
    request: TelegramSetup,
) -> Result<Json<TelegramReport>, ApiError> {
    bot.setup(&state.relay, request.bot_token)
        .await
        .map(Json)
        .map_err(|refusal| {
            let status =
                StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            ApiError::new(status, ErrorBody::field("botToken", refusal.message()))
        })
}

async fn unpair(bot: &Telegram, state: &AppState) -> Result<Json<TelegramReport>, ApiError> {
    bot.unpair(&state.relay).await.map(Json).map_err(|error| {
        ApiError::internal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the Telegram chat could not be unpaired",
            &error,
        )
    })
}
