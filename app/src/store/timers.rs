//! The store's clocks: one sleeping task per question with a deadline, and one reminder ticker
//! for all pending questions. Both stop at shutdown.

use super::Store;
use crate::model::{Event, RemindData};
use chrono::Utc;
use std::time::Duration;

/// Closes `id` as timed out after `after`, unless it closed first or the daemon stops.
pub(super) fn expire_after(store: Store, id: crate::model::QuestionId, after: Duration) {
    tokio::spawn(async move {
        tokio::select! {
            () = tokio::time::sleep(after) => store.expire(id),
            () = store.shutdown_token().cancelled() => {}
        }
    });
}

/// While remindSecs is off, how often to look whether it was turned on.
const REMINDERS_OFF_POLL: Duration = Duration::from_secs(5);

/// Every `remindSecs`, sends one `question:remind` naming the questions pending at least that long.
pub(super) fn remind_forever(store: Store) {
    tokio::spawn(async move {
        loop {
            let secs = store.config().remind_secs;
            let tick = if secs == 0 {
                REMINDERS_OFF_POLL
            } else {
                Duration::from_secs(secs)
            };
            tokio::select! {
                () = tokio::time::sleep(tick) => {}
                () = store.shutdown_token().cancelled() => return,
            }
            if secs == 0 {
                continue;
            }
            let due = Utc::now() - chrono::Duration::seconds(secs as i64);
            let ids: Vec<_> = store
                .list(Some(crate::model::Status::Pending), None)
                .into_iter()
                .filter(|question| question.created_at <= due)
                .map(|question| question.id)
                .collect();
            if !ids.is_empty() {
                store.send(Event::QuestionRemind(RemindData { ids }));
            }
        }
    });
}
