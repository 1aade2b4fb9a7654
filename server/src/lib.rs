//! The `hark` daemon as a library: `serve::serve` is `hark serve`, `run` serves the router on a
//! listener until shutdown, and `router` builds the whole HTTP surface so tests can drive it.
//!
//! # Layout
//! - `api` — the REST routes of SPEC §3, one file per resource, and `ws` the event stream;
//! - `channels` — ntfy and webhooks (SPEC §11), with `secrets` and `answer_link`, the answer
//!   buttons' route;
//! - `security` — Host and Origin checks, body limit, security headers, as one layer, with
//!   `access` (who needs the token), `token`, `unauthorized` (the refusals) and `network`;
//! - `listen` — accepting connections with timeouts and budgets (`open_files` sizes them);
//! - `pairing`, `pair_cli` — the phone's URL and its QR code, `hark url` and `hark token`;
//! - `assets` — the embedded, precompressed site (wasm, js, css, icons);
//! - `home`, `daemon`, `client`, `connection` — where state lives, background running, talking
//!   to a daemon (and starting it on demand);
//! - `mcp`, `ask_cli`, `hook_cli`, `asking` — the MCP shim, `hark ask` and `hark hook claude`,
//!   sharing one round trip;
//! - `serve` — `hark serve` itself; `status_cli` — `hark status`, `hark stop`, `hark export`.

// The view tree's types nest deeper than the default limit allows.
#![recursion_limit = "256"]

pub mod access;
pub mod answer_link;
pub mod api;
pub mod ask_cli;
pub mod asking;
pub mod assets;
pub mod body_deadline;
pub mod body_limits;
pub mod channels;
pub mod client;
pub mod client_limits;
pub mod connection;
pub mod daemon;
pub mod desktop;
pub mod elicit;
pub mod error;
pub mod export;
pub mod form_failures;
pub mod home;
pub mod hook_cli;
pub mod json;
pub mod json_errors;
pub mod listen;
pub mod mcp;
pub mod network;
pub mod open_files;
pub mod pair_cli;
pub mod pairing;
pub mod plain_page;
pub mod query;
pub mod secrets;
pub mod security;
pub mod serve;
pub mod state;
pub mod status_cli;
pub mod telegram_cli;
pub mod token;
pub mod unauthorized;
pub mod ws;

use access::Access;
use app::components::elsewhere::ChannelDeskContext;
use app::components::phone::PairingSource;
use axum::Router;
use hark_core::store::Store;
use leptos_axum::{LeptosRoutes, generate_route_list};
pub use serve::ServeOptions;
use state::AppState;
use std::sync::Arc;
use token::Tokens;
use tokio::net::TcpListener;

/// Builds every route: REST and WebSocket under `/api`, server functions and pages from Leptos,
/// embedded assets, and the security layer around all of them.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(app::App);
    let store = state.store.clone();
    let options = state.leptos_options.clone();
    let (access, port) = (state.access.clone(), state.port);
    let pairing = PairingSource(Arc::new(move || pairing::pairing(&access, port, true)));
    let desk = ChannelDeskContext(Arc::new(channels::Desk(state.relay.clone())));
    let router = Router::new()
        .nest("/api", api::router())
        .merge(answer_link::router())
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                leptos::prelude::provide_context(store.clone());
                leptos::prelude::provide_context(pairing.clone());
                leptos::prelude::provide_context(desk.clone());
                assets::provide_page_context();
            },
            move || app::shell(options.clone()),
        )
        .fallback(assets::serve)
        // The guard sets each route's body limit (`body_limits`); axum's own 2 MB default,
        // which the server functions' handler applies, would cut the answer form's images.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn(form_failures::form_failures))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ));
    // Around the whole router, not each route: the router's own refusals (a 405 and its
    // `Allow`) are complete only outside it.
    Router::new()
        .fallback_service(security::headers(router).with_state(state))
        .layer(axum::middleware::from_fn(json_errors::json_errors))
        .layer(compression())
}

/// Compresses what the daemon writes as it answers (pages, JSON) for clients that accept it.
/// The site's files arrive already compressed (`assets`) and images are left alone.
fn compression() -> tower_http::compression::CompressionLayer {
    // Quality 5 is most of brotli's gain on a page at a small part of its top setting's time.
    tower_http::compression::CompressionLayer::new()
        .quality(tower_http::CompressionLevel::Precise(5))
}

/// Serves `store` on `listener` until the store's shutdown token is cancelled (the one signal
/// that also ends every wait, WebSocket and background task), then lets open requests and
/// sockets finish.
///
/// # Errors
/// When the listener fails.
pub async fn run(
    store: Store,
    listener: TcpListener,
    options: ServeOptions,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let access = Arc::new(Access::new(
        Tokens::new(options.home.as_deref()),
        options.lan,
        options.require_token,
        &store.config().hosts,
    ));
    store.spawn_reminders();
    desktop::watch(store.clone(), port, access.clone());
    let secrets = Arc::new(secrets::Secrets::load(options.home.as_deref()));
    let relay = channels::Relay::new(
        store.clone(),
        secrets,
        access.clone(),
        port,
        options.home.clone(),
    );
    relay.start();
    let shutdown = store.shutdown_token().clone();
    let app = router(AppState::with_relay(store, access.clone(), port, relay));
    listen::serve(listener, app, shutdown, access).await;
    Ok(())
}
