//! The store's clocks, one task each whatever the number of questions: the deadline scheduler
//! (time limits, and agents that must come back after a restart) and the reminder ticker (which
//! also ends agent sessions gone quiet). A tick costs the same with one question or a thousand:
//! the scheduler wakes only for the earliest deadline, and the ticker sends at most one
//! `question:remind` batch.

use super::Store;
use crate::model::{Event, QuestionId, RemindData};
use chrono::Utc;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

/// What happens when a deadline comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Due {
    /// The question's time limit: it times out if still pending.
    Expire,
    /// A question carried over a restart: withdrawn unless its agent came back.
    Orphan,
    /// `lateSecs` after its agent stopped waiting: withdrawn unless answered or taken up.
    Late,
}

/// The pending deadlines, earliest first, and the bell that wakes the scheduler for a new one.
#[derive(Default)]
pub(super) struct Deadlines {
    queue: Mutex<BTreeSet<(Instant, QuestionId, Due)>>,
    wake: Notify,
    running: AtomicBool,
}

/// Adds a deadline, starting the scheduler on first use.
pub(super) fn schedule(store: &Store, due: Due, id: QuestionId, at: Instant) {
    let deadlines = &store.shared.deadlines;
    deadlines
        .queue
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .insert((at, id, due));
    deadlines.wake.notify_one();
    if !deadlines.running.swap(true, Ordering::SeqCst) {
        tokio::spawn(run_deadlines(store.clone()));
    }
}

async fn run_deadlines(store: Store) {
    let deadlines = &store.shared.deadlines;
    loop {
        let next = deadlines
            .queue
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .first()
            .map(|(at, _, _)| *at);
        let sleep = async {
            match next {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = sleep => {}
            () = deadlines.wake.notified() => {}
            () = store.shutdown_token().cancelled() => return,
        }
        let now = Instant::now();
        let due: Vec<(QuestionId, Due)> = {
            let mut queue = deadlines
                .queue
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let mut due = Vec::new();
            while let Some(first) = queue.first().copied() {
                if first.0 > now {
                    break;
                }
                queue.pop_first();
                due.push((first.1, first.2));
            }
            due
        };
        // Each close waits for its fsync; they run side by side and share commits.
        for (id, what) in due {
            let store = store.clone();
            tokio::spawn(async move {
                match what {
                    Due::Expire => store.expire(id).await,
                    Due::Orphan => store.withdraw_orphan(id).await,
                    Due::Late => store.withdraw_late(id).await,
                }
            });
        }
    }
}

/// The ticker's longest pause: remindSecs may be turned on meanwhile, and agent sessions gone
/// quiet end at most this late.
const LONGEST_TICK: Duration = Duration::from_secs(60);
/// While remindSecs is off, how often to look whether it was turned on.
const REMINDERS_OFF_POLL: Duration = Duration::from_secs(5);

/// Every `remindSecs`, sends one `question:remind` naming the questions pending at least that long;
/// every tick, ends the agent sessions gone quiet.
pub(super) fn remind_forever(store: Store) {
    tokio::spawn(async move {
        let mut reminded = tokio::time::Instant::now();
        loop {
            let secs = store.config().remind_secs;
            let tick = if secs == 0 {
                REMINDERS_OFF_POLL
            } else {
                (reminded + Duration::from_secs(secs))
                    .saturating_duration_since(tokio::time::Instant::now())
                    .min(LONGEST_TICK)
            };
            tokio::select! {
                () = tokio::time::sleep(tick) => {}
                () = store.shutdown_token().cancelled() => return,
            }
            store.end_idle_sessions();
            if secs == 0 {
                // Turned on later, the first reminder comes a whole interval after.
                reminded = tokio::time::Instant::now();
                continue;
            }
            if reminded.elapsed() < Duration::from_secs(secs) {
                continue;
            }
            reminded = tokio::time::Instant::now();
            let due = Utc::now() - chrono::Duration::seconds(secs as i64);
            let ids: Vec<_> = store
                .pending()
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
