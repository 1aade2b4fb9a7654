//! MCP over Streamable HTTP at `/mcp` (SPEC §18): the tools of `hark mcp` for an agent that
//! cannot start a process here (in a container, on another machine, in a web client). Each
//! session is a `HarkMcp` reaching this daemon as a shim does, through its own API on loopback,
//! so the race with the page, the clients' deadlines and the late-answer rules are the shim's,
//! not a second copy of them. Host, Origin and the token are the guard's, as on every route
//! (rmcp's own Host check is off: the guard also knows the LAN names).

use crate::client::connection::Connection;
use crate::http::mcp_sessions::CappedSessions;
use crate::http::state::AppState;
use crate::mcp::deadlines::{ClientLimit, HandOff, MaxWait};
use crate::mcp::server::HarkMcp;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use std::time::Duration;

/// Where the service is mounted.
pub const PATH: &str = "/mcp";

/// How long a session may go without a message before it is dropped (and its questions still
/// open abandoned). Long: a call waiting for a person without progress notifications sends
/// nothing, and a person may answer hours later. Their number is bounded (`mcp_sessions`).
const SESSION_IDLE: Duration = Duration::from_secs(24 * 60 * 60);

/// The service of `/mcp` for the daemon of `state`.
pub fn service(state: &AppState) -> StreamableHttpService<HarkMcp, CappedSessions> {
    let daemon = format!("http://127.0.0.1:{}", state.port);
    let access = state.access.clone();
    let hand_off = hand_off_from_env();
    // One for the service: at 2026-07-28 each request has a server of its own, and a task lives
    // across requests.
    let tasks = crate::mcp::task_store::Tasks::default();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_cancellation_token(state.store.shutdown_token().child_token());
    StreamableHttpService::new(
        move || {
            // Read per session: `hark token --rotate` may have replaced it since.
            let token = access.tokens.current().ok();
            let connection = Connection::remote(daemon.clone(), token);
            Ok(HarkMcp::for_session(
                connection,
                hand_off.clone(),
                tasks.clone(),
            ))
        },
        Arc::new(CappedSessions::new(sessions)),
        config,
    )
}

/// The hand-off `hark mcp` takes from `--max-wait` and `--client-limit`, here from the same
/// variables in the daemon's environment (`HARK_MAX_WAIT`, `HARK_CLIENT_LIMITS`); a bad value is
/// logged by its name and the default kept.
fn hand_off_from_env() -> HandOff {
    let mut hand_off = HandOff::default();
    if let Ok(text) = std::env::var("HARK_MAX_WAIT") {
        match text.parse::<MaxWait>() {
            Ok(max_wait) => hand_off.max_wait = max_wait,
            Err(error) => tracing::warn!(%error, "HARK_MAX_WAIT ignored for /mcp"),
        }
    }
    if let Ok(text) = std::env::var("HARK_CLIENT_LIMITS") {
        for limit in text.split(',').filter(|limit| !limit.trim().is_empty()) {
            match limit.parse::<ClientLimit>() {
                Ok(limit) => hand_off.client_limits.push(limit),
                Err(error) => tracing::warn!(%error, "HARK_CLIENT_LIMITS entry ignored for /mcp"),
            }
        }
    }
    hand_off
}
