//! The `hark` daemon as a library: `run` serves the router on a listener until shutdown, and
//! `router` builds the whole HTTP surface so tests can drive it.
//!
//! # Layout
//! - `api` — the REST routes of SPEC §3, one file per resource, and `ws` the event stream;
//! - `security` — Host and Origin checks, body limit, security headers, as one layer;
//! - `assets` — the embedded, precompressed site (wasm, js, css, icons);
//! - `home`, `daemon`, `client`, `connection` — where state lives, background running, talking
//!   to a daemon (and starting it on demand);
//! - `mcp`, `ask_cli`, `asking` — the MCP shim and `hark ask`, sharing one round trip.

// The view tree's types nest deeper than the default limit allows.
#![recursion_limit = "256"]

pub mod api;
pub mod ask_cli;
pub mod asking;
pub mod assets;
pub mod client;
pub mod connection;
pub mod daemon;
pub mod desktop;
pub mod error;
pub mod home;
pub mod json;
pub mod mcp;
pub mod security;
pub mod state;
pub mod ws;

use app::store::Store;
use axum::Router;
use leptos_axum::{LeptosRoutes, generate_route_list};
use state::AppState;
use std::net::SocketAddr;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Builds every route: REST and WebSocket under `/api`, server functions and pages from Leptos,
/// embedded assets, and the security layer around all of them.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(app::App);
    let store = state.store.clone();
    let options = state.leptos_options.clone();
    Router::new()
        .nest("/api", api::router())
        .leptos_routes_with_context(
            &state,
            routes,
            move || leptos::prelude::provide_context(store.clone()),
            move || app::shell(options.clone()),
        )
        .fallback(assets::serve)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ))
        .with_state(state)
}

/// Serves until `shutdown` is cancelled, then lets open requests and sockets finish.
///
/// # Errors
/// When the listener fails.
pub async fn run(
    store: Store,
    listener: TcpListener,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    store.spawn_reminders();
    desktop::watch(store.clone(), port);
    let app = router(AppState::new(store, port));
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown.cancelled_owned())
    .await
}
