//! `GET /api/health`: how shims and the CLI recognise a running Hark daemon.

use crate::http::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use hark_core::model::Health;

/// The health route.
pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

async fn health(State(state): State<AppState>) -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        service: Health::SERVICE.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        browser_clients: state.store.browser_clients(),
        pending: state.store.pending_count(),
        waits: state.store.waits(),
        timestamp: chrono::Utc::now(),
    })
}
