//! The daemon's life: `GET /api/health` (how shims and the CLI recognise a running Hark
//! daemon) and `POST /api/stop` (how `hark stop` ends it on every OS, with the token where one
//! is asked, before any signal).

use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{Health, Stopping};

/// The health route.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/stop", post(stop))
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

/// Starts the stop every shutdown takes (the store's one signal): open requests finish, the
/// history is written and closed, the pid file goes; `hark stop` waits for that.
async fn stop(State(state): State<AppState>) -> (StatusCode, Json<Stopping>) {
    tracing::info!("asked to stop over the API");
    state.store.shutdown_token().cancel();
    (
        StatusCode::ACCEPTED,
        Json(Stopping {
            pid: std::process::id(),
        }),
    )
}
