//! Long polling: `getUpdates` in a loop while the bot is on and has a token, each update
//! handed to the chat task. When Telegram cannot be reached it waits longer each time (up to
//! 30 s) and says so in the status; a token Telegram does not know stops it until the token
//! changes. Updates are read one by one, so one that this release cannot read is skipped
//! instead of holding up every later one.

use super::bot_api::{BotError, POLL_SECS};
use super::chat::Line;
use super::updates::Update;
use super::{CHANNEL, Input, Telegram};
use crate::channels::Relay;
use frankenstein::methods::GetUpdatesParams;
use frankenstein::types::AllowedUpdate;
use std::sync::Arc;
use std::time::Duration;

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// How long to wait for the settings to change when the bot is off or its token is refused.
const IDLE: Duration = Duration::from_secs(60);

/// Polls until the daemon stops.
pub async fn run(relay: Arc<Relay>, bot: Arc<Telegram>) {
    let shutdown = relay.store.shutdown_token().clone();
    // Update ids count per bot: the offset belongs to the bot it was read from.
    let mut offset: Option<i64> = None;
    let mut offset_of: Option<u64> = None;
    let mut pause = FIRST_PAUSE;
    loop {
        // Registered before the settings are read, so a change in between is not missed.
        let changed = bot.wake.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let Some(line) = Line::of(&relay) else {
            tokio::select! {
                () = changed.as_mut() => {}
                () = tokio::time::sleep(IDLE) => {}
                () = shutdown.cancelled() => return,
            }
            continue;
        };
        if offset_of != Some(line.api.fingerprint()) {
            offset = None;
            offset_of = Some(line.api.fingerprint());
        }
        // Polling has a status of its own, so a poll that gets through does not hide a message
        // that could not be delivered.
        let target = format!("{}/getUpdates", line.api_base);
        if bot.bot().is_none() {
            match line.api.me().await {
                Ok(me) => bot.learned_bot(me.username),
                Err(error) => tracing::debug!(%error, "getMe failed"),
            }
        }
        let params = GetUpdatesParams::builder()
            .maybe_offset(offset)
            .timeout(POLL_SECS)
            .allowed_updates(vec![AllowedUpdate::Message, AllowedUpdate::CallbackQuery])
            .build();
        let polled = tokio::select! {
            polled = line.api.updates(&params) => polled,
            // New settings (a token, another server): poll with them.
            () = changed.as_mut() => continue,
            () = shutdown.cancelled() => return,
        };
        match polled {
            Ok(updates) => {
                relay.statuses.recovered(CHANNEL, &target);
                pause = FIRST_PAUSE;
                for raw in updates {
                    if let Some(id) = raw.get("update_id").and_then(serde_json::Value::as_i64) {
                        offset = Some(offset.map_or(id + 1, |offset| offset.max(id + 1)));
                    }
                    match serde_json::from_value::<Update>(raw) {
                        Ok(update) => {
                            bot.tell_waiting(Input::Update(Box::new(update))).await;
                        }
                        Err(error) => {
                            tracing::warn!(channel = %CHANNEL, %error, "skipped a Telegram update Hark cannot read");
                        }
                    }
                }
            }
            Err(error) => {
                let wait = if error.wrong_token() {
                    relay.statuses.failed(
                        CHANNEL,
                        &target,
                        "Telegram does not know the bot token: set it again with `hark telegram setup`".into(),
                    );
                    IDLE
                } else {
                    relay
                        .statuses
                        .failed(CHANNEL, &target, describe_poll(&error));
                    let wait = match &error {
                        BotError::Refused {
                            retry_after: Some(secs),
                            ..
                        } => Duration::from_secs(*secs),
                        _ => pause,
                    };
                    pause = (pause * 2).min(LONGEST_PAUSE);
                    wait
                };
                tokio::select! {
                    () = changed.as_mut() => {}
                    () = tokio::time::sleep(wait) => {}
                    () = shutdown.cancelled() => return,
                }
            }
        }
    }
}

/// A failed poll in a sentence; 409 means another program reads this bot's updates.
fn describe_poll(error: &BotError) -> String {
    match error {
        BotError::Refused { code: 409, .. } => "another program is reading this bot's updates (a bot server that receives them at an address, or a second Hark): stop it, or give Hark a bot of its own".into(),
        other => other.to_string(),
    }
}
