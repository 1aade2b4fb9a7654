//! Reading the log on its own connection: one question, pages newest first, what to bring back
//! after a restart, and every row for an export. Blocking calls: the log runs them on the
//! blocking pool.

use crate::model::{AgentMessage, AgentSession, Question, QuestionId, Status};
use rusqlite::{Connection, OptionalExtension, params};

/// Which questions a page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Any,
    Closed,
    Status(Status),
}

impl Filter {
    /// Whether `question` belongs in a page with this filter.
    pub fn admits(self, question: &Question) -> bool {
        match self {
            Filter::Any => true,
            Filter::Closed => !question.is_pending(),
            Filter::Status(status) => question.status == status,
        }
    }
}

/// Where a page starts: the creation time and id of the last question before it.
pub type Cursor = (chrono::DateTime<chrono::Utc>, QuestionId);

/// The read connection.
pub struct Reader {
    connection: Connection,
}

impl Reader {
    pub(super) fn new(connection: Connection) -> Reader {
        Reader { connection }
    }

    /// Closes the connection to the log's file (at a stop, so the writer's is the last and
    /// removes the WAL); reads then go to an empty database in memory and find nothing.
    pub(super) fn close(&mut self) {
        let Ok(nothing) = Connection::open_in_memory() else {
            return;
        };
        let closing = std::mem::replace(&mut self.connection, nothing);
        if let Err((_, error)) = closing.close() {
            tracing::warn!(%error, "could not close the history's read connection");
        }
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

    /// One question's images, in the order of its answers; or only the one at `only`
    /// (answer, place).
    pub fn images(&self, id: QuestionId, only: Option<(usize, usize)>) -> Vec<super::StoredImage> {
        let unreadable = |error: rusqlite::Error| {
            tracing::error!(%id, %error, "could not read an answer's images from the history");
        };
        let mut statement = match self.connection.prepare_cached(
            "SELECT answer, place, media_type, bytes FROM images
             WHERE question_id = ?1 AND (?2 IS NULL OR (answer = ?2 AND place = ?3))
             ORDER BY answer, place",
        ) {
            Ok(statement) => statement,
            Err(error) => {
                unreadable(error);
                return Vec::new();
            }
        };
        let (answer, place) = only.map_or((None, None), |(answer, place)| {
            (Some(answer as i64), Some(place as i64))
        });
        statement
            .query_map(params![id.to_string(), answer, place], |row| {
                Ok(super::StoredImage {
                    answer: row.get::<_, i64>(0)? as usize,
                    place: row.get::<_, i64>(1)? as usize,
                    media_type: row.get(2)?,
                    bytes: row.get::<_, Vec<u8>>(3)?.into(),
                })
            })
            .map(|rows| {
                rows.filter_map(|row| row.map_err(unreadable).ok())
                    .collect()
            })
            .unwrap_or_else(|error| {
                unreadable(error);
                Vec::new()
            })
    }

    /// How many image rows there are, of every question.
    #[cfg(test)]
    pub fn image_rows(&self) -> i64 {
        self.connection
            .query_row("SELECT count(*) FROM images", [], |row| row.get(0))
            .unwrap_or(-1)
    }

    /// Questions newest first: of one status (or any, or any closed one), older than
    /// `cursor` (the creation time and id of the last question of the previous page), at most
    /// `limit`.
    pub fn page(&self, filter: Filter, cursor: Option<Cursor>, limit: usize) -> Vec<Question> {
        // Without a cursor, above every id, so the first page starts at the newest question.
        let (cursor_us, cursor_id) = cursor.map_or((i64::MAX, "~".to_string()), |cursor| {
            (cursor.0.timestamp_micros(), cursor.1.to_string())
        });
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

    /// Every pending question (to carry over a restart), oldest first.
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
            "SELECT body FROM questions WHERE closed_us IS NOT NULL
             ORDER BY closed_us DESC LIMIT ?1",
            [i64::try_from(limit).unwrap_or(i64::MAX)],
        )
        .iter()
        .filter_map(|body| decode(body))
        .collect()
    }

    /// Hands every question to `each`, newest first, one row at a time; stops when `each`
    /// returns false.
    pub fn for_each_newest_first(&self, mut each: impl FnMut(Question) -> bool) {
        let Ok(mut statement) = self
            .connection
            .prepare("SELECT body FROM questions ORDER BY created_us DESC, id DESC")
        else {
            return;
        };
        let Ok(mut rows) = statement.query([]) else {
            return;
        };
        while let Ok(Some(row)) = rows.next() {
            let Ok(body) = row.get::<_, String>(0) else {
                continue;
            };
            if let Some(question) = decode(&body)
                && !each(question)
            {
                return;
            }
        }
    }

    /// The newest `limit` messages for agents, newest first.
    pub fn messages(&self, limit: usize) -> Vec<AgentMessage> {
        self.bodies(
            "SELECT body FROM messages ORDER BY created_us DESC, id DESC LIMIT ?1",
            [i64::try_from(limit).unwrap_or(i64::MAX)],
        )
        .iter()
        .filter_map(|body| match serde_json::from_str(body) {
            Ok(message) => Some(message),
            Err(error) => {
                tracing::warn!(%error, "a stored message could not be read; skipping it");
                None
            }
        })
        .collect()
    }

    /// The agent sessions kept, the one heard from last first.
    pub fn sessions(&self, limit: usize) -> Vec<AgentSession> {
        self.bodies(
            "SELECT body FROM sessions ORDER BY seen_us DESC LIMIT ?1",
            [i64::try_from(limit).unwrap_or(i64::MAX)],
        )
        .iter()
        .filter_map(|body| match serde_json::from_str(body) {
            Ok(session) => Some(session),
            Err(error) => {
                tracing::warn!(%error, "a stored agent session could not be read; skipping it");
                None
            }
        })
        .collect()
    }

    /// The id of every row.
    pub fn ids(&self) -> std::collections::HashSet<QuestionId> {
        self.bodies("SELECT id AS body FROM questions", [])
            .iter()
            .filter_map(|id| id.parse().ok())
            .collect()
    }

    /// How many questions the log holds.
    pub fn count(&self) -> usize {
        self.connection
            .query_row("SELECT COUNT(*) FROM questions", [], |row| {
                row.get::<_, i64>(0)
            })
            .map(|count| usize::try_from(count).unwrap_or(0))
            .unwrap_or(0)
    }
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
