//! The one place where a question changes state: create, answer, decline, cancel and expire,
//! the waiters of each question, and the broadcast of one typed event per change.
//!
//! Every change is decided in memory under a std `Mutex` held for microseconds: no I/O, no
//! SQLite, no `.await` under it. While it is held the change is queued on the durable log and
//! its event is sent, so the log and the subscribers see changes in the order they were
//! decided. Then, off the lock, the caller awaits the log's acknowledgement:
//! - an event may go out while its fsync runs (a page shows the change at once);
//! - the caller's `Ok` (the REST 201/200, the server function's success) waits for the fsync;
//! - the question's waiters (the agent's long poll, the MCP tool result) are released by the
//!   log's writer the moment the fsync returns (one hop sooner than the caller's reply), so no
//!   agent is told "answered" before the answer is on disk.
//!
//! A write the disk refuses is rolled back in memory, and subscribers get a fresh `init`.
//! Memory serves the live questions and the recent history; the log is the record and serves
//! older pages, read on the blocking pool. After a restart, pending questions come back
//! pending; one that no agent re-attaches to within `orphanSecs` is withdrawn.
//!
//! This file holds the store's state and opening it; beside it: `create` (the one way a question
//! is made), `close` (the one way a question closes), `reads` (waits, lists, pages, snapshots),
//! `settle` (waiting for the disk), `late` (agents that stop waiting), `timers` (deadlines),
//! `typing` (limits that wait for the person typing), `messages` (for running agents), `rules`
//! (remembered decisions), `presence` (browsers and waits counted), `images`, and the config's
//! file.

mod close;
mod config_file;
mod create;
mod error;
mod files;
mod image_shape;
mod images;
mod late;
mod messages;
mod presence;
mod reads;
mod rules;
mod sessions;
mod settle;
mod timers;
mod typing;

pub use crate::log::{DB_FILE, Filter, OpenError};
pub use close::Outcome;
pub use config_file::ConfigFile;
pub use error::StoreError;
pub use files::replace_privately;
pub use images::StoredImage;
pub use presence::BrowserClient;
pub use rules::RULES_FILE;
pub use typing::TYPING_HOLD;

use crate::log::{Ack, Log, OnDurable, Reader};
use crate::model::session::MAX_SESSIONS;
use crate::model::{Config, ConfigReport, Event, Question, QuestionId, WaitResult, limits};
use chrono::Utc;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

/// Closed questions kept in memory; older ones live in the log only (or, without one, are
/// forgotten).
pub const HISTORY_IN_MEMORY: usize = 1_000;
/// Closes between two prunings of the log.
const PRUNE_EVERY: u32 = 100;
/// Events a subscriber may fall behind before it must resync from a snapshot: a burst that
/// creates the pending cap, and closes as many, fits.
pub const EVENT_BUFFER: usize = 2 * limits::MAX_PENDING + 48;

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
    events: broadcast::Sender<Arc<Event>>,
    config: ConfigFile,
    browser_clients: AtomicUsize,
    /// Waits open now (`wait`), each an agent (or `hark ask`) waiting for an outcome.
    waits: AtomicUsize,
    shutdown: CancellationToken,
    deadlines: timers::Deadlines,
    log: Option<Log>,
    rules: rules::RuleBook,
}

#[derive(Default)]
struct State {
    entries: HashMap<QuestionId, Entry>,
    /// Closed questions whose close is durable, oldest first: only these may leave memory.
    closed_order: VecDeque<QuestionId>,
    pending: usize,
    closes_since_prune: u32,
    /// Messages for agents, oldest first (`messages`).
    messages: VecDeque<crate::model::AgentMessage>,
    /// Agent sessions, the one heard from last first (`sessions`).
    sessions: Vec<crate::model::AgentSession>,
    /// Questions whose agent left them at some point, for `late::resumed` to look through
    /// instead of every question in memory: a superset, pruned as it is looked through.
    abandoned: HashSet<QuestionId>,
}

impl State {
    /// Keeps `entry` in memory, indexed when its agent had left it.
    fn insert(&mut self, entry: Entry) {
        let id = entry.question.id;
        if entry.question.abandoned_at.is_some() {
            self.abandoned.insert(id);
        }
        self.entries.insert(id, entry);
    }

    /// The entry of question `id`, if it is still pending.
    fn pending_entry(&mut self, id: QuestionId) -> Result<&mut Entry, StoreError> {
        let entry = self.entries.get_mut(&id).ok_or(StoreError::NotFound(id))?;
        if !entry.question.is_pending() {
            return Err(StoreError::NotPending {
                id,
                status: entry.question.status,
            });
        }
        Ok(entry)
    }
}

/// Holds the outcome once closed and durable; every waiter of the question watches it.
type OutcomeWatch = Arc<watch::Sender<Option<WaitResult>>>;

struct Entry {
    question: Question,
    outcome: OutcomeWatch,
    /// Carried over a restart and not re-attached to by any agent yet.
    orphan: bool,
    /// The answers' images until the log holds them (always, without a log): they are served
    /// from here between the answer's event and its commit.
    images: Vec<StoredImage>,
    /// The time limit the question was asked with, on the scheduler's clock, once typing moved
    /// it (`typing`).
    first_limit: Option<tokio::time::Instant>,
    /// When the moved limit falls due, on the scheduler's clock: an earlier deadline of the
    /// question then has nothing to do.
    moved_limit: Option<tokio::time::Instant>,
}

impl Entry {
    fn new(question: Question) -> Entry {
        let outcome = watch::Sender::new((!question.is_pending()).then(|| question.wait_result()));
        Entry {
            question,
            outcome: Arc::new(outcome),
            orphan: false,
            images: Vec::new(),
            first_limit: None,
            moved_limit: None,
        }
    }
}

/// A change's way to the disk: nothing to wait for without a log.
enum Durable {
    Now,
    Queued(Ack),
}

impl Store {
    /// Opens a store whose config lives in `home` (or only in memory when `None`), keeping
    /// no history on disk. Background tasks stop when `shutdown` is cancelled.
    pub fn open(home: Option<&Path>, shutdown: CancellationToken) -> (Store, ConfigReport) {
        let (config, report) = ConfigFile::load(home);
        let rules = rules::RuleBook::load(home);
        (Self::with_log(config, None, rules, shutdown), report)
    }

    fn with_log(
        config: ConfigFile,
        log: Option<Log>,
        rules: rules::RuleBook,
        shutdown: CancellationToken,
    ) -> Store {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Store {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                events,
                config,
                browser_clients: AtomicUsize::new(0),
                waits: AtomicUsize::new(0),
                shutdown,
                deadlines: timers::Deadlines::default(),
                log,
                rules,
            }),
        }
    }

    /// Opens a store that keeps its history in `home`'s log: prunes it by the config, and
    /// brings back pending questions (pending, each with `orphanSecs` for its agent to come
    /// back) and the recent history. The disk work runs on the blocking pool.
    ///
    /// # Errors
    /// When no database can be written in `home`.
    pub async fn open_persistent(
        home: &Path,
        shutdown: CancellationToken,
    ) -> Result<(Store, ConfigReport), OpenError> {
        let (config_file, report) = ConfigFile::load(Some(home));
        let config = config_file.current();
        let at = home.to_path_buf();
        let (prune_before, keep) = (prune_before(&config), config.history_max);
        let opened = tokio::task::spawn_blocking(move || {
            let log = Log::open_pruned(&at, prune_before, keep)?;
            let pending = log.read_now(Reader::pending);
            let recent = log.read_now(|reader| reader.recently_closed(HISTORY_IN_MEMORY));
            let messages = log.read_now(|reader| reader.messages(limits::MAX_MESSAGES));
            let sessions = log.read_now(|reader| reader.sessions(MAX_SESSIONS));
            Ok::<_, OpenError>((log, pending, recent, messages, sessions))
        })
        .await
        .expect("opening the log does not panic")?;
        let (log, pending, recent, messages, sessions) = opened;
        let rules = rules::RuleBook::load(Some(home));
        let store = Self::with_log(config_file, Some(log), rules, shutdown);
        store.restore_messages(messages);
        store.restore_sessions(sessions);
        {
            let mut state = store.state();
            for question in recent.into_iter().rev() {
                state.closed_order.push_back(question.id);
                state.insert(Entry::new(question));
            }
            let orphan_deadline =
                tokio::time::Instant::now() + Duration::from_secs(config.orphan_secs);
            let late = chrono::Duration::seconds(config.late_secs as i64);
            for question in &pending {
                let mut entry = Entry::new(question.clone());
                match question.abandoned_at {
                    // Its agent had already left: it keeps the rest of its late window.
                    Some(abandoned_at) => {
                        let left = (abandoned_at + late - Utc::now())
                            .to_std()
                            .unwrap_or_default();
                        store.schedule(
                            timers::Due::Late,
                            question.id,
                            tokio::time::Instant::now() + left,
                        );
                    }
                    None => {
                        entry.orphan = true;
                        store.schedule(timers::Due::Orphan, question.id, orphan_deadline);
                    }
                }
                state.insert(entry);
                state.pending += 1;
                if let Some(expires_at) = question.expires_at {
                    let left = (expires_at - Utc::now()).to_std().unwrap_or_default();
                    store.schedule(
                        timers::Due::Expire,
                        question.id,
                        tokio::time::Instant::now() + left,
                    );
                }
            }
        }
        if !pending.is_empty() {
            tracing::info!(
                pending = pending.len(),
                "questions carried over a restart wait for their agents to come back"
            );
        }
        Ok((store, report))
    }

    /// Whether the history is kept in a log on disk.
    pub fn is_persistent(&self) -> bool {
        self.shared.log.is_some()
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
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.shared.events.subscribe()
    }

    /// The token that ends every wait and background task.
    pub fn shutdown_token(&self) -> &CancellationToken {
        &self.shared.shutdown
    }

    /// Queues the question on the log (call it under the lock, so the log's order is the
    /// order of the decisions).
    fn record(&self, question: &Question) -> Durable {
        self.record_then(question, None)
    }

    /// `record`, with `on_durable` run on the log's writer the moment the write is on disk
    /// (at once without a log).
    fn record_then(&self, question: &Question, on_durable: Option<OnDurable>) -> Durable {
        self.record_with_images(question, Vec::new(), on_durable)
    }

    /// `record_then`, with the bytes of the answers' images.
    fn record_with_images(
        &self,
        question: &Question,
        images: Vec<StoredImage>,
        on_durable: Option<OnDurable>,
    ) -> Durable {
        match &self.shared.log {
            Some(log) => {
                Durable::Queued(log.append_with_images(question.clone(), images, on_durable))
            }
            None => {
                if let Some(on_durable) = on_durable {
                    on_durable();
                }
                Durable::Now
            }
        }
    }

    /// Brings a question only the log has (older than the history in memory) into memory,
    /// reading it off the lock. Every pending question is in memory already.
    async fn load(&self, id: QuestionId) {
        let Some(log) = &self.shared.log else {
            return;
        };
        if !log.holds(id) || self.state().entries.contains_key(&id) {
            return;
        }
        if let Some(question) = log.get(id).await {
            let mut state = self.state();
            if !state.entries.contains_key(&id) {
                if question.is_pending() {
                    state.pending += 1;
                } else {
                    state.closed_order.push_back(id);
                }
                state.insert(Entry::new(question));
            }
        }
    }

    /// A durably closed question joins the history in memory; the oldest leave it, and every
    /// `PRUNE_EVERY` closes the log is pruned.
    fn retire(&self, id: QuestionId) {
        let prune = {
            let mut state = self.state();
            if self.shared.log.is_some() {
                if let Some(entry) = state.entries.get_mut(&id) {
                    // The log has them now.
                    entry.images = Vec::new();
                }
            } else {
                images::keep_within_budget(&mut state, id);
            }
            state.closed_order.push_back(id);
            while state.closed_order.len() > HISTORY_IN_MEMORY {
                if let Some(oldest) = state.closed_order.pop_front() {
                    state.entries.remove(&oldest);
                }
            }
            state.closes_since_prune += 1;
            let due = state.closes_since_prune >= PRUNE_EVERY;
            if due {
                state.closes_since_prune = 0;
            }
            due
        };
        if prune {
            self.prune_log(&self.config());
        }
    }

    fn prune_log(&self, config: &Config) {
        if let Some(log) = &self.shared.log {
            log.prune(prune_before(config), config.history_max);
        }
    }

    /// The current config.
    pub fn config(&self) -> Config {
        self.shared.config.current()
    }

    /// What `read` makes of the config, without copying it (for the paths every request takes).
    pub fn read_config<R>(&self, read: impl FnOnce(&Config) -> R) -> R {
        self.shared.config.read(read)
    }

    /// Applies a partial config update, saves it atomically (on the blocking pool: the file is
    /// synced), and tells every subscriber.
    ///
    /// # Errors
    /// `Invalid` naming the key (nothing changes), or `Save` when the file cannot be written.
    pub async fn update_config(&self, patch: &serde_json::Value) -> Result<Config, StoreError> {
        let (store, patch) = (self.clone(), patch.clone());
        let config = tokio::task::spawn_blocking(move || store.shared.config.update(&patch))
            .await
            .map_err(|error| StoreError::Save(error.to_string()))??;
        self.send(Event::ConfigUpdated(config.clone()));
        Ok(config)
    }

    /// `update_config` with a patch built from the current config under the config's lock: a
    /// read-change-write (a channel's one field) that no concurrent change can undo.
    ///
    /// # Errors
    /// As `update_config`.
    pub async fn update_config_with(
        &self,
        make: impl FnOnce(&Config) -> serde_json::Value + Send + 'static,
    ) -> Result<Config, StoreError> {
        let store = self.clone();
        let config = tokio::task::spawn_blocking(move || store.shared.config.update_with(make))
            .await
            .map_err(|error| StoreError::Save(error.to_string()))??;
        self.send(Event::ConfigUpdated(config.clone()));
        Ok(config)
    }

    /// Starts the reminder ticker (one task for all questions, which also ends agent sessions
    /// gone quiet).
    pub fn spawn_reminders(&self) {
        timers::remind_forever(self.clone());
    }

    fn send(&self, event: Event) {
        // No subscriber is not an error: nobody is looking.
        let _ = self.shared.events.send(Arc::new(event));
    }

    /// Sends the event `make` builds, building it only when someone listens.
    fn announce(&self, make: impl FnOnce() -> Event) {
        if self.shared.events.receiver_count() > 0 {
            self.send(make());
        }
    }
}

/// The time now, to the microsecond: the log orders by microseconds, and memory must order the
/// same way, or a page edge could repeat or skip a question.
fn now() -> chrono::DateTime<Utc> {
    let now = Utc::now();
    chrono::DateTime::from_timestamp_micros(now.timestamp_micros()).unwrap_or(now)
}

/// Closed questions closed before this (in microseconds) are past `historyDays`.
fn prune_before(config: &Config) -> i64 {
    let days = i64::try_from(config.history_days).unwrap_or(i64::MAX / 86_400_000_000);
    (Utc::now() - chrono::Duration::days(days)).timestamp_micros()
}

#[cfg(test)]
mod durable_tests;
#[cfg(test)]
mod restart_tests;
#[cfg(test)]
mod tests;
