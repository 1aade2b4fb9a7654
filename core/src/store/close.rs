//! The one way a question closes: `Store::close(id, Outcome, via)` for the person's and the
//! agent's outcomes, and `close_as` beneath it for the store's own timers (its time limit, an
//! agent that never came back, one that stopped waiting). Each close is decided under the lock
//! with no I/O, announced, queued on the log, and made final only once the log has it; a close
//! the disk refuses reopens the question and is tried again when a timer made it.

use super::images::{self, StoredImage};
use super::{Entry, Store, StoreError, now, timers};
use crate::model::{
    AnsweredVia, DaemonNote, ErrorBody, Event, Question, QuestionId, Status, SubQuestionAnswer,
    validate_answers, validate_note,
};
use std::time::Duration;

/// When a time-out or withdrawal the disk refused is tried again.
const RETRY_REFUSED_CLOSE: Duration = Duration::from_secs(5);

/// How the person or the asking agent ends a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The person answered, one answer per sub-question (images as base64, checked here).
    Answered(Vec<SubQuestionAnswer>),
    /// The person skipped it, perhaps saying why.
    Declined { note: Option<String> },
    /// The asking side withdrew it, perhaps saying why.
    Withdrawn { note: Option<String> },
}

/// Every way a question ends: an `Outcome`, or one of the store's own timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    By(Outcome),
    /// Its time limit passed: answered with its recommended options, else timed out.
    Expired,
    /// Carried over a restart, and no agent came back for it.
    Orphaned,
    /// Its agent stopped waiting, and nobody answered within `lateSecs` (those that went by
    /// before `abandoned_by`).
    Abandoned {
        abandoned_by: chrono::DateTime<chrono::Utc>,
    },
}

impl Ending {
    /// The timer to try again when the disk refused this close; none for an outcome someone
    /// asked for (they hear the refusal instead).
    fn retry(&self) -> Option<timers::Due> {
        match self {
            Ending::By(_) => None,
            Ending::Expired => Some(timers::Due::Expire),
            Ending::Orphaned => Some(timers::Due::Orphan),
            Ending::Abandoned { .. } => Some(timers::Due::Late),
        }
    }

    /// Whether this ending still applies to the pending `entry`: a timer's may have been
    /// overtaken (an agent came back, or left again later).
    fn applies_to(&self, entry: &Entry) -> bool {
        match self {
            Ending::By(_) => true,
            // A limit moved by typing leaves its earlier deadline nothing to do; a deadline may
            // fire a hair early, so what is due within half a second is due now.
            Ending::Expired => entry.moved_limit.is_none_or(|limit| {
                limit <= tokio::time::Instant::now() + std::time::Duration::from_millis(500)
            }),
            Ending::Orphaned => entry.orphan,
            Ending::Abandoned { abandoned_by } => entry
                .question
                .abandoned_at
                .is_some_and(|at| at <= *abandoned_by),
        }
    }
}

impl Store {
    /// Closes a pending question with `outcome`, noting where it was answered or declined
    /// (`via`; `None`: through the API). The first close wins. An answer's images are decoded
    /// and checked first, off the lock; their bytes go to the log beside the question, which
    /// keeps only their type and size.
    ///
    /// # Errors
    /// `NotFound`, `NotPending` (closed already), `Invalid` naming the field (an answer that
    /// breaks the rules, an over-long note), or `Storage`; a refused close leaves the question
    /// pending and answerable.
    pub async fn close(
        &self,
        id: QuestionId,
        outcome: Outcome,
        via: Option<AnsweredVia>,
    ) -> Result<Question, StoreError> {
        if let Outcome::Declined { note } | Outcome::Withdrawn { note } = &outcome {
            validate_note(note.as_deref())?;
        }
        let (outcome, images) = match outcome {
            Outcome::Answered(answers) if answers.iter().any(|a| !a.images.is_empty()) => {
                let (answers, images) = self.take_images(id, answers).await?;
                (Outcome::Answered(answers), images)
            }
            other => (other, Vec::new()),
        };
        let closed = (self.close_as(id, Ending::By(outcome), via, images).await?)
            .ok_or(StoreError::NotFound(id))?;
        self.keep_rule_of(&closed).await;
        Ok(closed)
    }

    /// Decodes an answer's images off the runtime, once the question is known to take them:
    /// megabytes of decoding are worth skipping for one that cannot (the close still decides
    /// under the lock).
    async fn take_images(
        &self,
        id: QuestionId,
        answers: Vec<SubQuestionAnswer>,
    ) -> Result<(Vec<SubQuestionAnswer>, Vec<StoredImage>), StoreError> {
        match self.get(id).await {
            None => return Err(StoreError::NotFound(id)),
            Some(question) if !question.is_pending() => {
                return Err(StoreError::NotPending {
                    id,
                    status: question.status,
                });
            }
            Some(_) => {}
        }
        let taken = tokio::task::spawn_blocking(move || images::take(answers))
            .await
            .map_err(|error| StoreError::Storage(error.to_string()))?;
        Ok(taken?)
    }

    /// The question's time limit: if still pending, it is answered with its recommended options
    /// (`timeoutAction: "recommended"`, noted `DaemonNote::ChosenByTimeout`) or else times out.
    pub(super) async fn expire(&self, id: QuestionId) {
        let _ = self.close_as(id, Ending::Expired, None, Vec::new()).await;
    }

    /// Withdraws a question carried over a restart that no agent came back for. Decided under
    /// the same lock as the close: an agent that re-attaches a moment earlier keeps it.
    pub(super) async fn withdraw_orphan(&self, id: QuestionId) {
        if let Ok(Some(_)) = self.close_as(id, Ending::Orphaned, None, Vec::new()).await {
            tracing::info!(%id, "no agent came back for a question after the restart; withdrew it");
        }
    }

    /// Closes a pending question as `ending` says, if it still applies, deciding both under one
    /// lock; `None` when it no longer applied (nothing changed).
    pub(super) async fn close_as(
        &self,
        id: QuestionId,
        ending: Ending,
        via: Option<AnsweredVia>,
        images: Vec<StoredImage>,
    ) -> Result<Option<Question>, StoreError> {
        self.load(id).await;
        // What a question asks never changes, so its recommended answers can be read first.
        let recommended = match ending {
            Ending::Expired => self.get(id).await.and_then(|q| q.recommended_answers()),
            _ => None,
        };
        let (closed, durable) = {
            let mut state = self.state();
            let entry = state.pending_entry(id)?;
            if !ending.applies_to(entry) {
                return Ok(None);
            }
            let mut closed = entry.question.clone();
            fill(&mut closed, &ending, recommended, via)?;
            closed.closed_at = Some(now());
            // The waiters (the agent) hear the outcome as soon as it is on disk: from the log's
            // writer, one hop sooner than this caller.
            let (outcome, result) = (entry.outcome.clone(), closed.wait_result());
            let durable = self.record_with_images(
                &closed,
                images.clone(),
                Some(Box::new(move || {
                    outcome.send_replace(Some(result));
                })),
            );
            entry.question = closed.clone();
            entry.images = images;
            state.pending -= 1;
            self.announce(|| {
                if closed.status == Status::Answered {
                    Event::QuestionAnswered(closed.clone())
                } else {
                    Event::QuestionClosed(closed.clone())
                }
            });
            (closed, durable)
        };
        self.session_asks(closed.source.as_ref(), false);
        let recorded = closed.clone();
        let retry = ending.retry();
        self.settle(
            durable,
            move |store, outcome_of_write| match outcome_of_write {
                // Durable: the question may leave memory one day.
                Ok(()) => store.retire(recorded.id),
                Err(_) => store.undo_close(&recorded, retry),
            },
        )
        .await?;
        Ok(Some(closed))
    }

    /// Reopens a question whose close the disk refused, and resyncs every subscriber; a timer's
    /// close is tried again a little later (its deadline left the queue when it fired).
    fn undo_close(&self, closed: &Question, retry: Option<timers::Due>) {
        let mut state = self.state();
        if let Some(entry) = state.entries.get_mut(&closed.id)
            && entry.question == *closed
        {
            entry.question.status = Status::Pending;
            entry.question.closed_at = None;
            entry.question.answers = None;
            entry.question.note = None;
            entry.question.answered_via = None;
            entry.images.clear();
            state.pending += 1;
        }
        self.send(Event::Init(self.snapshot_in_memory(&state)));
        drop(state);
        if let Some(due) = retry {
            self.schedule(
                due,
                closed.id,
                tokio::time::Instant::now() + RETRY_REFUSED_CLOSE,
            );
        }
    }
}

/// Writes `ending` into the question being closed: its status, answers and note.
fn fill(
    question: &mut Question,
    ending: &Ending,
    recommended: Option<Vec<SubQuestionAnswer>>,
    via: Option<AnsweredVia>,
) -> Result<(), ErrorBody> {
    let said = |note: &Option<String>| note.clone().filter(|note| !note.trim().is_empty());
    match ending {
        Ending::By(Outcome::Answered(answers)) => {
            question.answers = Some(validate_answers(&question.questions, answers)?);
            question.answered_via = via;
            question.status = Status::Answered;
        }
        Ending::By(Outcome::Declined { note }) => {
            question.note = said(note);
            question.answered_via = via;
            question.status = Status::Declined;
        }
        Ending::By(Outcome::Withdrawn { note }) => {
            question.note = said(note);
            question.status = Status::Cancelled;
        }
        Ending::Expired => match recommended {
            Some(answers) => {
                question.answers = Some(answers);
                question.note = Some(DaemonNote::ChosenByTimeout.text().to_string());
                question.status = Status::Answered;
            }
            None => question.status = Status::Timeout,
        },
        Ending::Orphaned => {
            question.note = Some(DaemonNote::AgentWentAway.text().to_string());
            question.status = Status::Cancelled;
        }
        Ending::Abandoned { .. } => {
            question.note = Some(DaemonNote::NobodyAnsweredInTime.text().to_string());
            question.status = Status::Cancelled;
        }
    }
    Ok(())
}
