//! Late answers (SPEC §12): an agent that stops waiting (its call cancelled, its shim gone)
//! leaves its question answerable for `lateSecs`, marked so the page can say so. An agent that
//! comes back takes it up again: it waits for the same id (`get_answer`), or asks the same
//! questions again from the same client and directory, which attaches to the question (closed
//! already if the person answered meanwhile). After `lateSecs` with neither, it is withdrawn.

use super::close::{Ending, Outcome};
use super::{Entry, State, Store, StoreError, now, timers};
use crate::model::{AskRequest, Event, Question, QuestionId, Status};
use std::time::Duration;

impl Store {
    /// The agent stopped waiting for `id`: it stays answerable for `lateSecs` (withdrawn at once
    /// when that is 0). Idempotent while it stays abandoned.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, or `Storage` (nothing changed then).
    pub async fn abandon(&self, id: QuestionId) -> Result<Question, StoreError> {
        let late = Duration::from_secs(self.config().late_secs);
        if late.is_zero() {
            return self
                .close(id, Outcome::Withdrawn { note: None }, None)
                .await;
        }
        self.load(id).await;
        let (question, durable) = {
            let mut state = self.state();
            let entry = state.pending_entry(id)?;
            if entry.question.abandoned_at.is_some() {
                return Ok(entry.question.clone());
            }
            entry.orphan = false;
            entry.question.abandoned_at = Some(now());
            let question = entry.question.clone();
            state.abandoned.insert(id);
            let durable = self.record(&question);
            self.announce(|| Event::QuestionUpdated(question.clone()));
            (question, durable)
        };
        self.settle(durable, move |store, recorded| {
            if recorded.is_err() {
                store.take_up(id);
            }
        })
        .await?;
        self.schedule(timers::Due::Late, id, tokio::time::Instant::now() + late);
        tracing::info!(%id, "the agent stopped waiting; the question stays answerable");
        Ok(question)
    }

    /// The agent is back for `id`: no longer abandoned.
    fn take_up(&self, id: QuestionId) {
        let mut state = self.state();
        if let Some(entry) = state.entries.get_mut(&id) {
            self.taken_up(entry);
        }
    }

    /// Marks `entry`'s agent as back (call under the lock). Recording it is not awaited: the
    /// mark only shows a banner, and a lost write leaves the banner until the agent asks again.
    pub(super) fn taken_up(&self, entry: &mut Entry) {
        entry.orphan = false;
        if entry.question.is_pending() && entry.question.abandoned_at.take().is_some() {
            let _ = self.record(&entry.question);
            let question = entry.question.clone();
            self.announce(|| Event::QuestionUpdated(question));
        }
    }

    /// A question this request's agent abandoned within `lateSecs`: the same questions and
    /// title, from the same client in the same directory, not withdrawn since. Pending ones are
    /// taken up again.
    pub(super) fn resumed(&self, state: &mut State, request: &AskRequest) -> Option<Question> {
        let late = chrono::Duration::seconds(self.read_config(|config| config.late_secs) as i64);
        let since = now() - late;
        let same_source = |question: &Question| {
            let (asked, asking) = (question.source.as_ref(), request.source.as_ref());
            asked.map(|source| (&source.client, &source.cwd))
                == asking.map(|source| (&source.client, &source.cwd))
        };
        // Looked through, the index loses what can never be taken up again: forgotten,
        // taken up, left too long ago, or withdrawn by its asker (leaving again re-indexes it).
        let mut newest: Option<(chrono::DateTime<chrono::Utc>, QuestionId)> = None;
        let State {
            entries, abandoned, ..
        } = state;
        abandoned.retain(|id| {
            let Some(question) = entries.get(id).map(|entry| &entry.question) else {
                return false;
            };
            if question.abandoned_at.is_none_or(|at| at < since)
                || question.status == Status::Cancelled
            {
                return false;
            }
            let same = question.questions == request.questions
                && question.title == request.title
                && same_source(question);
            if same && newest.is_none_or(|(at, _)| question.created_at > at) {
                newest = Some((question.created_at, question.id));
            }
            true
        });
        let (_, id) = newest?;
        let entry = state.entries.get_mut(&id)?;
        self.taken_up(entry);
        Some(entry.question.clone())
    }

    /// `lateSecs` after its agent stopped waiting: withdrawn if still nobody answered it and
    /// no agent came back (an agent that came back and left again has a later deadline).
    pub(super) async fn withdraw_late(&self, id: QuestionId) {
        let late = chrono::Duration::seconds(self.config().late_secs as i64);
        // A deadline may fire a hair early: what is due within half a second is due now.
        let abandoned_by = now() - late + chrono::Duration::milliseconds(500);
        let withdrawn = self
            .close_as(id, Ending::Abandoned { abandoned_by }, None, Vec::new())
            .await;
        if let Ok(Some(_)) = withdrawn {
            tracing::info!(%id, "nobody answered after the agent stopped waiting; withdrew it");
        }
    }
}
