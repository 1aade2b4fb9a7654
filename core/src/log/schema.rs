//! Opening the log's file: WAL, every commit synced, migrated by `user_version`. A database that
//! cannot be read is moved aside and a fresh one started; a home that cannot be written is an
//! error.

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};
use std::path::{Path, PathBuf};

/// The database file's name inside `HARK_HOME`.
pub const DB_FILE: &str = "hark.db";

/// Each schema change, in order; never edit one that shipped, append a new one.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(
            "CREATE TABLE questions (
                 id TEXT PRIMARY KEY,
                 status TEXT NOT NULL,
                 created_us INTEGER NOT NULL,
                 closed_us INTEGER,
                 body TEXT NOT NULL
             );
             CREATE INDEX questions_by_created ON questions (created_us DESC, id DESC);
             CREATE INDEX questions_by_closed ON questions (status, closed_us);",
        ),
        // Pruning and the recent history walk closed questions by closing time: an index of
        // closed rows alone makes that a range scan (the one on (status, closed_us) made every
        // prune scan the table, dozens of times a second under load).
        M::up(
            "CREATE INDEX questions_by_closing ON questions (closed_us) WHERE closed_us IS NOT NULL;
             DROP INDEX questions_by_closed;",
        ),
        // Answers' images (SPEC §13), beside their question rather than inside its JSON: the
        // question stays small in memory and in every event, and the bytes are read only when
        // shown or handed to the agent. They leave with their question when it is pruned.
        M::up(
            "CREATE TABLE images (
                 question_id TEXT NOT NULL,
                 answer INTEGER NOT NULL,
                 place INTEGER NOT NULL,
                 media_type TEXT NOT NULL,
                 bytes BLOB NOT NULL,
                 PRIMARY KEY (question_id, answer, place)
             );
             CREATE TRIGGER images_leave_with_their_question AFTER DELETE ON questions
             BEGIN
                 DELETE FROM images WHERE question_id = OLD.id;
             END;",
        ),
        // Messages for agents (SPEC §18), one row each with its JSON: written when the person
        // sends one, rewritten when its agent has it.
        M::up(
            "CREATE TABLE messages (
                 id TEXT PRIMARY KEY,
                 created_us INTEGER NOT NULL,
                 delivered_us INTEGER,
                 body TEXT NOT NULL
             );
             CREATE INDEX messages_by_created ON messages (created_us DESC);",
        ),
        // Agent sessions (SPEC §20), one row each with its JSON, by the key that names the
        // session; an ended one is deleted.
        M::up(
            "CREATE TABLE sessions (
                 key TEXT PRIMARY KEY,
                 seen_us INTEGER NOT NULL,
                 body TEXT NOT NULL
             );",
        ),
    ])
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

/// Opens (or creates) the database in `home`: the writer's connection and the reader's. One
/// that is damaged or not a database is moved aside (`hark.db.damaged-<time>`) with a log line,
/// and a fresh one is started.
///
/// # Errors
/// When even a fresh database cannot be created there (a read-only home, a full disk).
pub fn open(home: &Path) -> Result<(Connection, Connection), OpenError> {
    let path = home.join(DB_FILE);
    let opened = match open_writer(&path) {
        Ok(writer) => Ok(writer),
        Err(error) if path.exists() && is_damage(&error) => {
            let aside = move_aside(&path);
            tracing::error!(
                %error,
                damaged = %path.display(),
                moved_to = %aside.display(),
                "the history database could not be read; it was moved aside and a new one started"
            );
            open_writer(&path)
        }
        Err(error) => Err(error),
    };
    let unwritable = |source| OpenError::Unwritable {
        path: path.clone(),
        source,
    };
    let writer = opened.map_err(unwritable)?;
    let reader = open_reader(&path).map_err(unwritable)?;
    Ok((writer, reader))
}

fn open_writer(path: &Path) -> Result<Connection, rusqlite::Error> {
    let mut connection = Connection::open(path)?;
    // WAL lets the reader read while the writer commits; FULL syncs every commit, so a write
    // acknowledged after its commit survives a power cut.
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
    Ok(connection)
}

/// A read-only connection to the log's file.
pub(super) fn open_reader(path: &Path) -> Result<Connection, rusqlite::Error> {
    let connection = Connection::open(path)?;
    connection.pragma_update(None, "query_only", true)?;
    connection.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(connection)
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

/// Moves the damaged database out of the way with its WAL (which may hold what it lost, for
/// whoever repairs it by hand); returns where it went.
fn move_aside(path: &Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let aside = path.with_extension(format!("db.damaged-{stamp}"));
    let _ = std::fs::rename(path, &aside);
    for suffix in ["-wal", "-shm"] {
        let with = |file: &Path| {
            let mut named = file.as_os_str().to_owned();
            named.push(suffix);
            PathBuf::from(named)
        };
        if suffix == "-wal" {
            let _ = std::fs::rename(with(path), with(&aside));
        } else {
            let _ = std::fs::remove_file(with(path));
        }
    }
    aside
}
