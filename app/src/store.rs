//! The one place where a question changes state (server only): create, answer, decline, cancel and
//! expire, the waiters of each question, and the broadcast of one typed event per change.
//!
//! State sits behind a std `Mutex` that is never held across an `.await`; events are sent while
//! it is held, so subscribers see changes in the order they happened. With a database (`db`),
//! every change is written, and synced, before it is applied and announced: memory serves the
//! live questions and the recent history, the database is the record and serves older pages.
//! After a restart, pending questions come back pending; one that no agent re-attaches to within
//! `orphanSecs` is withdrawn.

mod config_file;
mod db;
mod error;
mod files;
mod timers;

pub use config_file::ConfigFile;
pub use db::{DB_FILE, Filter, OpenError};
pub use error::StoreError;
pub use files::replace_privately;

use crate::model::{
    AskRequest, Config, ConfigReport, Event, InitData, Question, QuestionId, Status,
    SubQuestionAnswer, WaitResult, limits, validate_answers, validate_ask, validate_note,
};
use chrono::Utc;
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

/// Closed questions kept in memory; older ones live in the database only (or, without one, are
/// forgotten).
pub const HISTORY_IN_MEMORY: usize = 1_000;
/// Closes between two prunings of the database.
const PRUNE_EVERY: u32 = 100;
/// The note of a question whose agent did not come back after a restart.
pub const ORPHAN_NOTE: &str = "the asking agent went away";
/// Events a slow subscriber may fall behind before it must resync from a snapshot.
const EVENT_BUFFER: usize = 256;

/// Whether `create` made a new question or found the one with the client's id.
#[derive(Debug)]
pub enum Created {
    New(Question),
    Existing(Question),
}

impl Created {
    /// The question, new or not.
    pub fn question(&self) -> &Question {
        match self {
            Created::New(question) | Created::Existing(question) => question,
        }
    }
}

/// The end of a wait: the question closed, or the wait ran out first.
#[derive(Debug, PartialEq, Eq)]
pub enum Waited {
    Closed(WaitResult),
    StillPending,
}

/// A cheap handle to the shared store; clone it freely.
#[derive(Clone)]
pub struct Store {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    events: broadcast::Sender<Event>,
    config: ConfigFile,
    browser_clients: AtomicUsize,
    shutdown: CancellationToken,
    deadlines: timers::Deadlines,
}

#[derive(Default)]
struct State {
    entries: HashMap<QuestionId, Entry>,
    closed_order: VecDeque<QuestionId>,
    pending: usize,
    db: Option<db::Database>,
    closes_since_prune: u32,
}

struct Entry {
    question: Question,
    /// Holds the outcome once closed; every waiter of the question watches it.
    outcome: watch::Sender<Option<WaitResult>>,
    /// Carried over a restart and not re-attached to by any agent yet.
    orphan: bool,
}

impl Entry {
    fn new(question: Question) -> Entry {
        let outcome = watch::Sender::new((!question.is_pending()).then(|| question.wait_result()));
        Entry {
            question,
            outcome,
            orphan: false,
        }
    }
}

impl Store {
    /// Opens a store whose config lives in `home` (or only in memory when `None`).
    /// Background tasks stop when `shutdown` is cancelled.
    pub fn open(home: Option<&Path>, shutdown: CancellationToken) -> (Store, ConfigReport) {
        let (config, report) = ConfigFile::load(home);
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let store = Store {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                events,
                config,
                browser_clients: AtomicUsize::new(0),
                shutdown,
                deadlines: timers::Deadlines::default(),
            }),
        };
        (store, report)
    }

    /// Opens a store that keeps its history in `home`'s database: prunes it by the config, and
    /// brings back pending questions (pending, each with `orphanSecs` for its agent to come
    /// back) and the recent history. Needs the async runtime (it arms the deadlines).
    ///
    /// # Errors
    /// When no database can be written in `home`.
    pub fn open_persistent(
        home: &Path,
        shutdown: CancellationToken,
    ) -> Result<(Store, ConfigReport), OpenError> {
        let database = db::Database::open(home)?;
        let (store, report) = Store::open(Some(home), shutdown);
        let config = store.config();
        let pruned = database.prune(prune_before(&config), config.history_max);
        if pruned > 0 {
            tracing::info!(
                pruned,
                "removed closed questions past historyDays/historyMax"
            );
        }
        let pending = database.pending();
        let recent = database.recently_closed(HISTORY_IN_MEMORY);
        {
            let mut state = store.state();
            for question in recent.into_iter().rev() {
                state.closed_order.push_back(question.id);
                state.entries.insert(question.id, Entry::new(question));
            }
            let orphan_deadline =
                tokio::time::Instant::now() + Duration::from_secs(config.orphan_secs);
            for question in &pending {
                let mut entry = Entry::new(question.clone());
                entry.orphan = true;
                state.entries.insert(question.id, entry);
                state.pending += 1;
                store.schedule(timers::Due::Orphan, question.id, orphan_deadline);
                if let Some(expires_at) = question.expires_at {
                    let left = (expires_at - Utc::now()).to_std().unwrap_or_default();
                    store.schedule(
                        timers::Due::Expire,
                        question.id,
                        tokio::time::Instant::now() + left,
                    );
                }
            }
            state.db = Some(database);
        }
        if !pending.is_empty() {
            tracing::info!(
                pending = pending.len(),
                "questions carried over a restart wait for their agents to come back"
            );
        }
        Ok((store, report))
    }

    /// Whether the history is kept in a database.
    pub fn is_persistent(&self) -> bool {
        self.state().db.is_some()
    }

    fn schedule(&self, due: timers::Due, id: QuestionId, at: tokio::time::Instant) {
        timers::schedule(self, due, id, at);
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind, still consistent per field.
        self.shared
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Subscribes to every change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.shared.events.subscribe()
    }

    /// The token that ends every wait and background task.
    pub fn shutdown_token(&self) -> &CancellationToken {
        &self.shared.shutdown
    }

    /// Creates a question, or returns the existing one when the client's id is already known.
    ///
    /// # Errors
    /// `Invalid` naming the field, or `TooManyPending`.
    pub fn create(&self, request: AskRequest) -> Result<Created, StoreError> {
        validate_ask(&request)?;
        let default_timeout = self.config().timeout_secs;
        let mut state = self.state();
        if let Some(id) = request.id
            && let Some(entry) = state.entry(id)
        {
            // The agent is back (re-submitting after a restart of either side).
            entry.orphan = false;
            return Ok(Created::Existing(entry.question.clone()));
        }
        if state.pending >= limits::MAX_PENDING {
            return Err(StoreError::TooManyPending);
        }
        let timeout_secs = request.timeout_secs.unwrap_or(default_timeout);
        let created_at = Utc::now();
        let expires_at =
            (timeout_secs > 0).then(|| created_at + chrono::Duration::seconds(timeout_secs as i64));
        let question = Question {
            id: request.id.unwrap_or_else(QuestionId::new_random),
            questions: request.questions,
            title: request.title,
            source: request.source,
            status: Status::Pending,
            answers: None,
            note: None,
            created_at,
            closed_at: None,
            expires_at,
        };
        state.record(&question)?;
        state
            .entries
            .insert(question.id, Entry::new(question.clone()));
        state.pending += 1;
        let _ = self
            .shared
            .events
            .send(Event::QuestionCreated(question.clone()));
        drop(state);
        if timeout_secs > 0 {
            self.schedule(
                timers::Due::Expire,
                question.id,
                tokio::time::Instant::now() + Duration::from_secs(timeout_secs),
            );
        }
        Ok(Created::New(question))
    }

    /// Records the person's answer. The first answer wins.
    ///
    /// # Errors
    /// `NotFound`, `NotPending` (answered or closed already), or `Invalid` naming the field; an
    /// invalid answer leaves the question pending and answerable.
    pub fn answer(
        &self,
        id: QuestionId,
        answers: &[SubQuestionAnswer],
    ) -> Result<Question, StoreError> {
        self.close(id, Status::Answered, |question| {
            let answers = validate_answers(&question.questions, answers)?;
            question.answers = Some(answers);
            Ok(())
        })
    }

    /// The person skipped the question, optionally saying why.
    ///
    /// # Errors
    /// `NotFound`, `NotPending`, or `Invalid` for an over-long note.
    pub fn decline(&self, id: QuestionId, note: Option<String>) -> Result<Question, StoreError> {
        validate_note(note.as_deref())?;
        self.close(id, Status::Declined, |question| {
            question.note = note.filter(|note| !note.trim().is_empty());
            Ok(())
        })
    }

    /// The asking side withdrew the question.
    ///
    /// # Errors
    /// `NotFound` or `NotPending`.
    pub fn cancel(&self, id: QuestionId) -> Result<Question, StoreError> {
        self.close(id, Status::Cancelled, |_| Ok(()))
    }

    /// Closes the question as timed out if it is still pending; a no-op otherwise.
    pub fn expire(&self, id: QuestionId) {
        let _ = self.close(id, Status::Timeout, |_| Ok(()));
    }

    /// Withdraws a question carried over a restart that no agent came back for.
    pub fn withdraw_orphan(&self, id: QuestionId) {
        let orphan = self
            .state()
            .entries
            .get(&id)
            .is_some_and(|entry| entry.orphan && entry.question.is_pending());
        if orphan {
            tracing::info!(%id, "no agent came back for a question after the restart; withdrawing it");
            let _ = self.close(id, Status::Cancelled, |question| {
                question.note = Some(ORPHAN_NOTE.to_string());
                Ok(())
            });
        }
    }

    fn close(
        &self,
        id: QuestionId,
        status: Status,
        fill: impl FnOnce(&mut Question) -> Result<(), crate::model::ErrorBody>,
    ) -> Result<Question, StoreError> {
        let mut state = self.state();
        let entry = state.entry(id).ok_or(StoreError::NotFound(id))?;
        if !entry.question.is_pending() {
            return Err(StoreError::NotPending {
                id,
                status: entry.question.status,
            });
        }
        let mut closed = entry.question.clone();
        fill(&mut closed)?;
        closed.status = status;
        closed.closed_at = Some(Utc::now());
        // On disk first: an answer the person was told is sent is never lost.
        state.record(&closed)?;
        let entry = state.entries.get_mut(&id).ok_or(StoreError::NotFound(id))?;
        entry.question = closed.clone();
        entry.outcome.send_replace(Some(closed.wait_result()));
        state.pending -= 1;
        state.closed_order.push_back(id);
        while state.closed_order.len() > HISTORY_IN_MEMORY {
            if let Some(oldest) = state.closed_order.pop_front() {
                state.entries.remove(&oldest);
            }
        }
        state.closes_since_prune += 1;
        if state.closes_since_prune >= PRUNE_EVERY {
            state.closes_since_prune = 0;
            let config = self.config();
            if let Some(database) = &state.db {
                database.prune(prune_before(&config), config.history_max);
            }
        }
        let event = if status == Status::Answered {
            Event::QuestionAnswered(closed.clone())
        } else {
            Event::QuestionClosed(closed.clone())
        };
        let _ = self.shared.events.send(event);
        Ok(closed)
    }

    /// Waits until the question closes, `timeout` passes (`None`: no limit), or shutdown.
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
        let mut outcome = {
            let mut state = self.state();
            let entry = state.entry(id).ok_or(StoreError::NotFound(id))?;
            // Someone waits for it: its agent is back.
            entry.orphan = false;
            entry.outcome.subscribe()
        };
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

    /// One question by id.
    pub fn get(&self, id: QuestionId) -> Option<Question> {
        let state = self.state();
        match state.entries.get(&id) {
            Some(entry) => Some(entry.question.clone()),
            None => state.db.as_ref().and_then(|database| database.get(id)),
        }
    }

    /// Questions newest first, optionally of one status and at most `limit` of them.
    pub fn list(&self, status: Option<Status>, limit: Option<usize>) -> Vec<Question> {
        let filter = status.map_or(Filter::Any, Filter::Status);
        self.page(filter, None, limit.unwrap_or(usize::MAX))
    }

    /// One page of questions, newest first: those matching `filter` created before the
    /// question `before` (the last one of the previous page), at most `limit`.
    pub fn page(&self, filter: Filter, before: Option<QuestionId>, limit: usize) -> Vec<Question> {
        let state = self.state();
        // Every pending question is in memory; the history beyond it is in the database.
        if let Some(database) = &state.db
            && filter != Filter::Status(Status::Pending)
        {
            return database.page(filter, before, limit);
        }
        let mut questions: Vec<&Question> = state
            .entries
            .values()
            .map(|entry| &entry.question)
            .filter(|question| match filter {
                Filter::Any => true,
                Filter::Closed => !question.is_pending(),
                Filter::Status(status) => question.status == status,
            })
            .collect();
        questions.sort_by_key(|question| std::cmp::Reverse((question.created_at, question.id)));
        let cursor = before
            .and_then(|id| state.entries.get(&id))
            .map(|entry| (entry.question.created_at, entry.question.id));
        questions
            .into_iter()
            .filter(|question| {
                cursor
                    .as_ref()
                    .is_none_or(|cursor| (question.created_at, question.id) < *cursor)
            })
            .take(limit)
            .cloned()
            .collect()
    }

    /// Every question kept, newest first, for an export.
    pub fn export(&self) -> Vec<Question> {
        self.page(Filter::Any, None, usize::MAX)
    }

    /// How many questions wait for an answer.
    pub fn pending_count(&self) -> usize {
        self.state().pending
    }

    /// What a fresh subscriber needs to rebuild its view: every pending question and the
    /// newest page of the history (older pages are fetched as needed).
    pub fn snapshot(&self) -> InitData {
        let mut questions = self.list(Some(Status::Pending), None);
        questions.extend(self.page(Filter::Closed, None, limits::HISTORY_PAGE));
        questions.sort_by_key(|question| std::cmp::Reverse(question.created_at));
        InitData {
            questions,
            config: self.config(),
        }
    }

    /// The current config.
    pub fn config(&self) -> Config {
        self.shared.config.current()
    }

    /// Applies a partial config update, saves it atomically, and tells every subscriber.
    ///
    /// # Errors
    /// `Invalid` naming the key (nothing changes), or `Save` when the file cannot be written.
    pub fn update_config(&self, patch: &serde_json::Value) -> Result<Config, StoreError> {
        let config = self.shared.config.update(patch)?;
        let _ = self
            .shared
            .events
            .send(Event::ConfigUpdated(config.clone()));
        Ok(config)
    }

    /// Counts a connected browser until the returned guard drops.
    pub fn browser_connected(&self) -> BrowserClient {
        self.shared.browser_clients.fetch_add(1, Ordering::SeqCst);
        BrowserClient {
            store: self.clone(),
        }
    }

    /// How many browsers are connected over the WebSocket.
    pub fn browser_clients(&self) -> usize {
        self.shared.browser_clients.load(Ordering::SeqCst)
    }

    /// Starts the reminder ticker (one task for all questions).
    pub fn spawn_reminders(&self) {
        timers::remind_forever(self.clone());
    }

    fn send(&self, event: Event) {
        let _ = self.shared.events.send(event);
    }
}

impl State {
    /// The entry for `id`, brought back from the database when only the record has it.
    fn entry(&mut self, id: QuestionId) -> Option<&mut Entry> {
        if !self.entries.contains_key(&id) {
            let question = self.db.as_ref()?.get(id)?;
            self.entries.insert(id, Entry::new(question));
            self.closed_order.push_back(id);
        }
        self.entries.get_mut(&id)
    }

    /// Writes the question to the database, when there is one; durable once this returns.
    fn record(&self, question: &Question) -> Result<(), StoreError> {
        let Some(database) = &self.db else {
            return Ok(());
        };
        database.save(question).map_err(|error| {
            tracing::error!(%error, id = %question.id, "could not write to the history database");
            StoreError::Storage(error.to_string())
        })
    }
}

/// Closed questions closed before this (in microseconds) are past `historyDays`.
fn prune_before(config: &Config) -> i64 {
    let days = i64::try_from(config.history_days).unwrap_or(i64::MAX / 86_400_000_000);
    (Utc::now() - chrono::Duration::days(days)).timestamp_micros()
}

/// A connected browser; dropping it uncounts it.
pub struct BrowserClient {
    store: Store,
}

impl Drop for BrowserClient {
    fn drop(&mut self) {
        self.store
            .shared
            .browser_clients
            .fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod restart_tests;
#[cfg(test)]
mod tests;
