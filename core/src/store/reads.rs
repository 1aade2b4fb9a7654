//! What the store tells without changing anything: waiting for a question's outcome, one
//! question, the pending ones, the history's pages and its export, and the snapshot a new
//! subscriber starts from. Memory answers for the live questions and the recent history; the
//! log, read on the blocking pool, for anything older.

use super::{Filter, State, Store, StoreError, Waited};
use crate::model::{InitData, Question, QuestionId, Status, limits};
use std::time::Duration;

impl Store {
    /// Waits until the question closes (and its close is durable), `timeout` passes (`None`:
    /// no limit), or shutdown.
    ///
    /// Any number of waiters may wait on one question; every one is released.
    ///
    /// # Errors
    /// `NotFound`, or `ShuttingDown` when the daemon stops first.
    pub async fn wait(
        &self,
        id: QuestionId,
        timeout: Option<Duration>,
    ) -> Result<Waited, StoreError> {
        self.load(id).await;
        let mut outcome = {
            let mut state = self.state();
            let entry = state.entries.get_mut(&id).ok_or(StoreError::NotFound(id))?;
            // Someone waits for it: its agent is back.
            self.taken_up(entry);
            entry.outcome.subscribe()
        };
        // Counted from here, where the wait is registered, to its end however it ends.
        let _open = super::presence::OpenWait::count(&self.shared.waits);
        let closed = async {
            match outcome.wait_for(Option::is_some).await {
                Ok(result) => result.clone(),
                Err(_) => None,
            }
        };
        let limit = async {
            match timeout {
                Some(timeout) => tokio::time::sleep(timeout).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            result = closed => result.map(Waited::Closed).ok_or(StoreError::NotFound(id)),
            () = limit => Ok(Waited::StillPending),
            () = self.shared.shutdown.cancelled() => Err(StoreError::ShuttingDown),
        }
    }

    /// One question by id: from memory, else read from the log.
    pub async fn get(&self, id: QuestionId) -> Option<Question> {
        if let Some(entry) = self.state().entries.get(&id) {
            return Some(entry.question.clone());
        }
        match &self.shared.log {
            Some(log) if log.holds(id) => log.get(id).await,
            _ => None,
        }
    }

    /// Every pending question, oldest first (all of them live in memory).
    pub fn pending(&self) -> Vec<Question> {
        let state = self.state();
        let mut pending: Vec<Question> = state
            .entries
            .values()
            .filter(|entry| entry.question.is_pending())
            .map(|entry| entry.question.clone())
            .collect();
        pending.sort_by_key(|question| (question.created_at, question.id));
        pending
    }

    /// Questions newest first, optionally of one status and at most `limit` of them.
    pub async fn list(&self, status: Option<Status>, limit: Option<usize>) -> Vec<Question> {
        let filter = status.map_or(Filter::Any, Filter::Status);
        let everything = self.page(filter, None, limit.unwrap_or(usize::MAX)).await;
        everything.unwrap_or_default()
    }

    /// One page of questions, newest first: those matching `filter` created before the
    /// question `before` (the last one of the previous page), at most `limit`; `None` when
    /// `before` names no question kept.
    ///
    /// Memory decides for every question it holds (it may be ahead of the disk by the writes
    /// in flight); the log supplies the rest, read off the lock.
    pub async fn page(
        &self,
        filter: Filter,
        before: Option<QuestionId>,
        limit: usize,
    ) -> Option<Vec<Question>> {
        let cursor = match before {
            Some(id) => {
                let question = self.get(id).await?;
                Some((question.created_at, question.id))
            }
            None => None,
        };
        let from_log = match &self.shared.log {
            // Every pending question is in memory.
            Some(log) if filter != Filter::Status(Status::Pending) => {
                log.page(filter, cursor, limit).await
            }
            _ => Vec::new(),
        };
        let state = self.state();
        let mut questions: Vec<Question> = state
            .entries
            .values()
            .map(|entry| &entry.question)
            .filter(|question| filter.admits(question))
            .filter(|question| {
                cursor
                    .as_ref()
                    .is_none_or(|cursor| (question.created_at, question.id) < *cursor)
            })
            .cloned()
            .collect();
        questions.extend(from_log.into_iter().filter(|question| {
            !state.entries.contains_key(&question.id)
                && cursor
                    .as_ref()
                    .is_none_or(|cursor| (question.created_at, question.id) < *cursor)
        }));
        drop(state);
        questions.sort_by_key(|question| std::cmp::Reverse((question.created_at, question.id)));
        questions.truncate(limit);
        Some(questions)
    }

    /// Every question kept, newest first, one at a time into the returned channel (so an
    /// export never holds the whole history). Everything decided before the call is in it.
    pub async fn export(&self) -> tokio::sync::mpsc::Receiver<Question> {
        let (sender, receiver) = tokio::sync::mpsc::channel(64);
        match &self.shared.log {
            Some(log) => {
                log.sync().await;
                log.stream_all(sender);
            }
            None => {
                let questions = self.list(None, None).await;
                tokio::spawn(async move {
                    for question in questions {
                        if sender.send(question).await.is_err() {
                            return;
                        }
                    }
                });
            }
        }
        receiver
    }

    /// Resolves once every change decided so far is on disk (at shutdown, so nothing queued is
    /// left behind).
    pub async fn flush(&self) {
        if let Some(log) = &self.shared.log {
            log.sync().await;
        }
    }

    /// Writes what is queued and closes the log, leaving only its database file (at a stop,
    /// once nothing is served any more).
    pub async fn close_log(&self) {
        if let Some(log) = &self.shared.log {
            log.close().await;
        }
    }

    /// How many questions wait for an answer.
    pub fn pending_count(&self) -> usize {
        self.state().pending
    }

    /// What a fresh subscriber needs to rebuild its view: every pending question and the
    /// newest page of the history (older pages are fetched as needed).
    pub async fn snapshot(&self) -> InitData {
        let mut questions = self.pending();
        let history = self
            .page(Filter::Closed, None, limits::HISTORY_PAGE)
            .await
            .unwrap_or_default();
        // A question closed between the two reads shows once, closed.
        questions.retain(|pending| !history.iter().any(|closed| closed.id == pending.id));
        questions.extend(history);
        questions.sort_by_key(|question| std::cmp::Reverse((question.created_at, question.id)));
        InitData {
            questions,
            config: self.config(),
            messages: self.messages(),
            sessions: self.sessions(),
        }
    }

    /// A snapshot from memory alone, for a resync sent under the lock.
    pub(super) fn snapshot_in_memory(&self, state: &State) -> InitData {
        let mut questions: Vec<Question> = state
            .entries
            .values()
            .map(|entry| entry.question.clone())
            .collect();
        questions.sort_by_key(|question| std::cmp::Reverse((question.created_at, question.id)));
        let mut closed = 0;
        questions.retain(|question| {
            question.is_pending() || {
                closed += 1;
                closed <= limits::HISTORY_PAGE
            }
        });
        InitData {
            questions,
            config: self.config(),
            messages: state.messages.iter().rev().cloned().collect(),
            sessions: state.sessions.clone(),
        }
    }
}
