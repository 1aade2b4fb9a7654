//! The long poll, WeChat's connection: `getupdates` with the `get_updates_buf` cursor, waiting
//! as long as the server suggests, each person's message handed to the engine as a said text
//! (its `message_id` tells one delivered twice; its time, on WeChat's clock, is put on ours).
//! The cursor is kept across restarts (`record`) once the engine has taken the messages before
//! it. A poll that fails ends the connection, and the engine's supervisor (`chat::link`) tries
//! again on its pause schedule; when WeChat ends the bot's session (errcode -14) the status and
//! settings say "log in again", and nothing is polled until a new login.

use super::ilink::{Message, POLL_WAIT, session_ended};
use super::record::{self, Record};
use super::{CHANNEL, Line, Wechat};
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{Inbound, LinkEnded, Listening, Said};
use crate::channels::kept::Kept;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The least time between two polls that brought nothing (a server that answers at once is not
/// polled in a tight loop).
const BETWEEN_EMPTY_POLLS: Duration = Duration::from_secs(1);

/// What polling keeps from one connection to the next.
#[derive(Default)]
pub struct State {
    file: Option<Kept<Record>>,
    record: Record,
    /// How long the server asked a poll to wait (`POLL_WAIT` until it says).
    wait: Option<Duration>,
    clocks: Clocks,
}

/// How far WeChat's clock is behind ours, learnt from its messages: the least of "received
/// here" minus "written there" (the true offset plus the quickest delivery seen).
#[derive(Default)]
struct Clocks {
    behind_ms: Option<i64>,
}

impl Clocks {
    fn learn(&mut self, message: &Message, received_ms: i64) {
        if let Some(written) = message.create_time_ms {
            let behind = received_ms - written;
            self.behind_ms = Some(self.behind_ms.map_or(behind, |least| least.min(behind)));
        }
    }

    /// When `message` was written, by our clock; `None` when WeChat did not say.
    fn written_ms(&self, message: &Message) -> Option<i64> {
        Some(message.create_time_ms? + self.behind_ms.unwrap_or(0))
    }
}

/// Polls until a poll fails, the settings change or the daemon stops.
pub async fn listen(
    wechat: &Wechat,
    listening: &Listening<'_, Wechat>,
    line: &Line,
    state: &mut State,
) -> LinkEnded {
    let session = line.session();
    if state.file.is_none() {
        let file = record::load(listening.relay.home.as_deref()).await;
        state.record = file.held().clone();
        state.file = Some(file);
    }
    // The cursor and the context belong to the session they were read in.
    if state.record.session.as_deref() != Some(session.as_str()) {
        state.record = Record {
            session: Some(session),
            ..Record::default()
        };
        state.clocks = Clocks::default();
    }
    wechat.context.set(state.record.context.clone());
    loop {
        let started = tokio::time::Instant::now();
        let polled = tokio::select! {
            polled = line.api.updates(&state.record.cursor, state.wait.unwrap_or(POLL_WAIT)) => polled,
            stop = listening.woken() => {
                return if stop { LinkEnded::Shutdown } else { LinkEnded::Settings };
            }
        };
        let updates = match polled {
            Ok(updates) => updates,
            // The poll outlived its wait: no news, and no sign that WeChat is back either.
            Err(ServiceError::TimedOut { .. }) => continue,
            Err(error) if session_ended(&error) => {
                wechat.session_ended.store(true, Ordering::SeqCst);
                return LinkEnded::Refused(error.to_string());
            }
            Err(error) => {
                return LinkEnded::Failed {
                    reason: error.to_string(),
                    retry_after: None,
                };
            }
        };
        listening.working();
        state.wait = updates.next_wait.or(state.wait);
        let news = !updates.messages.is_empty();
        let moved = updates
            .cursor
            .as_ref()
            .is_some_and(|cursor| *cursor != state.record.cursor);
        if news {
            take(wechat, listening, line, state, updates.messages).await;
        }
        if news || moved {
            // Kept only once the engine has what the cursor moves past.
            listening.settled().await;
            if let Some(cursor) = updates.cursor {
                state.record.cursor = cursor;
            }
            if let Some(file) = state.file.as_mut() {
                file.keep(state.record.clone()).await;
            }
        }
        if !news {
            tokio::select! {
                () = tokio::time::sleep_until(started + BETWEEN_EMPTY_POLLS) => {}
                stop = listening.woken() => {
                    return if stop { LinkEnded::Shutdown } else { LinkEnded::Settings };
                }
            }
        }
    }
}

/// Hands one poll's messages to the engine: a person's text as said, anything else of the
/// person's as unreadable; a bot's own messages are not read.
async fn take(
    wechat: &Wechat,
    listening: &Listening<'_, Wechat>,
    line: &Line,
    state: &mut State,
    raw: Vec<serde_json::Value>,
) {
    let received_ms = chrono::Utc::now().timestamp_millis();
    let messages: Vec<Message> = raw
        .into_iter()
        .filter_map(|raw| match serde_json::from_value::<Message>(raw) {
            Ok(message) => Some(message),
            Err(error) => {
                tracing::warn!(channel = %CHANNEL, %error, "skipped a WeChat message Hark cannot read");
                None
            }
        })
        .collect();
    for message in &messages {
        state.clocks.learn(message, received_ms);
    }
    for message in messages {
        if !message.sent_by_a_person() {
            continue;
        }
        let from = message.from_user_id.clone();
        // Replies go out in the conversation of the person's last message.
        if line.user.as_deref() == Some(from.as_str())
            && let Some(context) = message.context_token.clone().filter(|c| !c.is_empty())
        {
            state.record.context = Some(context.clone());
            wechat.context.set(Some(context));
        }
        let inbound = match message.text() {
            Some(text) => Inbound::Said(Said {
                id: message.id(),
                at: from.clone(),
                from,
                text,
                replying_to: None,
                private: true,
                written: state.clocks.written_ms(&message),
            }),
            None => Inbound::Unreadable {
                at: from.clone(),
                from,
            },
        };
        listening.hand(inbound).await;
    }
}
