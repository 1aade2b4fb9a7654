//! The Socket Mode connection (Slack's "Using Socket Mode"): `apps.connections.open` with the
//! app-level token gives a one-time `wss://` address; Slack says `hello` once it is ready, sends
//! each event, tap and modal submission in an envelope that Hark acknowledges at once with its
//! `envelope_id` (Slack retries what is not acknowledged within 3 s), and says `disconnect`
//! before it closes the link, when Hark opens a new one at once. A link that cannot be opened,
//! or closes before its `hello`, waits the chat engine's pause schedule (`chat::link`); tokens
//! Slack refused wait for new settings; one that goes quiet past `SILENT_FOR` is replaced.
//! Events come again after a retry: each is handed on once, by its `event_id`. Only a change
//! of what the link was opened with (the tokens, the address, Slack turned off) closes it;
//! other settings leave it be.

use super::CHANNEL;
use super::{Line, Slack, inbound};
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatApp, LinkEnded, Listening};
use crate::channels::outbound::WebSocket as Socket;
use crate::channels::seen::Seen;
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// How often Hark pings a quiet link, and how long a link may say nothing before it is taken
/// for dead (Slack pings every few seconds itself).
const PING_EVERY: Duration = Duration::from_secs(30);
const SILENT_FOR: Duration = Duration::from_secs(90);
/// The largest frame Hark reads (Slack's events are a few KB).
const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// What Slack sends over the link.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "type")]
    kind: String,
    envelope_id: Option<String>,
    #[serde(default)]
    payload: Value,
    reason: Option<String>,
}

/// What the link keeps from one connection to the next: the events already handed on.
#[derive(Default)]
pub struct State {
    seen: Seen,
}

/// Opens one link and reads it until it ends.
pub async fn listen(
    slack: &Slack,
    listening: &Listening<'_, Slack>,
    line: &Line,
    state: &mut State,
) -> LinkEnded {
    let Some(app) = line.app.clone() else {
        // Without the app-level token there is no link: wait for new settings.
        return if listening.woken().await {
            LinkEnded::Shutdown
        } else {
            LinkEnded::Settings
        };
    };
    // After a restart: who the bot is (its own messages are not the person's).
    if slack.bot_user().is_none()
        && let Ok(identity) = line.bot.identity().await
    {
        slack.identity.set(Some(identity));
    }
    let opened = match app.socket_address().await {
        Ok(address) => crate::channels::outbound::open_websocket(address.as_str())
            .await
            .map(|(socket, _)| socket)
            .map_err(|error| ServiceError::Unreachable {
                app: CHANNEL,
                reason: crate::channels::outbound::unquoted(&error),
            }),
        Err(error) => Err(error),
    };
    let failed = match opened {
        Ok(socket) => match serve(slack, listening, line, socket, &mut state.seen).await {
            Some(ended) => return ended,
            // Closed before Slack said hello: not a link, and not to be hammered.
            None => ServiceError::Unreachable {
                app: CHANNEL,
                reason: "Slack closed the link before saying hello".into(),
            },
        },
        Err(error) => error,
    };
    if super::web_api::wrong_token(&failed) {
        // Slack will not take this token again by itself.
        LinkEnded::Refused(failed.to_string())
    } else {
        LinkEnded::Failed {
            retry_after: failed.retry_after(),
            reason: failed.to_string(),
        }
    }
}

/// Reads one link until it ends, acknowledging every envelope and handing its payload on;
/// `None` when it ended before Slack said hello.
async fn serve(
    slack: &Slack,
    listening: &Listening<'_, Slack>,
    line: &Line,
    mut socket: Socket,
    seen: &mut Seen,
) -> Option<LinkEnded> {
    let key = Slack::link_key(line);
    let mut pings = tokio::time::interval(PING_EVERY);
    pings.tick().await;
    let mut heard = tokio::time::Instant::now();
    let mut hello = false;
    let again = |hello: bool| hello.then_some(LinkEnded::Again(Duration::ZERO));
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            stop = listening.woken() => {
                if !stop && listening.same_settings(key) {
                    continue;
                }
                let _ = socket.close(None).await;
                return Some(if stop { LinkEnded::Shutdown } else { LinkEnded::Settings });
            }
            _ = pings.tick() => {
                // A missed wake-up is caught here, at the latest.
                if !listening.same_settings(key) {
                    let _ = socket.close(None).await;
                    return Some(LinkEnded::Settings);
                }
                if heard.elapsed() > SILENT_FOR {
                    tracing::warn!(channel = %Slack::NAME, "Slack's link went quiet; opening a new one");
                    return again(hello);
                }
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return again(hello);
                }
                continue;
            }
        };
        heard = tokio::time::Instant::now();
        let text = match frame {
            Some(Ok(Message::Text(text))) if text.len() <= MAX_FRAME_BYTES => text,
            Some(Ok(Message::Close(_)) | Err(_)) | None => return again(hello),
            // Pings are answered by the library; nothing else means anything here.
            Some(Ok(_)) => continue,
        };
        let Ok(frame) = serde_json::from_str::<Frame>(text.as_str()) else {
            continue;
        };
        match frame.kind.as_str() {
            "hello" => {
                hello = true;
                listening.connected(true);
            }
            "disconnect" => {
                tracing::info!(channel = %Slack::NAME, reason = frame.reason.as_deref().unwrap_or("?"), "Slack asked for a new link");
                let _ = socket.close(None).await;
                return again(hello);
            }
            kind => {
                let Some(envelope) = frame.envelope_id else {
                    continue;
                };
                let ack = json!({ "envelope_id": envelope }).to_string();
                if socket.send(Message::Text(ack.into())).await.is_err() {
                    return again(hello);
                }
                if let Some(event) = frame.payload["event_id"].as_str()
                    && !seen.first_time(event)
                {
                    continue;
                }
                if matches!(kind, "events_api" | "interactive")
                    && let Some(inbound) = inbound::read(frame.payload, slack.bot_user().as_deref())
                {
                    listening.hand(inbound).await;
                }
            }
        }
    }
}
