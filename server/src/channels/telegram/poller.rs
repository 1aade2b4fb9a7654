//! Long polling, the bot's connection: `getUpdates` in a loop, each update read into the
//! engine's inbounds. A poll that fails ends the connection, and the chat engine's supervisor
//! (`chat::link`) tries again on its pause schedule; a token Telegram does not know waits for
//! new settings. Updates are read one by one, so one that this release cannot read is skipped
//! instead of holding up every later one.

use super::bot_api::POLL_SECS;
use super::updates::Update;
use super::{BotApi, CHANNEL, Telegram, inbound};
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatApp, LinkEnded, Listening};
use frankenstein::methods::GetUpdatesParams;
use frankenstein::types::AllowedUpdate;

/// What polling keeps from one connection to the next: the next update's id, for the bot it
/// counts for (update ids count per bot).
#[derive(Default)]
pub struct State {
    offset: Option<i64>,
    offset_of: Option<u64>,
}

/// Polls until a poll fails, the settings change or the daemon stops.
pub async fn listen(
    telegram: &Telegram,
    listening: &Listening<'_, Telegram>,
    line: &BotApi,
    state: &mut State,
) -> LinkEnded {
    let key = Telegram::link_key(line);
    if state.offset_of != Some(key) {
        *state = State {
            offset: None,
            offset_of: Some(key),
        };
    }
    if telegram.bot.get().is_none() {
        match line.me().await {
            Ok(me) => telegram.bot.set(me.username),
            Err(error) => tracing::debug!(%error, "getMe failed"),
        }
    }
    loop {
        let params = GetUpdatesParams::builder()
            .maybe_offset(state.offset)
            .timeout(POLL_SECS)
            .allowed_updates(vec![AllowedUpdate::Message, AllowedUpdate::CallbackQuery])
            .build();
        let polled = tokio::select! {
            polled = line.updates(&params) => polled,
            // New settings (a token, another server): poll with them.
            stop = listening.woken() => {
                return if stop { LinkEnded::Shutdown } else { LinkEnded::Settings };
            }
        };
        let updates = match polled {
            Ok(updates) => updates,
            Err(error) if super::bot_api::wrong_token(&error) => {
                return LinkEnded::Refused(
                    "Telegram does not know the bot token: set it again with `hark telegram setup`"
                        .into(),
                );
            }
            Err(error) => {
                return LinkEnded::Failed {
                    reason: describe_poll(&error),
                    retry_after: error.retry_after(),
                };
            }
        };
        listening.working();
        for raw in updates {
            if let Some(id) = raw.get("update_id").and_then(serde_json::Value::as_i64) {
                state.offset = Some(state.offset.map_or(id + 1, |offset| offset.max(id + 1)));
            }
            match serde_json::from_value::<Update>(raw) {
                Ok(update) => inbound::take(update, listening, line).await,
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "skipped a Telegram update Hark cannot read");
                }
            }
        }
    }
}

/// A failed poll in a sentence; 409 means another program reads this bot's updates.
fn describe_poll(error: &ServiceError) -> String {
    match error.refusal() {
        Some(refusal) if refusal.status == 409 => "another program is reading this bot's updates (a bot server that receives them at an address, or a second Hark): stop it, or give Hark a bot of its own".into(),
        _ => error.to_string(),
    }
}
