//! Typing keeps a question open (SPEC §18): while the person edits an answer (a draft on the
//! page, or the own words a chat is waiting for), the time limit moves to `TYPING_HOLD` after the
//! last edit, at most `typingGraceSecs` past the original limit, and the page is told the new
//! one. A question nobody touches still ends at its limit, and so does `timeoutAction`.

use super::{Store, timers};
use crate::model::{Event, QuestionId};
use chrono::{DateTime, Utc};
use std::time::Duration;

/// How long after the last edit a question stays open.
pub const TYPING_HOLD: Duration = Duration::from_secs(60);

impl Store {
    /// The person is editing an answer to `id`. Returns the time limit in force afterwards;
    /// `None` when the question has none or is not pending.
    pub fn typing(&self, id: QuestionId) -> Option<DateTime<Utc>> {
        let grace = Duration::from_secs(self.config().typing_grace_secs);
        // Decided on the scheduler's clock, which the deadlines follow; the wall clock only
        // names the new limit for the page.
        let (now, clock) = (Utc::now(), tokio::time::Instant::now());
        let (wanted, due) = {
            let mut state = self.state();
            let entry = state.pending_entry(id).ok()?;
            let limit = entry.question.expires_at?;
            let current = entry
                .moved_limit
                .unwrap_or_else(|| clock + (limit - now).to_std().unwrap_or_default());
            let first = *entry.first_limit.get_or_insert(current);
            let due = (clock + TYPING_HOLD).min(first + grace);
            if due <= current {
                return Some(limit);
            }
            let wanted = now + chrono::Duration::from_std(due - clock).unwrap_or_default();
            entry.question.expires_at = Some(wanted);
            entry.moved_limit = Some(due);
            let moved = entry.question.clone();
            // Written to the log, so a restart keeps the limit the person typed past. Not
            // awaited: nobody waits on it, and the next edit writes it again.
            drop(self.record(&moved));
            self.announce(|| Event::QuestionUpdated(moved));
            (wanted, due)
        };
        self.schedule(timers::Due::Expire, id, due);
        Some(wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AskRequest, Question, QuestionOption, Status, SubQuestion};
    use crate::store::Created;
    use tokio_util::sync::CancellationToken;

    fn open() -> Store {
        Store::open(None, CancellationToken::new()).0
    }

    async fn create(store: &Store, request: AskRequest) -> Question {
        match store.create(request).await.unwrap() {
            Created::New(question) => question,
            Created::Existing(_) => panic!("expected a new question"),
        }
    }

    fn ask(timeout_secs: u64) -> AskRequest {
        AskRequest {
            questions: vec![SubQuestion {
                options: vec![QuestionOption::new("Yes")],
                ..SubQuestion::text("Go?")
            }],
            timeout_secs: Some(timeout_secs),
            ..AskRequest::default()
        }
    }

    async fn status_after(store: &Store, id: QuestionId, secs: u64) -> Status {
        tokio::time::sleep(Duration::from_secs(secs)).await;
        store.get(id).await.unwrap().status
    }

    #[tokio::test(start_paused = true)]
    async fn typing_holds_the_limit_a_minute_past_the_last_edit_up_to_the_grace() {
        let store = open();
        store
            .update_config(&serde_json::json!({"typingGraceSecs": 150}))
            .await
            .unwrap();
        let question = create(&store, ask(3)).await;
        let id = question.id;
        let moved = store.typing(id).unwrap();
        assert!(
            moved > question.expires_at.unwrap(),
            "the limit moved to a minute from now"
        );
        assert_eq!(status_after(&store, id, 50).await, Status::Pending);
        // Typing on keeps it open; the grace (150 s past the first limit) caps it.
        store.typing(id);
        assert_eq!(status_after(&store, id, 50).await, Status::Pending);
        store.typing(id);
        assert_eq!(status_after(&store, id, 40).await, Status::Pending);
        assert_eq!(status_after(&store, id, 15).await, Status::Timeout);
    }

    #[tokio::test(start_paused = true)]
    async fn a_question_nobody_types_in_ends_at_its_limit_and_one_without_a_limit_has_none() {
        let store = open();
        let question = create(&store, ask(3)).await;
        assert_eq!(status_after(&store, question.id, 4).await, Status::Timeout);
        assert_eq!(store.typing(question.id), None, "closed");
        let open = create(
            &store,
            AskRequest {
                timeout_secs: None,
                ..ask(0)
            },
        )
        .await;
        assert_eq!(store.typing(open.id), None);
        store
            .update_config(&serde_json::json!({"typingGraceSecs": 0}))
            .await
            .unwrap();
        let strict = create(&store, ask(3)).await;
        assert_eq!(store.typing(strict.id), strict.expires_at);
        assert_eq!(status_after(&store, strict.id, 4).await, Status::Timeout);
    }
}
