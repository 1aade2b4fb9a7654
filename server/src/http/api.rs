//! The REST routes of SPEC §3 under `/api`, one file per resource, plus the event stream; and
//! the answer links of pushes (`answer_link`, at `/a/…`).

pub mod answer_link;
pub mod channels;
mod config;
mod export;
mod health;
mod messages;
mod pairing;
pub(crate) mod questions;
mod rules;
mod sessions;
mod wait;

use crate::http::error::ApiError;
use crate::http::state::AppState;
use axum::Router;
use axum::routing::get;

/// Every `/api` route; unknown ones get a JSON 404.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(questions::router())
        .merge(config::router())
        .merge(channels::router())
        .merge(pairing::router())
        .merge(messages::router())
        .merge(rules::router())
        .merge(sessions::router())
        .merge(export::router())
        .route("/ws", get(crate::http::ws::upgrade))
        .fallback(|| async { ApiError::no_route() })
}
