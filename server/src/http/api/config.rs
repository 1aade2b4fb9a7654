//! `GET`/`PUT /api/config`: read the config, or change some keys (validated, saved atomically,
//! broadcast as `config:updated`).

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use hark_core::model::Config;

/// The config routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/config", get(read).put(update))
}

async fn read(State(state): State<AppState>) -> Json<Config> {
    Json(state.store.config())
}

async fn update(
    State(state): State<AppState>,
    ApiJson(patch): ApiJson<serde_json::Value>,
) -> Result<Json<Config>, ApiError> {
    Ok(Json(state.store.update_config(&patch).await?))
}
