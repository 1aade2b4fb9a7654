//! The `hark` daemon as a library: `daemon::serve::serve` is `hark serve`, `run` serves the
//! router on a listener until shutdown, and `router` builds the whole HTTP surface so tests can
//! drive it in process.
//!
//! # Layout
//! Each folder is a layer; the modules below declare them, so this file is the map.
//! - `http` — the router's parts: REST (`api`, one file per resource), the event stream
//!   (`ws`), the embedded site (`assets`), exports, extractors and errors, `listen`, which
//!   accepts connections within their budgets, the one layer around every route (`guard`:
//!   Host, Origin, the token, body limits, the 401), and `page`, the one seam to the page crate
//!   (`app`): its routes, the contexts its server functions take, what the event stream sends it;
//! - `security` — who may ask what, as policies the guard applies: the pairing token and who
//!   needs it (`token`, `access`, `peer_owner`), one-time logins, body limits and deadlines, the
//!   network and the pairing URL, the refusals in the person's language, and the one redaction;
//! - `mcp` — the MCP shim (`server`), elicitation, and the clients' deadlines;
//! - `channels` — the hub's peers beyond this machine: the `Channel` trait, the registry, the
//!   relay, one folder per channel, and the answer buttons' route;
//! - `cli` — one file per command group (`ask`, `hook`, `status`, `pair`); a channel's own
//!   commands live in its folder;
//! - `daemon` — `hark serve`, secrets, and what the daemon does on this desktop;
//! - `client` — the typed HTTP client of a daemon, reaching one (`connection`, starting the
//!   local one in the background: `detach`, and another process by its pid: `process`) and one
//!   question's round trip (`asking`), shared by the shim, the CLI and the hooks;
//! - `home` — `HARK_HOME` (private on every OS) and the files in it, for the daemon and its
//!   clients alike.
//!
//! Imports run one way (SPEC §14): every layer uses `hark-core` and `hark-text`; `http::page`
//! names `app` (and `security::body_limits`, for the answer forms' paths), and the layers reach
//! the page through it alone. Between the folders: `http` and `cli` over `mcp`, `channels`,
//! `daemon` and `client`, all over `security` and `home`; no folder imports one above it.

// The view tree's types nest deeper than the default limit allows.
#![recursion_limit = "256"]

pub mod client;
pub mod home;

pub mod channels;

pub mod cli {
    //! The commands that talk to a running daemon from a shell, one file per group.
    pub mod acp;
    pub mod ask;
    pub mod chat_app;
    pub mod form;
    pub mod hook;
    pub mod pair;
    pub mod status;
}

pub mod daemon {
    //! The daemon's own life: `hark serve`, the channels' secrets, and what it does on this
    //! desktop.
    pub mod desktop;
    pub mod secrets;
    pub mod serve;
}

pub mod http {
    //! The HTTP surface: REST, the event stream, the embedded site, exports, the extractors
    //! whose errors name the field, MCP over HTTP, accepting connections, the guard around
    //! every route, and the page.
    pub mod api;
    pub mod assets;
    pub mod error;
    pub mod export;
    pub mod guard;
    pub mod json;
    pub mod json_errors;
    pub mod listen;
    pub mod mcp;
    pub mod mcp_sessions;
    pub mod mcp_tasks_2025;
    pub mod page;
    pub mod query;
    pub mod state;
    pub mod unauthorized;
    pub mod ws;
}

pub mod mcp {
    //! The MCP shim (`hark mcp`): the rmcp server, what its tools take and give (`tool_io`),
    //! elicitation racing the page, the clients' deadlines, and `ask_user` as a task (the
    //! 2026-07-28 extension, and 2025-11-25's experimental tasks on it), and the signed state
    //! of its multi round-trip requests (`request_state`).
    pub mod deadlines;
    pub mod elicit;
    mod open_questions;
    mod request_state;
    pub mod server;
    pub mod task_store;
    mod tasks;
    pub(crate) mod tasks_2025;
    mod tool_io;
}

pub mod security {
    //! Who may ask what (SPEC §6, §16), as the policies `http::guard` applies: the pairing
    //! token and who needs it (`access`: this machine is the daemon's own user, `peer_owner`),
    //! one-time logins (`login`), body limits and deadlines, the network's names, the pairing
    //! URL, the refusals in the person's language, and the one redaction of paths, addresses
    //! and secrets (`redact`).
    pub mod access;
    pub mod body_deadline;
    pub mod body_limits;
    pub mod form_failures;
    pub mod login;
    pub mod network;
    pub mod open_files;
    pub mod pairing;
    pub mod peer_owner;
    pub mod plain_page;
    pub mod redact;
    pub mod token;
}

use axum::Router;
pub use daemon::serve::ServeOptions;
use hark_core::store::Store;
use http::state::AppState;
use security::access::Access;
use security::token::Tokens;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Builds every route: REST and WebSocket under `/api`, server functions and pages from Leptos,
/// embedded assets, and the security layer around all of them.
pub fn router(state: AppState) -> Router {
    let router = Router::new()
        .nest(
            "/api",
            http::api::router().merge(http::api::channels::actions(&state.relay)),
        )
        .nest_service(
            http::mcp::PATH,
            Router::new()
                .fallback_service(http::mcp::service(&state))
                .layer(axum::middleware::from_fn_with_state(
                    Arc::new(http::mcp_tasks_2025::Bridges::default()),
                    http::mcp_tasks_2025::bridge,
                )),
        )
        .merge(http::api::answer_link::router());
    // One `layer` call for the three: each call on a router boxes every route once more, and
    // each box is an allocation on every request.
    let router = http::page::routes(router, &state)
        .fallback(http::page::site_or_not_found)
        .layer(
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    http::guard::guard,
                ))
                .layer(axum::middleware::from_fn(
                    security::form_failures::form_failures,
                ))
                // The guard sets each route's body limit (`body_limits`); axum's own 2 MB
                // default, which the server functions' handler applies, would cut the answer
                // form's images.
                .layer(axum::extract::DefaultBodyLimit::disable()),
        );
    // Around the whole router, not each route: the router's own refusals (a 405 and its
    // `Allow`) are complete only outside it.
    Router::new()
        .fallback_service(http::guard::headers(router).with_state(state))
        .layer(
            tower::ServiceBuilder::new()
                .layer(compression())
                .layer(axum::middleware::from_fn(http::json_errors::json_errors)),
        )
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
    if options.open {
        let page = daemon::desktop::page_url(&access, port, "/");
        tokio::task::spawn_blocking(move || daemon::desktop::open_page(&page));
    }
    daemon::desktop::watch(store.clone(), port, access.clone());
    let secrets = Arc::new(daemon::secrets::Secrets::load(options.home.as_deref()));
    let relay = channels::Relay::new(
        store.clone(),
        secrets,
        access.clone(),
        port,
        options.home.clone(),
        channels::registry(),
    );
    relay.start();
    let shutdown = store.shutdown_token().clone();
    let app = router(AppState::with_relay(store, access.clone(), port, relay));
    http::listen::serve(listener, app, shutdown, access).await;
    Ok(())
}
