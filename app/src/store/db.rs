//! The record: SQLite at `$HARK_HOME/hark.db` (WAL, every write synced before the API answers),
//! one row per question with its JSON, migrated by `user_version`. A database that cannot be
//! read is moved aside and a fresh one started; a home that cannot be written is an error.

use crate::model::{Question, QuestionId, Status};
use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use std::path::{Path, PathBuf};

/// The database file's name inside `HARK_HOME`.
pub const DB_FILE: &str = "hark.db";

/// Each schema change, in order; never edit one that shipped, append a new one.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![M::up(
        "CREATE TABLE questions (
             id TEXT PRIMARY KEY,
             status TEXT NOT NULL,
             created_us INTEGER NOT NULL,
             closed_us INTEGER,
             body TEXT NOT NULL
         );
         CREATE INDEX questions_by_created ON questions (created_us DESC, id DESC);
         CREATE INDEX questions_by_closed ON questions (status, closed_us);",
    )])
}

/// Why the database could not be opened at all.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot write the history database {path}: {source}")]
    Unwritable {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
}

/// An open history database.
pub struct Database {
    connection: Connection,
}

impl Database {
    /// Opens (or creates) the database in `home`. One that is damaged or not a database is
    /// moved aside (`hark.db.damaged-<time>`) with a log line, and a fresh one is started.
    ///
    /// # Errors
    /// When even a fresh database cannot be created there (a read-only home, a full disk).
    pub fn open(home: &Path) -> Result<Database, OpenError> {
        let path = home.join(DB_FILE);
        match Self::open_file(&path) {
            Ok(database) => Ok(database),
            Err(error) if path.exists() && is_damage(&error) => {
                let aside = move_aside(&path);
                tracing::error!(
                    %error,
                    damaged = %path.display(),
                    moved_to = %aside.display(),
                    "the history database could not be read; it was moved aside and a new one started"
                );
                Self::open_file(&path).map_err(|source| OpenError::Unwritable { path, source })
            }
            Err(source) => Err(OpenError::Unwritable { path, source }),
        }
    }

    /// A database only in memory (for tests of this module).
    #[cfg(test)]
    pub fn in_memory() -> Database {
        let mut connection = Connection::open_in_memory().unwrap();
        migrations().to_latest(&mut connection).unwrap();
        Database { connection }
    }

    fn open_file(path: &Path) -> Result<Database, rusqlite::Error> {
        let mut connection = Connection::open(path)?;
        // WAL keeps readers off the writer's back; FULL syncs every commit, so an answer the
        // API has acknowledged survives a power cut.
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        let check: String = connection.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
        if check != "ok" {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
                Some(check),
            ));
        }
        migrations()
            .to_latest(&mut connection)
            .map_err(|error| match error {
                rusqlite_migration::Error::RusqliteError { err, .. } => err,
                other => rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                    Some(other.to_string()),
                ),
            })?;
        // Prove it is writable now rather than at the first answer.
        connection.execute_batch("BEGIN IMMEDIATE; COMMIT;")?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
        }
        Ok(Database { connection })
    }

    /// Writes the question as it is now (durable when this returns).
    ///
    /// # Errors
    /// When the disk refuses the write.
    pub fn save(&self, question: &Question) -> Result<(), rusqlite::Error> {
        let body = serde_json::to_string(question)
            .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
        self.connection.execute(
            "INSERT INTO questions (id, status, created_us, closed_us, body)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (id) DO UPDATE SET status = ?2, closed_us = ?4, body = ?5",
            params![
                question.id.to_string(),
                question.status.as_str(),
                question.created_at.timestamp_micros(),
                question.closed_at.map(|at| at.timestamp_micros()),
                body
            ],
        )?;
        Ok(())
    }

    /// One question by id.
    pub fn get(&self, id: QuestionId) -> Option<Question> {
        self.connection
            .query_row(
                "SELECT body FROM questions WHERE id = ?1",
                [id.to_string()],
                |row| row.get::<_, String>(0),
            )
            .optional()
            .ok()
            .flatten()
            .and_then(|body| decode(&body))
    }

    /// Questions newest first: of one status (or any, or any closed one), created before
    /// `before` (a question's id, for the next page), at most `limit`.
    pub fn page(&self, filter: Filter, before: Option<QuestionId>, limit: usize) -> Vec<Question> {
        let cursor = before.and_then(|id| {
            self.connection
                .query_row(
                    "SELECT created_us, id FROM questions WHERE id = ?1",
                    [id.to_string()],
                    |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
                )
                .optional()
                .ok()
                .flatten()
        });
        let (cursor_us, cursor_id) = cursor.unwrap_or((i64::MAX, String::new()));
        let status_clause = match filter {
            Filter::Any => "1",
            Filter::Closed => "status <> 'pending'",
            Filter::Status(_) => "status = ?4",
        };
        let sql = format!(
            "SELECT body FROM questions
             WHERE {status_clause} AND (created_us < ?1 OR (created_us = ?1 AND id < ?2))
             ORDER BY created_us DESC, id DESC LIMIT ?3"
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let cursor_id = if before.is_some() {
            cursor_id
        } else {
            // Above every id, so the first page starts at the newest question.
            "~".to_string()
        };
        let rows = match filter {
            Filter::Status(status) => {
                self.bodies(&sql, params![cursor_us, cursor_id, limit, status.as_str()])
            }
            _ => self.bodies(&sql, params![cursor_us, cursor_id, limit]),
        };
        rows.iter().filter_map(|body| decode(body)).collect()
    }

    fn bodies(&self, sql: &str, params: impl rusqlite::Params) -> Vec<String> {
        let Ok(mut statement) = self.connection.prepare_cached(sql) else {
            return Vec::new();
        };
        statement
            .query_map(params, |row| row.get::<_, String>(0))
            .map(|rows| rows.filter_map(Result::ok).collect())
            .unwrap_or_default()
    }

    /// Every pending question (to carry over a restart).
    pub fn pending(&self) -> Vec<Question> {
        self.bodies(
            "SELECT body FROM questions WHERE status = 'pending' ORDER BY created_us",
            [],
        )
        .iter()
        .filter_map(|body| decode(body))
        .collect()
    }

    /// The most recently closed questions, newest first.
    pub fn recently_closed(&self, limit: usize) -> Vec<Question> {
        self.bodies(
            "SELECT body FROM questions WHERE status <> 'pending'
             ORDER BY closed_us DESC LIMIT ?1",
            [i64::try_from(limit).unwrap_or(i64::MAX)],
        )
        .iter()
        .filter_map(|body| decode(body))
        .collect()
    }

    /// Removes closed questions closed before `closed_before_us`, and all but the newest
    /// `keep` closed ones. Returns how many went.
    pub fn prune(&self, closed_before_us: i64, keep: u64) -> usize {
        let by_age = self
            .connection
            .execute(
                "DELETE FROM questions WHERE status <> 'pending' AND closed_us < ?1",
                [closed_before_us],
            )
            .unwrap_or(0);
        let by_count = self
            .connection
            .execute(
                "DELETE FROM questions WHERE id IN (
                     SELECT id FROM questions WHERE status <> 'pending'
                     ORDER BY closed_us DESC LIMIT -1 OFFSET ?1)",
                [i64::try_from(keep).unwrap_or(i64::MAX)],
            )
            .unwrap_or(0);
        by_age + by_count
    }

    /// How many questions the database holds.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.connection
            .query_row("SELECT COUNT(*) FROM questions", [], |row| {
                row.get::<_, i64>(0)
            })
            .map(|count| usize::try_from(count).unwrap_or(0))
            .unwrap_or(0)
    }
}

/// Which questions a page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Any,
    Closed,
    Status(Status),
}

fn decode(body: &str) -> Option<Question> {
    match serde_json::from_str(body) {
        Ok(question) => Some(question),
        Err(error) => {
            tracing::warn!(%error, "a stored question could not be read; skipping it");
            None
        }
    }
}

/// Whether an error says the file itself is bad (rather than, say, the disk being full or
/// another process holding a lock): only then is it moved aside.
fn is_damage(error: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode;
    matches!(
        error,
        rusqlite::Error::SqliteFailure(failure, _)
            if matches!(failure.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

/// Moves the damaged database (and its WAL files) out of the way; returns where it went.
fn move_aside(path: &Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let aside = path.with_extension(format!("db.damaged-{stamp}"));
    let _ = std::fs::rename(path, &aside);
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
    aside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SubQuestion;

    fn question(minutes_ago: i64, status: Status) -> Question {
        let created_at = chrono::Utc::now() - chrono::Duration::minutes(minutes_ago);
        Question {
            id: QuestionId::new_random(),
            questions: vec![SubQuestion::text("q")],
            title: None,
            source: None,
            status,
            answers: None,
            note: None,
            created_at,
            closed_at: (status != Status::Pending).then_some(created_at),
            expires_at: None,
        }
    }

    #[test]
    fn pages_walk_the_history_newest_first_without_gaps_or_repeats() {
        let database = Database::in_memory();
        let mut all: Vec<Question> = (0..25).map(|age| question(age, Status::Answered)).collect();
        all.push(question(3, Status::Pending));
        for question in &all {
            database.save(question).unwrap();
        }
        let mut seen = Vec::new();
        let mut before = None;
        for _ in 0..10 {
            let page = database.page(Filter::Closed, before, 10);
            if page.is_empty() {
                break;
            }
            before = page.last().map(|question| question.id);
            seen.extend(page);
        }
        assert_eq!(seen.len(), 25);
        assert!(
            seen.windows(2)
                .all(|pair| pair[0].created_at >= pair[1].created_at)
        );
        assert_eq!(database.page(Filter::Any, None, 100).len(), 26);
        assert_eq!(
            database
                .page(Filter::Status(Status::Pending), None, 100)
                .len(),
            1
        );
        assert_eq!(database.pending().len(), 1);
    }

    #[test]
    fn pruning_keeps_pending_and_the_newest_closed() {
        let database = Database::in_memory();
        for age in 0..10 {
            database
                .save(&question(age * 60 * 24, Status::Answered))
                .unwrap();
        }
        database
            .save(&question(60 * 24 * 30, Status::Pending))
            .unwrap();
        let week_ago = (chrono::Utc::now() - chrono::Duration::days(7)).timestamp_micros();
        assert_eq!(
            database.prune(week_ago, 100),
            3,
            "days 7, 8 and 9 are too old"
        );
        assert_eq!(database.prune(0, 5), 2);
        assert_eq!(database.count(), 6, "five closed and the pending one");
    }

    #[test]
    fn a_damaged_file_is_moved_aside_and_a_fresh_database_started() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(DB_FILE),
            b"this is not a database at all, not even close",
        )
        .unwrap();
        let database = Database::open(home.path()).unwrap();
        assert_eq!(database.count(), 0);
        let aside: Vec<_> = std::fs::read_dir(home.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_string_lossy().contains("damaged"))
            .collect();
        assert_eq!(aside.len(), 1);
    }

    #[test]
    fn answers_survive_reopening() {
        let home = tempfile::tempdir().unwrap();
        let mut asked = question(1, Status::Pending);
        {
            let database = Database::open(home.path()).unwrap();
            database.save(&asked).unwrap();
            asked.status = Status::Answered;
            asked.closed_at = Some(chrono::Utc::now());
            database.save(&asked).unwrap();
        }
        let database = Database::open(home.path()).unwrap();
        assert_eq!(database.get(asked.id), Some(asked));
    }
}
