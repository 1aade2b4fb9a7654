//! The one place where a question changes state (server only): create, answer, decline, cancel and
//! expire, the waiters of each question, and the broadcast of one typed event per change.
//!
//! State sits behind a std `Mutex` that is never held across an `.await`; events are sent while
//! it is held, so subscribers see changes in the order they happened.

mod config_file;
mod error;
mod timers;

pub use config_file::ConfigFile;
pub use error::StoreError;

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

/// Closed questions kept in memory; older ones are forgotten (persistence comes later).
pub const HISTORY_IN_MEMORY: usize = 1_000;
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
}

#[derive(Default)]
struct State {
    entries: HashMap<QuestionId, Entry>,
    closed_order: VecDeque<QuestionId>,
    pending: usize,
}

struct Entry {
    question: Question,
    /// Holds the outcome once closed; every waiter of the question watches it.
    outcome: watch::Sender<Option<WaitResult>>,
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
            }),
        };
        (store, report)
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
            && let Some(entry) = state.entries.get(&id)
        {
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
        state.entries.insert(
            question.id,
            Entry {
                question: question.clone(),
                outcome: watch::Sender::new(None),
            },
        );
        state.pending += 1;
        let _ = self
            .shared
            .events
            .send(Event::QuestionCreated(question.clone()));
        drop(state);
        if timeout_secs > 0 {
            timers::expire_after(self.clone(), question.id, Duration::from_secs(timeout_secs));
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

    fn close(
        &self,
        id: QuestionId,
        status: Status,
        fill: impl FnOnce(&mut Question) -> Result<(), crate::model::ErrorBody>,
    ) -> Result<Question, StoreError> {
        let mut state = self.state();
        let entry = state.entries.get_mut(&id).ok_or(StoreError::NotFound(id))?;
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
        entry.question = closed.clone();
        entry.outcome.send_replace(Some(closed.wait_result()));
        state.pending -= 1;
        state.closed_order.push_back(id);
        while state.closed_order.len() > HISTORY_IN_MEMORY {
            if let Some(oldest) = state.closed_order.pop_front() {
                state.entries.remove(&oldest);
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
            let state = self.state();
            let entry = state.entries.get(&id).ok_or(StoreError::NotFound(id))?;
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
        self.state()
            .entries
            .get(&id)
            .map(|entry| entry.question.clone())
    }

    /// Questions newest first, optionally of one status and at most `limit` of them.
    pub fn list(&self, status: Option<Status>, limit: Option<usize>) -> Vec<Question> {
        let mut questions: Vec<Question> = self
            .state()
            .entries
            .values()
            .filter(|entry| status.is_none_or(|status| entry.question.status == status))
            .map(|entry| entry.question.clone())
            .collect();
        questions.sort_by_key(|question| std::cmp::Reverse(question.created_at));
        questions.truncate(limit.unwrap_or(usize::MAX));
        questions
    }

    /// How many questions wait for an answer.
    pub fn pending_count(&self) -> usize {
        self.state().pending
    }

    /// Everything a fresh subscriber needs to rebuild its view.
    pub fn snapshot(&self) -> InitData {
        InitData {
            questions: self.list(None, None),
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
mod tests;
