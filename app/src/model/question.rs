//! Questions as agents ask them and people answer them: the request, the stored question, its
//! status, the answers, and the small bodies of the REST routes.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

/// The id of a question. Clients may choose it, which makes re-submits idempotent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct QuestionId(pub Uuid);

impl QuestionId {
    /// A fresh random id.
    pub fn new_random() -> Self {
        Self(Uuid::new_v4())
    }
}

impl fmt::Display for QuestionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for QuestionId {
    type Err = uuid::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s).map(Self)
    }
}

/// What an agent sends to ask 1–4 questions at once.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskRequest {
    pub questions: Vec<SubQuestion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<QuestionId>,
}

/// One of the questions of a request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubQuestion {
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default)]
    pub multi_select: bool,
    #[serde(default)]
    pub options: Vec<QuestionOption>,
    #[serde(default = "default_true")]
    pub allow_free_text: bool,
}

impl SubQuestion {
    /// A plain free-text question.
    pub fn text(question: impl Into<String>) -> Self {
        Self {
            question: question.into(),
            header: None,
            multi_select: false,
            options: Vec::new(),
            allow_free_text: true,
        }
    }
}

fn default_true() -> bool {
    true
}

/// A choice the person can pick.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionOption {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub recommended: bool,
    #[serde(default)]
    pub danger: bool,
}

impl QuestionOption {
    /// An option with only a label.
    pub fn new(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            ..Self::default()
        }
    }
}

/// Who asked: the MCP client ("name version"), its working directory, its process.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
}

/// Where a question is in its life. Only `Pending` can change, and every change is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Answered,
    Declined,
    Timeout,
    Cancelled,
}

impl Status {
    /// Every status, in the order the UI lists them.
    pub const ALL: [Status; 5] = [
        Status::Pending,
        Status::Answered,
        Status::Declined,
        Status::Timeout,
        Status::Cancelled,
    ];

    /// The wire name (`"pending"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Answered => "answered",
            Status::Declined => "declined",
            Status::Timeout => "timeout",
            Status::Cancelled => "cancelled",
        }
    }
}

impl std::str::FromStr for Status {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or(())
    }
}

/// The answer to one sub-question.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubQuestionAnswer {
    #[serde(default)]
    pub selected: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_text: Option<String>,
}

/// A question as the daemon keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    pub id: QuestionId,
    pub questions: Vec<SubQuestion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<SubQuestionAnswer>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub created_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
}

impl Question {
    /// True while the question can still be answered.
    pub fn is_pending(&self) -> bool {
        self.status == Status::Pending
    }

    /// What a waiter receives once the question is closed.
    pub fn wait_result(&self) -> WaitResult {
        WaitResult {
            status: self.status,
            answers: self.answers.clone(),
            note: self.note.clone(),
        }
    }
}

/// `POST /api/questions/:id/answer`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerRequest {
    pub answers: Vec<SubQuestionAnswer>,
}

/// `POST /api/questions/:id/decline`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclineRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `GET /api/questions/:id/wait` once the question is closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitResult {
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<SubQuestionAnswer>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `GET /api/questions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionList {
    pub questions: Vec<Question>,
}

/// `GET /api/health`: how the shim and the CLI recognise a Hark daemon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    pub status: String,
    pub service: String,
    pub version: String,
    pub browser_clients: usize,
    pub pending: usize,
    pub timestamp: DateTime<Utc>,
}

impl Health {
    /// The `service` value every Hark daemon reports.
    pub const SERVICE: &'static str = "hark";
}
