//! The Socket Mode connection (Slack's "Using Socket Mode"): `apps.connections.open` with the
//! app-level token gives a one-time `wss://` address; Slack says `hello` once it is ready, sends
//! each event, tap and modal submission in an envelope that Hark acknowledges at once with its
//! `envelope_id` (Slack retries what is not acknowledged within 3 s), and says `disconnect`
//! before it closes the link, when Hark opens a new one at once. A link that cannot be opened,
//! or closes before its `hello`, is tried again after a pause that doubles from 1 s to 30 s
//! (tokens Slack refused wait for new settings); one that goes quiet past `SILENT_FOR` is
//! replaced. Events come again after a retry: each is handed on once, by its `event_id`. Only a
//! change of what the link was opened with (the tokens, the address, Slack turned off) closes
//! it; other settings leave it be.

use super::web_api::SlackError;
use super::{CHANNEL, Input, Line, Slack};
use crate::channels::Relay;
use crate::channels::seen::Seen;
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// How often Hark pings a quiet link, and how long a link may say nothing before it is taken
/// for dead (Slack pings every few seconds itself).
const PING_EVERY: Duration = Duration::from_secs(30);
const SILENT_FOR: Duration = Duration::from_secs(90);
/// How long a token Slack refused waits before it is tried again without new settings.
const REFUSED_WAIT: Duration = Duration::from_secs(300);
/// The largest frame Hark reads (Slack's events are a few KB).
const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// What Slack sends over the link.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    envelope_id: Option<String>,
    #[serde(default)]
    payload: Value,
    #[serde(default)]
    reason: Option<String>,
}

/// How serving a link ended.
enum Served {
    /// It was a link (Slack said hello), and it ended.
    Ended(Ended),
    NoHello,
}

/// Why a link ended.
enum Ended {
    /// Slack asked for a new link (`disconnect`), or closed this one.
    Again,
    /// The settings changed: look at them afresh.
    Settings,
    Shutdown,
}

/// What a link was opened with: a change of it (another token, another address, Slack turned
/// off) closes the link; any other change of the settings leaves it open.
fn key_of(line: &Line) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let app = line.app.as_ref()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (app.fingerprint(), line.bot.fingerprint()).hash(&mut hasher);
    Some(hasher.finish())
}

/// Keeps a link open while Slack is on and has both tokens, until the daemon stops.
pub async fn run(relay: Arc<Relay>, slack: Arc<Slack>) {
    let shutdown = relay.store.shutdown_token().clone();
    let mut pause = FIRST_PAUSE;
    let mut seen = Seen::default();
    loop {
        let wake = slack.wake.notified();
        let Some(line) = Line::of(&relay) else {
            slack.set_connected(false);
            tokio::select! {
                () = wake => continue,
                () = shutdown.cancelled() => return,
            }
        };
        let Some(app) = line.app.clone() else {
            slack.set_connected(false);
            tokio::select! {
                () = wake => continue,
                () = shutdown.cancelled() => return,
            }
        };
        // After a restart: who the bot is (its own messages are not the person's).
        if slack.bot_user().is_none()
            && let Ok(identity) = line.bot.identity().await
        {
            slack.learned_identity(identity);
        }
        let opened = match app.socket_address().await {
            Ok(address) => crate::channels::outbound::open_websocket(address.as_str())
                .await
                .map(|(socket, _)| socket)
                .map_err(|error| SlackError::Unreachable(short(&error.to_string()))),
            Err(error) => Err(error),
        };
        let key = key_of(&line);
        let failed = match opened {
            Ok(socket) => {
                let served = serve(&relay, &slack, socket, key, &mut seen).await;
                slack.set_connected(false);
                match served {
                    Served::Ended(ended) => {
                        if matches!(ended, Ended::Shutdown) {
                            return;
                        }
                        pause = FIRST_PAUSE;
                        continue;
                    }
                    // Closed before Slack said hello: not a link, and not to be hammered.
                    Served::NoHello => {
                        SlackError::Unreachable("Slack closed the link before saying hello".into())
                    }
                }
            }
            Err(error) => error,
        };
        tracing::warn!(channel = %CHANNEL, error = %failed, "could not open Slack's Socket Mode link");
        relay
            .statuses
            .failed(CHANNEL, &line.api_base, failed.to_string());
        let wait = match failed {
            SlackError::RateLimited(secs) => Duration::from_secs(secs),
            _ => pause,
        };
        pause = (pause * 2).min(LONGEST_PAUSE);
        let ended = if failed.wrong_token() {
            // Slack will not take this token again by itself: wait for new settings (or look
            // again now and then, should a wake-up have been missed).
            tokio::select! {
                () = tokio::time::sleep(REFUSED_WAIT) => Ended::Again,
                () = slack.wake.notified() => Ended::Settings,
                () = shutdown.cancelled() => Ended::Shutdown,
            }
        } else {
            tokio::select! {
                () = tokio::time::sleep(wait) => Ended::Again,
                () = slack.wake.notified() => Ended::Settings,
                () = shutdown.cancelled() => Ended::Shutdown,
            }
        };
        if matches!(ended, Ended::Shutdown) {
            return;
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Reads one link until it ends, acknowledging every envelope and handing its payload on.
async fn serve(
    relay: &Arc<Relay>,
    slack: &Arc<Slack>,
    mut socket: Socket,
    key: Option<u64>,
    seen: &mut Seen,
) -> Served {
    let shutdown = relay.store.shutdown_token().clone();
    let mut pings = tokio::time::interval(PING_EVERY);
    pings.tick().await;
    let mut heard = tokio::time::Instant::now();
    let mut hello = false;
    let ended = |hello: bool, ended: Ended| {
        if hello {
            Served::Ended(ended)
        } else {
            Served::NoHello
        }
    };
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            () = slack.wake.notified() => {
                if Line::of(relay).and_then(|line| key_of(&line)) == key {
                    continue;
                }
                let _ = socket.close(None).await;
                return Served::Ended(Ended::Settings);
            }
            () = shutdown.cancelled() => {
                let _ = socket.close(None).await;
                return Served::Ended(Ended::Shutdown);
            }
            _ = pings.tick() => {
                // A missed wake-up is caught here, at the latest.
                if Line::of(relay).and_then(|line| key_of(&line)) != key {
                    let _ = socket.close(None).await;
                    return Served::Ended(Ended::Settings);
                }
                if heard.elapsed() > SILENT_FOR {
                    tracing::warn!(channel = %CHANNEL, "Slack's link went quiet; opening a new one");
                    return ended(hello, Ended::Again);
                }
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return ended(hello, Ended::Again);
                }
                continue;
            }
        };
        heard = tokio::time::Instant::now();
        let text = match frame {
            Some(Ok(Message::Text(text))) if text.len() <= MAX_FRAME_BYTES => text,
            Some(Ok(Message::Close(_)) | Err(_)) | None => return ended(hello, Ended::Again),
            // Pings are answered by the library; nothing else means anything here.
            Some(Ok(_)) => continue,
        };
        let Ok(frame) = serde_json::from_str::<Frame>(text.as_str()) else {
            continue;
        };
        match frame.kind.as_str() {
            "hello" => {
                hello = true;
                slack.set_connected(true);
                if let Some(line) = Line::of(relay) {
                    relay.statuses.sent(CHANNEL, &line.api_base);
                }
            }
            "disconnect" => {
                tracing::info!(channel = %CHANNEL, reason = frame.reason.as_deref().unwrap_or("?"), "Slack asked for a new link");
                let _ = socket.close(None).await;
                return ended(hello, Ended::Again);
            }
            kind => {
                let Some(envelope) = frame.envelope_id else {
                    continue;
                };
                let ack = json!({ "envelope_id": envelope }).to_string();
                if socket.send(Message::Text(ack.into())).await.is_err() {
                    return ended(hello, Ended::Again);
                }
                if let Some(event) = frame.payload["event_id"].as_str()
                    && !seen.first_time(event)
                {
                    continue;
                }
                if matches!(kind, "events_api" | "interactive") {
                    slack.tell_waiting(Input::Payload(frame.payload)).await;
                }
            }
        }
    }
}

/// An error's text, cut short (a handshake error may quote the address, which holds a ticket).
fn short(text: &str) -> String {
    let text = text.split("?ticket").next().unwrap_or(text);
    hark_text::plain::cut(text, 200)
}
