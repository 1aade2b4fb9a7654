//! The long poll: `getupdates` with the `get_updates_buf` cursor (kept across restarts by the
//! chat task once the messages are handled) while the channel is on and logged in, waiting as
//! long as the server suggests. When WeChat cannot be reached it waits longer each time (up to
//! 30 s) and says so in the status; when WeChat ends the bot's session (errcode -14) it stops,
//! says "log in again" in the status and settings, and waits for a new login instead of looping.

use super::ilink::{IlinkError, Message, POLL_WAIT};
use super::record::RecordFile;
use super::{CHANNEL, Input, Line, Wechat};
use crate::channels::Relay;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// How long to wait for the settings to change when the channel is off or its session ended.
const IDLE: Duration = Duration::from_secs(60 * 60);

/// Polls until the daemon stops.
pub async fn run(relay: Arc<Relay>, wechat: Arc<Wechat>) {
    let shutdown = relay.store.shutdown_token().clone();
    // The cursor belongs to the session it was read in; the record's is at start.
    let saved = RecordFile::load(relay.home.as_deref()).await.1;
    let mut cursor = saved.cursor;
    let mut cursor_of = saved.session;
    let mut wait = POLL_WAIT;
    let mut pause = FIRST_PAUSE;
    loop {
        // Registered before the settings are read, so a change in between is not missed.
        let changed = wechat.wake.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let line = Line::of(&relay).filter(|line| line.user.is_some());
        let Some(line) = line.filter(|_| !wechat.session_ended.load(Ordering::SeqCst)) else {
            tokio::select! {
                () = changed.as_mut() => {}
                () = tokio::time::sleep(IDLE) => wechat.session_ended.store(false, Ordering::SeqCst),
                () = shutdown.cancelled() => return,
            }
            continue;
        };
        let session = line.session();
        if cursor_of.as_deref() != Some(session.as_str()) {
            cursor = String::new();
            cursor_of = Some(session.clone());
        }
        let started = tokio::time::Instant::now();
        let target = format!("{}/ilink/bot/getupdates", line.api_base);
        let polled = tokio::select! {
            polled = line.api.updates(&cursor, wait) => polled,
            // A new login or other settings: poll with them.
            () = changed.as_mut() => continue,
            () = shutdown.cancelled() => return,
        };
        match polled {
            Ok(updates) => {
                relay.statuses.recovered(CHANNEL, &target);
                pause = FIRST_PAUSE;
                if let Some(next) = updates.next_wait {
                    wait = next;
                }
                let moved = updates.cursor.is_some() && updates.cursor.as_ref() != Some(&cursor);
                let news = !updates.messages.is_empty();
                if news || moved {
                    if let Some(next) = &updates.cursor {
                        cursor.clone_from(next);
                    }
                    let messages = updates
                        .messages
                        .into_iter()
                        .filter_map(|raw| match serde_json::from_value::<Message>(raw) {
                            Ok(message) => Some(message),
                            Err(error) => {
                                tracing::warn!(channel = %CHANNEL, %error, "skipped a WeChat message Hark cannot read");
                                None
                            }
                        })
                        .collect();
                    wechat
                        .tell_waiting(Input::Polled {
                            session: session.clone(),
                            messages,
                            received_ms: chrono::Utc::now().timestamp_millis(),
                            cursor: updates.cursor,
                        })
                        .await;
                }
                // A server that answers at once with nothing is not polled in a tight loop.
                if !news {
                    tokio::select! {
                        () = changed.as_mut() => {}
                        () = tokio::time::sleep_until(started + FIRST_PAUSE) => {}
                        () = shutdown.cancelled() => return,
                    }
                }
            }
            // The poll outlived its wait: no news, and no sign that WeChat is back either.
            Err(IlinkError::NoAnswerInTime) => {}
            Err(IlinkError::SessionEnded) => {
                wechat.session_ended.store(true, Ordering::SeqCst);
                relay
                    .statuses
                    .failed(CHANNEL, &target, IlinkError::SessionEnded.to_string());
            }
            Err(error) => {
                relay.statuses.failed(CHANNEL, &target, error.to_string());
                tokio::select! {
                    () = changed.as_mut() => {}
                    () = tokio::time::sleep(pause) => {}
                    () = shutdown.cancelled() => return,
                }
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
        }
    }
}
