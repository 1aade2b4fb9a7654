//! The long connection (Feishu's "使用长连接接收事件", as the official SDKs keep it): the
//! address call gives a one-time `wss://` address and a `ClientConfig`; Hark pings at once and
//! every `PingInterval` seconds with the `service_id` the address names, applies the
//! `ClientConfig` a pong carries, acknowledges each event within Feishu's 3 s by echoing its
//! last frame with `{"code": 200}` (an event sent in pieces is acknowledged once whole, as the
//! SDKs do), puts together events sent in pieces, and hands each on once (by its
//! `message_id`; Feishu sends again what it thinks was missed). `card` frames, which only the
//! old card callbacks use, are left unacknowledged as the SDKs leave them.
//!
//! A connection that drops is opened again (a fresh address) after a random part of
//! `ReconnectNonce` (at most 30 s); one that cannot be opened waits the chat engine's pause
//! schedule (`chat::link`: from 1 s to 30 s, quicker than the SDKs' two minutes, as a person
//! waits on it). Credentials Feishu refuses, and the refusals its handshake marks as final (`403`,
//! `Handshake-Status: 514`, too many connections), wait for new settings. One that goes quiet
//! for two ping intervals and 10 s is replaced. Only a change of what it was opened with (the
//! credentials, the address, the app turned off) closes it.

use super::frame::{CONTROL, DATA, Frame, Pieces};
use super::open_api::ClientConfig;
use super::{CHANNEL, Feishu, OpenApi, inbound};
use crate::channels::chat::pauses::LONGEST as LONGEST_PAUSE;
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatApp, LinkEnded, Listening};
use crate::channels::outbound::WebSocket as Socket;
use crate::channels::seen::Seen;
use futures::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

/// The shortest and longest ping intervals Hark keeps, whatever a pong says.
const SHORTEST_PING: Duration = Duration::from_secs(1);
const LONGEST_PING: Duration = Duration::from_secs(3600);
/// The largest frame Hark reads (events are a few KB; the SDKs split larger ones).
const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// How serving a connection ended.
enum Ended {
    /// Feishu closed it, or it went quiet.
    Again,
    /// The settings changed: look at them afresh.
    Settings,
    Shutdown,
}

/// Why a connection could not be opened.
enum Failed {
    /// Try again after a pause.
    Passing(String),
    /// Feishu will not take these credentials (or this many connections): wait for settings.
    Refused(String),
}

/// What the connection keeps from one to the next: the events already handed on.
#[derive(Default)]
pub struct State {
    seen: Seen,
}

/// A random share of `secs`, at most the longest pause.
fn jitter(secs: u64) -> Duration {
    let share = getrandom::u32().map_or(0.5, |random| f64::from(random) / 4_294_967_296.0);
    Duration::from_secs(secs).min(LONGEST_PAUSE).mul_f64(share)
}

/// Opens one connection and reads it until it ends.
pub async fn listen(
    feishu: &Feishu,
    listening: &Listening<'_, Feishu>,
    line: &OpenApi,
    state: &mut State,
) -> LinkEnded {
    // After a restart: the bot's name and open id (its own messages are not the person's).
    if feishu.bot.get().is_none()
        && let Ok(bot) = line.bot().await
    {
        feishu.bot.set(Some(bot));
    }
    match open(line).await {
        Ok((socket, service, config)) => {
            listening.connected(true);
            let key = Feishu::link_key(line);
            match serve(listening, socket, service, config, key, &mut state.seen).await {
                (Ended::Shutdown, _) => LinkEnded::Shutdown,
                (Ended::Settings, _) => LinkEnded::Settings,
                (Ended::Again, config) => {
                    tracing::info!(channel = %CHANNEL, "Feishu's long connection closed; opening a new one");
                    LinkEnded::Again(jitter(config.reconnect_nonce))
                }
            }
        }
        Err(Failed::Refused(reason)) => LinkEnded::Refused(reason),
        Err(Failed::Passing(reason)) => LinkEnded::Failed {
            reason,
            retry_after: None,
        },
    }
}

/// The address call, then the WebSocket: the socket, the service its pings name, and how
/// Feishu wants it kept.
async fn open(line: &OpenApi) -> Result<(Socket, i32, ClientConfig), Failed> {
    let endpoint = match line.endpoint().await {
        Ok(endpoint) => endpoint,
        Err(error) if error.passing() => return Err(Failed::Passing(error.to_string())),
        Err(error @ ServiceError::Refused { .. }) => {
            return Err(Failed::Refused(error.to_string()));
        }
        Err(error) => return Err(Failed::Passing(error.to_string())),
    };
    let service = reqwest::Url::parse(&endpoint.url)
        .ok()
        .and_then(|url| {
            url.query_pairs()
                .find(|(key, _)| key == "service_id")
                .and_then(|(_, value)| value.parse::<i32>().ok())
        })
        .unwrap_or(0);
    match crate::channels::outbound::open_websocket(endpoint.url.as_str()).await {
        Ok((socket, _)) => Ok((socket, service, endpoint.client_config)),
        Err(WsError::Http(response)) => {
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or_default()
                    .to_string()
            };
            let status = header("handshake-status");
            let reason = format!(
                "Feishu refused the connection ({} {}{})",
                response.status(),
                status,
                match header("handshake-msg") {
                    message if message.is_empty() => String::new(),
                    message => format!(": {}", hark_text::plain::cut(&message, 200)),
                }
            );
            if response.status() == 403
                || status == "514"
                || status == "403"
                || header("handshake-autherrcode") == "1000040350"
            {
                Err(Failed::Refused(reason))
            } else {
                Err(Failed::Passing(reason))
            }
        }
        Err(error) => Err(Failed::Passing(format!(
            "Feishu could not be reached: {}",
            crate::channels::outbound::unquoted(&error)
        ))),
    }
}

/// Reads one connection until it ends, pinging, acknowledging every event and handing it on.
/// Gives back the `ClientConfig` last in force (its `ReconnectNonce` paces the next one).
async fn serve(
    listening: &Listening<'_, Feishu>,
    mut socket: Socket,
    service: i32,
    mut config: ClientConfig,
    key: u64,
    seen: &mut Seen,
) -> (Ended, ClientConfig) {
    let every = |config: &ClientConfig| {
        Duration::from_secs(config.ping_interval).clamp(SHORTEST_PING, LONGEST_PING)
    };
    let mut pings = tokio::time::interval(every(&config));
    let mut heard = Instant::now();
    let mut pieces = Pieces::default();
    let same_settings = || listening.same_settings(key);
    loop {
        let message = tokio::select! {
            message = socket.next() => message,
            stop = listening.woken() => {
                if !stop && same_settings() {
                    continue;
                }
                let _ = socket.close(None).await;
                return (if stop { Ended::Shutdown } else { Ended::Settings }, config);
            }
            _ = pings.tick() => {
                // A missed wake-up is caught here, at the latest.
                if !same_settings() {
                    let _ = socket.close(None).await;
                    return (Ended::Settings, config);
                }
                if heard.elapsed() > every(&config) * 2 + Duration::from_secs(10) {
                    tracing::warn!(channel = %CHANNEL, "Feishu's long connection went quiet; opening a new one");
                    return (Ended::Again, config);
                }
                let ping = Frame::ping(service).to_bytes();
                if socket.send(Message::Binary(ping.into())).await.is_err() {
                    return (Ended::Again, config);
                }
                continue;
            }
        };
        heard = Instant::now();
        let bytes = match message {
            Some(Ok(Message::Binary(bytes))) if bytes.len() <= MAX_FRAME_BYTES => bytes,
            Some(Ok(Message::Close(_)) | Err(_)) | None => return (Ended::Again, config),
            // WebSocket pings are answered by the library; text means nothing here.
            Some(Ok(_)) => continue,
        };
        let Some(frame) = Frame::from_bytes(&bytes) else {
            continue;
        };
        match (frame.method, frame.header("type")) {
            (CONTROL, Some("pong")) => {
                if let Some(new) = frame
                    .payload
                    .as_deref()
                    .filter(|payload| !payload.is_empty())
                    .and_then(|payload| serde_json::from_slice::<ClientConfig>(payload).ok())
                {
                    if every(&new) != every(&config) {
                        pings = tokio::time::interval_at(Instant::now() + every(&new), every(&new));
                    }
                    config = new;
                }
            }
            (DATA, Some("event")) => {
                let started = std::time::Instant::now();
                let Some(payload) = pieces.take(&frame) else {
                    continue;
                };
                let ack = frame.ack(started.elapsed()).to_bytes();
                if socket.send(Message::Binary(ack.into())).await.is_err() {
                    return (Ended::Again, config);
                }
                if let Some(id) = frame.header("message_id")
                    && !seen.first_time(id)
                {
                    continue;
                }
                if let Some(inbound) = serde_json::from_slice(&payload)
                    .ok()
                    .and_then(inbound::read)
                {
                    listening.hand(inbound).await;
                }
            }
            _ => {}
        }
    }
}
