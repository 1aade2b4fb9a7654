//! The Gateway connection (Discord's "Gateway" documentation, v10, JSON): `GET /gateway/bot`
//! gives the address; Discord says Hello with the heartbeat interval; Hark heartbeats (the first
//! after a random part of the interval, then every interval, with the last sequence number) and
//! Identifies with the one intent it needs, `DIRECT_MESSAGES` (taps need none; a bot reads its own
//! direct messages without the privileged message-content intent). READY gives the session to
//! Resume after a drop: on Reconnect (op 7), a close Discord allows resuming after, a missing
//! heartbeat ACK, or Invalid Session (op 9) with `d: true`; otherwise a fresh Identify. Closes
//! that will not get better by trying again (4004 a wrong token, 4010–4014) wait for new
//! settings. Failed connections wait the chat engine's pause schedule (`chat::link`).
//! Dispatches of `INTERACTION_CREATE` and `MESSAGE_CREATE` go to the chat task.

use super::{Discord, Rest, inbound};
use crate::channels::chat::pauses::FIRST as FIRST_PAUSE;
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatApp, LinkEnded, Listening};
use crate::channels::outbound::WebSocket as Socket;
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// `DIRECT_MESSAGES` (1 << 12).
pub const INTENTS: u64 = 1 << 12;
/// The largest frame Hark reads.
const MAX_FRAME_BYTES: usize = 4 * 1024 * 1024;

/// A Gateway frame: `{op, d, s, t}`.
#[derive(Deserialize)]
struct Frame {
    op: u8,
    #[serde(default)]
    d: Value,
    s: Option<u64>,
    t: Option<String>,
}

/// What READY says: the session, where to resume it, and who the bot is.
#[derive(Deserialize)]
struct Ready {
    session_id: String,
    #[serde(default)]
    resume_gateway_url: String,
    user: super::rest::Me,
}

/// A session to resume.
#[derive(Clone, Debug)]
struct Session {
    id: String,
    resume_url: String,
    seq: Option<u64>,
}

/// How a connection ended.
enum Ended {
    /// Resume the session on a new connection.
    Resume,
    /// Start a new session (Identify).
    Anew,
    /// Discord will not take this (a wrong token, intents it refuses): wait for new settings.
    Refused(String),
    /// Could not connect or was cut before it was useful: pause, then try again.
    Failed(String, Option<Duration>),
    /// The settings changed.
    Settings,
    Shutdown,
}

/// What the Gateway keeps from one connection to the next: the session to resume, and the
/// address for the token that asked for it.
#[derive(Default)]
pub struct State {
    session: Option<Session>,
    gateway_url: Option<(u64, String)>,
}

/// Opens one Gateway connection (resuming the session when there is one) and reads it until
/// it ends.
pub async fn listen(
    discord: &Discord,
    listening: &Listening<'_, Discord>,
    line: &Rest,
    state: &mut State,
) -> LinkEnded {
    let key = Discord::link_key(line);
    // A session belongs to the token that made it.
    if state
        .gateway_url
        .as_ref()
        .is_some_and(|(known, _)| *known != key)
    {
        *state = State::default();
    }
    let address = match (&state.session, &state.gateway_url) {
        (Some(session), _) if !session.resume_url.is_empty() => Ok(session.resume_url.clone()),
        (_, Some((_, url))) => Ok(url.clone()),
        (_, None) => line.gateway().await.inspect(|url| {
            state.gateway_url = Some((key, url.clone()));
        }),
    };
    let ended = match address {
        Ok(address) => {
            let address = format!("{}/?v=10&encoding=json", address.trim_end_matches('/'));
            match crate::channels::outbound::open_websocket(address.as_str()).await {
                Ok((socket, _)) => {
                    serve(discord, listening, line, socket, key, &mut state.session).await
                }
                Err(error) => Ended::Failed(crate::channels::outbound::unquoted(&error), None),
            }
        }
        Err(error) if super::rest::wrong_token(&error) => Ended::Refused(error.to_string()),
        Err(ServiceError::RateLimited { secs, .. }) => Ended::Failed(
            "Discord asked to slow down".into(),
            Some(Duration::from_secs(secs)),
        ),
        Err(error) => Ended::Failed(error.to_string(), None),
    };
    match ended {
        Ended::Shutdown => LinkEnded::Shutdown,
        Ended::Settings => LinkEnded::Settings,
        Ended::Resume => LinkEnded::Again(Duration::ZERO),
        Ended::Anew => {
            state.session = None;
            // Discord asks for a short pause before identifying again.
            LinkEnded::Again(FIRST_PAUSE)
        }
        Ended::Refused(reason) => {
            state.session = None;
            LinkEnded::Refused(reason)
        }
        Ended::Failed(reason, retry_after) => {
            // The address may be what changed, and a session that cannot be resumed there is
            // started anew.
            *state = State::default();
            LinkEnded::Failed {
                reason,
                retry_after,
            }
        }
    }
}

/// One connection: Hello, Identify or Resume, heartbeats, dispatches, until it ends.
async fn serve(
    discord: &Discord,
    listening: &Listening<'_, Discord>,
    line: &Rest,
    mut socket: Socket,
    key: u64,
    session: &mut Option<Session>,
) -> Ended {
    // Hello first (a Reconnect may come before it).
    let interval = loop {
        match next_frame(&mut socket).await {
            Some(frame) if frame.op == 10 => match frame.d["heartbeat_interval"].as_u64() {
                Some(ms) if ms > 0 => break Duration::from_millis(ms),
                _ => {
                    return Ended::Failed("Discord's Hello had no heartbeat interval".into(), None);
                }
            },
            Some(frame) if frame.op == 7 => return Ended::Resume,
            Some(_) => continue,
            None => {
                return Ended::Failed("the Gateway closed before saying Hello".into(), None);
            }
        }
    };
    let hello = match session {
        Some(session) => json!({"op": 6, "d": {
            "token": line.token(), "session_id": session.id, "seq": session.seq}}),
        None => json!({"op": 2, "d": {
            "token": line.token(), "intents": INTENTS,
            "properties": {"os": std::env::consts::OS, "browser": "hark", "device": "hark"}}}),
    };
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return Ended::Failed("the Gateway closed before Identify".into(), None);
    }
    // The first heartbeat after a random part of the interval, as Discord asks.
    let share = getrandom::u32().map_or(0.5, |random| f64::from(random) / 4_294_967_296.0);
    let jitter = interval.mul_f64(share);
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + jitter, interval);
    // A beat held up (the chat task's inbox full) is not two beats at once.
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut acked = true;
    let mut ready = false;
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            _ = beat.tick() => {
                // A missed wake-up is caught here, at the latest.
                if !listening.same_settings(key) {
                    close(&mut socket, 1000).await;
                    *session = None;
                    return Ended::Settings;
                }
                if !acked {
                    // A zombie connection: close without ending the session, and resume.
                    close(&mut socket, 4000).await;
                    return if session.is_some() { Ended::Resume } else { Ended::Anew };
                }
                acked = false;
                if !heartbeat(&mut socket, session).await {
                    return after_drop(session);
                }
                continue;
            }
            stop = listening.woken() => {
                if stop {
                    close(&mut socket, 1000).await;
                    return Ended::Shutdown;
                }
                if listening.same_settings(key) {
                    continue;
                }
                // 1000 ends the session: the bot leaves as it should.
                close(&mut socket, 1000).await;
                *session = None;
                return Ended::Settings;
            }
        };
        let frame = match frame {
            Some(Ok(Message::Text(text))) if text.len() <= MAX_FRAME_BYTES => {
                match serde_json::from_str::<Frame>(text.as_str()) {
                    Ok(frame) => frame,
                    Err(_) => continue,
                }
            }
            Some(Ok(Message::Close(close))) => {
                let code = close.map(|close| u16::from(close.code));
                return unready(ready, after_close(code, session));
            }
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return unready(ready, after_drop(session)),
        };
        if let (Some(seq), Some(session)) = (frame.s, session.as_mut()) {
            session.seq = Some(seq);
        }
        match frame.op {
            0 => {
                let kind = frame.t.unwrap_or_default();
                match kind.as_str() {
                    "READY" => {
                        let Ok(said) = serde_json::from_value::<Ready>(frame.d) else {
                            return Ended::Failed("Discord's READY was unreadable".into(), None);
                        };
                        *session = Some(Session {
                            id: said.session_id,
                            resume_url: said.resume_gateway_url,
                            seq: frame.s,
                        });
                        discord.identity.set(Some(said.user));
                        ready = true;
                        listening.connected(true);
                    }
                    "RESUMED" => {
                        ready = true;
                        listening.connected(true);
                    }
                    "INTERACTION_CREATE" => {
                        if let Some(inbound) = serde_json::from_value(frame.d)
                            .ok()
                            .and_then(inbound::interaction)
                        {
                            listening.hand(inbound).await;
                        }
                    }
                    "MESSAGE_CREATE" => {
                        let bot = discord.bot_user();
                        if let Some(inbound) = serde_json::from_value(frame.d)
                            .ok()
                            .and_then(|message| inbound::message(message, bot.as_deref()))
                        {
                            listening.hand(inbound).await;
                        }
                    }
                    _ => {}
                }
            }
            // Discord asks for a heartbeat now.
            1 if !heartbeat(&mut socket, session).await => return after_drop(session),
            7 => {
                close(&mut socket, 4000).await;
                return Ended::Resume;
            }
            9 => {
                close(&mut socket, 4000).await;
                // Discord asks for a moment before the next attempt.
                tokio::time::sleep(FIRST_PAUSE).await;
                return if frame.d.as_bool() == Some(true) && session.is_some() {
                    Ended::Resume
                } else {
                    *session = None;
                    Ended::Anew
                };
            }
            11 => acked = true,
            _ => {}
        }
    }
}

/// A connection that ended before READY or RESUMED was no connection: it waits its pause
/// rather than being tried again at once.
fn unready(ready: bool, ended: Ended) -> Ended {
    match ended {
        Ended::Resume if !ready => Ended::Failed(
            "the Gateway closed before the session was ready".into(),
            None,
        ),
        other => other,
    }
}

/// The next frame before Hello, if the connection lasts that long.
async fn next_frame(socket: &mut Socket) -> Option<Frame> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return serde_json::from_str(text.as_str()).ok();
            }
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

/// Sends a heartbeat with the last sequence number; `false` when the connection is gone.
async fn heartbeat(socket: &mut Socket, session: &Option<Session>) -> bool {
    let seq = session.as_ref().and_then(|session| session.seq);
    let beat = json!({"op": 1, "d": seq}).to_string();
    socket.send(Message::Text(beat.into())).await.is_ok()
}

async fn close(socket: &mut Socket, code: u16) {
    let frame = CloseFrame {
        code: CloseCode::from(code),
        reason: "".into(),
    };
    let _ = socket.close(Some(frame)).await;
}

/// A connection that dropped without a close: resume if there is a session.
fn after_drop(session: &Option<Session>) -> Ended {
    if session.is_some() {
        Ended::Resume
    } else {
        Ended::Failed("the Gateway connection dropped".into(), None)
    }
}

/// What Discord's close code says to do (its "Gateway Close Event Codes").
fn after_close(code: Option<u16>, session: &mut Option<Session>) -> Ended {
    match code {
        Some(4004) => Ended::Refused("Discord did not take the bot token (4004)".into()),
        Some(4010..=4014) => Ended::Refused(format!(
            "Discord refused the connection ({}): check the bot's settings in the Developer Portal",
            code.unwrap_or_default()
        )),
        Some(4007 | 4009) => {
            *session = None;
            Ended::Anew
        }
        _ => after_drop(session),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_codes_say_whether_to_resume_identify_or_stop() {
        let session = || {
            Some(Session {
                id: "s".into(),
                resume_url: "wss://r".into(),
                seq: Some(3),
            })
        };
        assert!(matches!(
            after_close(Some(4004), &mut session()),
            Ended::Refused(_)
        ));
        assert!(matches!(
            after_close(Some(4014), &mut session()),
            Ended::Refused(_)
        ));
        let mut timed_out = session();
        assert!(matches!(
            after_close(Some(4009), &mut timed_out),
            Ended::Anew
        ));
        assert!(timed_out.is_none());
        assert!(matches!(
            after_close(Some(4000), &mut session()),
            Ended::Resume
        ));
        assert!(matches!(after_close(None, &mut session()), Ended::Resume));
        assert!(matches!(
            after_close(Some(4000), &mut None),
            Ended::Failed(..)
        ));
    }
}
