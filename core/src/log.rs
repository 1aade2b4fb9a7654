//! The durable log: SQLite at `$HARK_HOME/hark.db`, one row per question with its JSON, the
//! bytes of its answers' images beside it, and one row per message for an agent.
//!
//! Writes go to one writer thread (`writer`) that owns the write connection: whatever has
//! queued while it was busy is committed in one transaction and one fsync (group commit), and
//! only then is each write acknowledged. Reads use their own connection (`reader`, WAL lets it
//! read beside the writer) and run on the blocking pool, never on an async worker and never
//! under the store's lock. `schema` opens the file, migrates it, and moves a damaged one aside.

mod reader;
mod schema;
mod writer;

pub use reader::{Cursor, Filter, Reader};
pub use schema::{DB_FILE, OpenError};
pub use writer::Durable as OnDurable;
pub use writer::StoredImage;

use crate::model::{AgentMessage, AgentSession, Question, QuestionId};
use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::oneshot;

/// A write the disk refused; nothing of its batch was recorded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LogError(pub String);

/// Resolves once a queued write is on disk (or refused).
pub type Ack = oneshot::Receiver<Result<(), LogError>>;

/// An open log: the writer thread's queue and the read connection. Dropping the last handle
/// lets the writer finish what is queued and stop.
pub struct Log {
    jobs: mpsc::Sender<writer::Job>,
    reader: Arc<Mutex<Reader>>,
    path: std::path::PathBuf,
    /// The id of every row, kept by the writer: a question the store no longer holds in memory
    /// is looked up on disk only when the log has it, so a new client-chosen id costs no read.
    ids: Ids,
}

/// The ids the log holds, shared by the log's handle and its writer.
pub(crate) type Ids = Arc<Mutex<HashSet<QuestionId>>>;

impl Log {
    /// Opens (or creates) the log in `home` and starts its writer thread. Blocks on the disk:
    /// call it before serving, or from the blocking pool.
    ///
    /// # Errors
    /// When no database can be written in `home`.
    pub fn open(home: &Path) -> Result<Log, OpenError> {
        let (write, read) = schema::open(home)?;
        Ok(Self::start(home, write, read))
    }

    /// Opens the log like `open`, first removing the closed questions past the history
    /// limits (see `prune`), so nothing pruned comes back at start.
    ///
    /// # Errors
    /// When no database can be written in `home`.
    pub fn open_pruned(home: &Path, closed_before_us: i64, keep: u64) -> Result<Log, OpenError> {
        let (write, read) = schema::open(home)?;
        writer::prune_all(&write, closed_before_us, keep);
        Ok(Self::start(home, write, read))
    }

    fn start(home: &Path, write: rusqlite::Connection, read: rusqlite::Connection) -> Log {
        let reader = Reader::new(read);
        let ids: Ids = Arc::new(Mutex::new(reader.ids()));
        Log {
            jobs: writer::spawn(write, ids.clone(), commit_delay()),
            reader: Arc::new(Mutex::new(reader)),
            path: home.join(DB_FILE),
            ids,
        }
    }

    /// Whether the log has a row for `id` (durable, or pruned only a moment ago).
    pub fn holds(&self, id: QuestionId) -> bool {
        self.ids
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .contains(&id)
    }

    /// Queues the question as it is now; the returned `Ack` resolves when it is durable. Writes
    /// reach the disk in the order they were queued.
    pub fn append(&self, question: Question) -> Ack {
        self.append_then(question, None)
    }

    /// Like `append`, and `durable` runs on the writer thread as soon as the row is on disk,
    /// before the `Ack` resolves (see `writer::Durable`).
    pub fn append_then(&self, question: Question, durable: Option<writer::Durable>) -> Ack {
        self.append_with_images(question, Vec::new(), durable)
    }

    /// Like `append_then`, with the bytes of the answers' images in the same transaction.
    pub fn append_with_images(
        &self,
        question: Question,
        images: Vec<StoredImage>,
        durable: Option<writer::Durable>,
    ) -> Ack {
        let (done, ack) = oneshot::channel();
        self.send(writer::Job::Save(
            Box::new(writer::Record { question, images }),
            done,
            durable,
        ));
        ack
    }

    /// Queues a message for an agent as it is now; the `Ack` resolves when it is durable.
    pub fn append_message(&self, message: AgentMessage) -> Ack {
        let (done, ack) = oneshot::channel();
        self.send(writer::Job::Message(Box::new(message), done));
        ack
    }

    /// Queues an agent session as it is now, under `key` (`None`: it ended); the `Ack` resolves
    /// when it is durable.
    pub fn append_session(&self, key: String, session: Option<&AgentSession>) -> Ack {
        let (done, ack) = oneshot::channel();
        let seen_us = session.map_or(0, |session| session.seen_at.timestamp_micros());
        let body = session.and_then(|session| serde_json::to_string(session).ok());
        let row = writer::SessionRow { key, seen_us, body };
        self.send(writer::Job::Session(row, done));
        ack
    }

    /// Resolves once everything queued before it is durable.
    pub async fn sync(&self) {
        let (done, ack) = oneshot::channel();
        self.send(writer::Job::Barrier(done));
        let _ = ack.await;
    }

    /// Closes the log for a stop: the reader's connection first, then the writer's once it has
    /// written everything queued before this and folded the WAL into the database, so only
    /// `hark.db` is left. Reads afterwards find nothing and writes are refused.
    pub async fn close(&self) {
        // Closing a connection touches the disk: on the blocking pool, not an async worker.
        let reader = self.reader.clone();
        let _ = tokio::task::spawn_blocking(move || {
            reader
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .close();
        })
        .await;
        let (done, closed) = oneshot::channel();
        self.send(writer::Job::Close(done));
        let _ = closed.await;
    }

    /// Asks the writer to remove closed questions closed before `closed_before_us` and all but
    /// the newest `keep` closed ones. It does so in small batches between other writes.
    pub fn prune(&self, closed_before_us: i64, keep: u64) {
        self.send(writer::Job::Prune {
            closed_before_us,
            keep,
        });
    }

    fn send(&self, job: writer::Job) {
        // The writer lives as long as any handle; a send fails only if it panicked, and then the
        // dropped reply tells the waiting caller.
        let _ = self.jobs.send(job);
    }

    /// Runs a read on the blocking pool with the read connection.
    async fn read<T: Default + Send + 'static>(
        &self,
        read: impl FnOnce(&Reader) -> T + Send + 'static,
    ) -> T {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let reader = reader.lock().unwrap_or_else(|poison| poison.into_inner());
            read(&reader)
        })
        .await
        .unwrap_or_default()
    }

    /// Runs a read here, blocking (for start-up, before anything is served).
    pub fn read_now<T>(&self, read: impl FnOnce(&Reader) -> T) -> T {
        let reader = self
            .reader
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        read(&reader)
    }

    /// Every message for an agent, newest first.
    pub async fn messages(&self) -> Vec<AgentMessage> {
        self.read(|reader| reader.messages(usize::MAX)).await
    }

    /// One question by id.
    pub async fn get(&self, id: QuestionId) -> Option<Question> {
        self.read(move |reader| reader.get(id)).await
    }

    /// One question's images, in the order of its answers, or only the one at `only`
    /// (answer, place).
    pub async fn images(&self, id: QuestionId, only: Option<(usize, usize)>) -> Vec<StoredImage> {
        self.read(move |reader| reader.images(id, only)).await
    }

    /// Questions newest first (see `Reader::page`).
    pub async fn page(
        &self,
        filter: Filter,
        cursor: Option<Cursor>,
        limit: usize,
    ) -> Vec<Question> {
        self.read(move |reader| reader.page(filter, cursor, limit))
            .await
    }

    /// Every question, newest first, sent one at a time into `into` (which bounds how many are
    /// in memory at once) from the blocking pool. Ends early when the receiver goes away.
    /// An export reads on a connection of its own: a slow download never holds up the
    /// reads of pages and waits.
    pub fn stream_all(&self, into: tokio::sync::mpsc::Sender<Question>) {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || match schema::open_reader(&path) {
            Ok(connection) => Reader::new(connection)
                .for_each_newest_first(|question| into.blocking_send(question).is_ok()),
            Err(error) => tracing::error!(%error, "could not read the history for an export"),
        });
    }
}

/// A pause after every commit, set only by tests (`HARK_TEST_COMMIT_DELAY_MS`) to play a
/// slow disk: it shows that a slow fsync delays acknowledgements and nothing else.
fn commit_delay() -> std::time::Duration {
    std::env::var("HARK_TEST_COMMIT_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map(std::time::Duration::from_millis)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
