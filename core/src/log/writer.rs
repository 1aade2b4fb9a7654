//! The writer thread: the one owner of the write connection. It takes every job that queued
//! while it was busy, commits all their rows in one transaction (one fsync), then acknowledges
//! each, in queue order. Pruning runs here too, a few hundred rows per transaction and only
//! while no write waits, so a large prune never holds an answer back.

use super::{Ids, LogError};
use crate::model::{AgentMessage, Question, QuestionId};
use rusqlite::{Connection, params};
use std::collections::HashSet;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;
use tokio::sync::oneshot;

/// One image's bytes, by its place in the question's answers (SPEC §13).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredImage {
    /// The sub-question's answer it belongs to.
    pub answer: usize,
    /// Its place among that answer's images.
    pub place: usize,
    pub media_type: String,
    pub bytes: std::sync::Arc<[u8]>,
}

/// A question as it is now, and the images its answers brought.
pub(super) struct Record {
    pub question: Question,
    pub images: Vec<StoredImage>,
}

/// What the writer is asked to do.
pub(super) enum Job {
    /// Record the question as it is now; once it is durable run the hook (if any), then reply.
    Save(
        Box<Record>,
        oneshot::Sender<Result<(), LogError>>,
        Option<Durable>,
    ),
    /// Record a message for an agent as it is now, in the same transaction as the questions.
    Message(Box<AgentMessage>, oneshot::Sender<Result<(), LogError>>),
    /// Record an agent session as it is now (`None`: it ended, and its row goes).
    Session(SessionRow, oneshot::Sender<Result<(), LogError>>),
    /// Reply once everything queued before this is durable.
    Barrier(oneshot::Sender<()>),
    /// Write what is queued, fold the WAL into the database, close the connection and stop;
    /// then reply (see `Log::close`).
    Close(oneshot::Sender<()>),
    /// Remove closed questions past the history limits (see `Log::prune`).
    Prune { closed_before_us: i64, keep: u64 },
}

/// An agent session's row: its key, when it was last heard from, and its JSON (`None` deletes
/// the row).
pub(super) struct SessionRow {
    pub key: String,
    pub seen_us: i64,
    pub body: Option<String>,
}

/// Runs on the writer thread the moment a row is durable, before its reply: it wakes whoever
/// waits for that (the agent) one hop sooner than the reply would. Must be quick and must not
/// need the async runtime.
pub type Durable = Box<dyn FnOnce() + Send>;

/// The most jobs one transaction takes; more wait for the next (bounds the reply latency).
const MAX_BATCH: usize = 2_048;
/// Rows one pruning step removes.
const PRUNE_STEP: usize = 500;

/// Starts the writer on its own thread; it stops when every sender is gone and the queue is
/// empty.
pub(super) fn spawn(connection: Connection, ids: Ids, commit_delay: Duration) -> mpsc::Sender<Job> {
    let (jobs, queue) = mpsc::channel();
    let started = std::thread::Builder::new()
        .name("hark-log-writer".into())
        .spawn(move || run(connection, &queue, &ids, commit_delay));
    if let Err(error) = started {
        // Without a thread every write fails at once (its reply is dropped), loudly.
        tracing::error!(%error, "could not start the history writer");
    }
    jobs
}

/// Prunes everything past the limits at once (at start, before the writer runs).
pub(super) fn prune_all(connection: &Connection, closed_before_us: i64, keep: u64) {
    let target = PruneTarget {
        closed_before_us,
        keep,
    };
    let mut pruned = 0;
    loop {
        let step = prune_step(connection, target);
        pruned += step.ids.len();
        if !step.more {
            break;
        }
    }
    if pruned > 0 {
        tracing::info!(
            pruned,
            "removed closed questions past historyDays/historyMax"
        );
    }
}

#[derive(Clone, Copy)]
struct PruneTarget {
    closed_before_us: i64,
    keep: u64,
}

fn run(mut connection: Connection, queue: &Receiver<Job>, ids: &Ids, commit_delay: Duration) {
    let mut prune: Option<PruneTarget> = None;
    let mut pruned = 0;
    loop {
        // With pruning to do, look without waiting: a prune step runs only when nothing else is
        // queued.
        let first = if prune.is_some() {
            match queue.try_recv() {
                Ok(job) => Some(job),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => return,
            }
        } else {
            match queue.recv() {
                Ok(job) => Some(job),
                Err(_) => return,
            }
        };
        let Some(first) = first else {
            if let Some(target) = prune {
                let step = prune_step(&connection, target);
                let mut held = ids.lock().unwrap_or_else(|poison| poison.into_inner());
                for id in &step.ids {
                    held.remove(id);
                }
                drop(held);
                pruned += step.ids.len();
                if !step.more {
                    prune = None;
                    if pruned > 0 {
                        tracing::info!(
                            pruned,
                            "removed closed questions past historyDays/historyMax"
                        );
                    }
                    pruned = 0;
                }
            }
            continue;
        };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let unrooted = unrooted_closes(&batch, ids);
        let saves: Vec<&Record> = batch
            .iter()
            .enumerate()
            .filter_map(|(index, job)| match job {
                Job::Save(record, _, _) if !unrooted.contains(&index) => Some(&**record),
                _ => None,
            })
            .collect();
        let messages: Vec<&AgentMessage> = batch
            .iter()
            .filter_map(|job| match job {
                Job::Message(message, _) => Some(&**message),
                _ => None,
            })
            .collect();
        let sessions: Vec<&SessionRow> = batch
            .iter()
            .filter_map(|job| match job {
                Job::Session(row, _) => Some(row),
                _ => None,
            })
            .collect();
        let result = if saves.is_empty() && messages.is_empty() && sessions.is_empty() {
            Ok(())
        } else {
            let started = std::time::Instant::now();
            let rows = Rows {
                records: &saves,
                messages: &messages,
                sessions: &sessions,
            };
            let committed = commit(&mut connection, &rows).map_err(|error| {
                tracing::error!(%error, rows = saves.len() + messages.len() + sessions.len(), "could not write to the history database");
                LogError(error.to_string())
            });
            tracing::trace!(rows = saves.len(), took = ?started.elapsed(), "committed");
            if committed.is_ok() {
                let mut held = ids.lock().unwrap_or_else(|poison| poison.into_inner());
                held.extend(saves.iter().map(|record| record.question.id));
            }
            if !commit_delay.is_zero() {
                std::thread::sleep(commit_delay);
            }
            committed
        };
        let mut closing = Vec::new();
        for (index, job) in batch.into_iter().enumerate() {
            match job {
                Job::Close(reply) => closing.push(reply),
                Job::Save(_, reply, _) if unrooted.contains(&index) => {
                    let _ = reply.send(Err(LogError(
                        "the question's creation was never recorded".into(),
                    )));
                }
                Job::Save(_, reply, durable) => {
                    if let (Ok(()), Some(durable)) = (&result, durable) {
                        durable();
                    }
                    let _ = reply.send(result.clone());
                }
                Job::Message(_, reply) | Job::Session(_, reply) => {
                    let _ = reply.send(result.clone());
                }
                Job::Barrier(reply) => {
                    let _ = reply.send(());
                }
                Job::Prune {
                    closed_before_us,
                    keep,
                } => {
                    prune = Some(PruneTarget {
                        closed_before_us,
                        keep,
                    });
                }
            }
        }
        if !closing.is_empty() {
            close(connection);
            for reply in closing {
                let _ = reply.send(());
            }
            return;
        }
    }
}

/// Folds the WAL into the database and closes the connection: the last connection to close
/// removes `-wal` and `-shm`, so a stopped daemon leaves only `hark.db`, and damage to it is
/// seen at the next start rather than masked by a WAL.
fn close(connection: Connection) {
    if let Err(error) = connection.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
        tracing::warn!(%error, "could not fold the history's WAL into its database");
    }
    if let Err((_, error)) = connection.close() {
        tracing::warn!(%error, "could not close the history database");
    }
}

/// The closes in `batch` of questions whose creation is neither on disk nor earlier in the
/// batch: their create was refused, and the close must not bring the question back.
fn unrooted_closes(batch: &[Job], ids: &Ids) -> HashSet<usize> {
    let held = ids.lock().unwrap_or_else(|poison| poison.into_inner());
    let mut in_batch = HashSet::new();
    let mut unrooted = HashSet::new();
    for (index, job) in batch.iter().enumerate() {
        if let Job::Save(record, _, _) = job {
            let question = &record.question;
            if question.is_pending()
                || held.contains(&question.id)
                || in_batch.contains(&question.id)
            {
                in_batch.insert(question.id);
            } else {
                unrooted.insert(index);
            }
        }
    }
    unrooted
}

/// What one transaction writes.
struct Rows<'a> {
    records: &'a [&'a Record],
    messages: &'a [&'a AgentMessage],
    sessions: &'a [&'a SessionRow],
}

/// Writes every row in one transaction; durable when it returns `Ok` (`synchronous=FULL`).
fn commit(connection: &mut Connection, rows: &Rows<'_>) -> Result<(), rusqlite::Error> {
    let Rows {
        records,
        messages,
        sessions,
    } = rows;
    let transaction = connection.transaction()?;
    {
        let mut upsert_session = transaction.prepare_cached(
            "INSERT INTO sessions (key, seen_us, body) VALUES (?1, ?2, ?3)
             ON CONFLICT (key) DO UPDATE SET seen_us = ?2, body = ?3",
        )?;
        let mut delete_session =
            transaction.prepare_cached("DELETE FROM sessions WHERE key = ?1")?;
        for row in sessions.iter() {
            match &row.body {
                Some(body) => upsert_session.execute(params![row.key, row.seen_us, body])?,
                None => delete_session.execute(params![row.key])?,
            };
        }
        let mut upsert_message = transaction.prepare_cached(
            "INSERT INTO messages (id, created_us, delivered_us, body) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO UPDATE SET delivered_us = ?3, body = ?4",
        )?;
        for message in messages.iter() {
            let body = serde_json::to_string(message)
                .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
            upsert_message.execute(params![
                message.id.to_string(),
                message.created_at.timestamp_micros(),
                message.delivered_at.map(|at| at.timestamp_micros()),
                body
            ])?;
        }
        let mut upsert = transaction.prepare_cached(
            "INSERT INTO questions (id, status, created_us, closed_us, body)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (id) DO UPDATE SET status = ?2, closed_us = ?4, body = ?5",
        )?;
        let mut insert_image = transaction.prepare_cached(
            "INSERT OR REPLACE INTO images (question_id, answer, place, media_type, bytes)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for record in records.iter() {
            let question = &record.question;
            let body = serde_json::to_string(question)
                .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
            upsert.execute(params![
                question.id.to_string(),
                question.status.as_str(),
                question.created_at.timestamp_micros(),
                question.closed_at.map(|at| at.timestamp_micros()),
                body
            ])?;
            for image in &record.images {
                insert_image.execute(params![
                    question.id.to_string(),
                    image.answer as i64,
                    image.place as i64,
                    image.media_type,
                    &*image.bytes
                ])?;
            }
        }
    }
    transaction.commit()
}

/// Removes up to `PRUNE_STEP` rows past each limit.
fn prune_step(connection: &Connection, target: PruneTarget) -> PruneStep {
    let step = PRUNE_STEP as i64;
    let by_age = delete_returning_ids(
        connection,
        "DELETE FROM questions WHERE id IN (
             SELECT id FROM questions WHERE closed_us IS NOT NULL AND closed_us < ?1
             ORDER BY closed_us LIMIT ?2)
         RETURNING id",
        params![target.closed_before_us, step],
    );
    let by_count = delete_returning_ids(
        connection,
        "DELETE FROM questions WHERE id IN (
             SELECT id FROM questions WHERE closed_us IS NOT NULL
             ORDER BY closed_us DESC LIMIT ?2 OFFSET ?1)
         RETURNING id",
        params![i64::try_from(target.keep).unwrap_or(i64::MAX), step],
    );
    // Messages go by the same limits: past `historyDays` however they stand, past
    // `historyMax` the oldest first.
    let messages = connection
        .prepare_cached(
            "DELETE FROM messages WHERE id IN (
                 SELECT id FROM messages WHERE created_us < ?1 OR id NOT IN (
                     SELECT id FROM messages ORDER BY created_us DESC LIMIT ?2)
                 LIMIT ?3)",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                target.closed_before_us,
                i64::try_from(target.keep).unwrap_or(i64::MAX),
                step
            ])
        })
        .unwrap_or(0);
    PruneStep {
        more: by_age.len() == PRUNE_STEP || by_count.len() == PRUNE_STEP || messages == PRUNE_STEP,
        ids: by_age.into_iter().chain(by_count).collect(),
    }
}

fn delete_returning_ids(
    connection: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Vec<QuestionId> {
    let Ok(mut statement) = connection.prepare_cached(sql) else {
        return Vec::new();
    };
    statement
        .query_map(params, |row| row.get::<_, String>(0))
        .map(|rows| {
            rows.filter_map(Result::ok)
                .filter_map(|id| id.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// What one pruning step did.
struct PruneStep {
    ids: Vec<QuestionId>,
    /// A full step: more rows may be past the limits.
    more: bool,
}
