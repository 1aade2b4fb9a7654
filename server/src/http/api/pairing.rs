//! `GET /api/pairing` (how a phone reaches this daemon), `POST /api/token/rotate` (replace
//! the token, ending the sessions paired with the old one) and `POST /api/login` (a one-time
//! login for a page the CLI opens or prints).

use crate::http::error::ApiError;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{OneTimeLogin, Pairing};

/// The pairing routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/pairing", get(pairing))
        .route("/token/rotate", post(rotate))
        .route("/login", post(login))
}

async fn pairing(State(state): State<AppState>) -> Json<Pairing> {
    Json(crate::security::pairing::pairing(
        &state.access,
        state.port,
        false,
    ))
}

async fn rotate(State(state): State<AppState>) -> Result<Json<Pairing>, ApiError> {
    state.access.tokens.rotate().map_err(|error| {
        ApiError::internal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the daemon could not write the new token, so the old one still holds",
            &error,
        )
    })?;
    tracing::info!("the token was replaced; sessions paired with the old one end");
    Ok(Json(crate::security::pairing::pairing(
        &state.access,
        state.port,
        false,
    )))
}

async fn login(
    State(state): State<AppState>,
) -> Result<(StatusCode, Json<OneTimeLogin>), ApiError> {
    let login = state.access.logins.mint_login().map_err(|error| {
        ApiError::internal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the daemon has no randomness to make a login code with",
            &error,
        )
    })?;
    Ok((StatusCode::CREATED, Json(login)))
}
