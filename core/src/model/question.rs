//! Questions as agents ask them and people answer them: the request, the stored question, its
//! status, the answers, and the bodies of the question routes (the daemon's own are `daemon`).

mod answered_via;
mod brief;

pub use answered_via::AnsweredVia;
pub use brief::QuestionBrief;

use super::AgentMessage;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

/// A note the daemon itself writes on a question it closed (never the person's words). On the
/// wire it is the note's English text, as clients have read it; in the code it is this type, so
/// nothing branches on the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaemonNote {
    /// Withdrawn: carried over a restart, and its agent did not come back.
    AgentWentAway,
    /// Withdrawn: its agent stopped waiting, and nobody answered within `lateSecs`.
    NobodyAnsweredInTime,
    /// Answered by its time limit with the recommended options.
    ChosenByTimeout,
}

impl DaemonNote {
    /// Every note the daemon writes.
    pub const ALL: [DaemonNote; 3] = [
        DaemonNote::AgentWentAway,
        DaemonNote::NobodyAnsweredInTime,
        DaemonNote::ChosenByTimeout,
    ];

    /// The note's text, as `Question::note` carries it.
    pub fn text(self) -> &'static str {
        match self {
            DaemonNote::AgentWentAway => "the asking agent went away",
            DaemonNote::NobodyAnsweredInTime => {
                "the agent stopped waiting, and nobody answered in time"
            }
            DaemonNote::ChosenByTimeout => "chosen by timeout",
        }
    }

    /// The daemon's note that `note` is, if it is one.
    pub fn of(note: &str) -> Option<DaemonNote> {
        DaemonNote::ALL
            .into_iter()
            .find(|daemon| daemon.text() == note)
    }
}

/// The id of a question. Clients may choose it, which makes re-submits idempotent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

// The `///` docs of this request's fields become the MCP tool's input schema, so they are
// written for the model that reads them.
/// What an agent sends to ask 1–4 questions at once.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AskRequest {
    /// One to four related questions, shown together and answered in one go. Batch what you
    /// need to know now instead of asking one question per call.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::model::limits::MAX_SUB_QUESTIONS)))]
    pub questions: Vec<SubQuestion>,
    /// Optional context shown above the questions, in Markdown (a JSON document is shown as
    /// YAML): what you are doing and why you need the person's decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::model::limits::MAX_TITLE_CHARS)))]
    pub title: Option<String>,
    /// Optional limit in seconds; unanswered by then, the result has status "timeout". Leave it
    /// out to use the person's default (usually: wait as long as it takes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(max = crate::model::limits::MAX_TIMEOUT_SECS)))]
    pub timeout_secs: Option<u64>,
    /// What happens at the time limit: "timeout" (the default) ends the question unanswered;
    /// "recommended" answers each question with its recommended option, never one marked
    /// danger (when a question has none, or a dangerous one, it ends unanswered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_action: Option<TimeoutAction>,
    /// Filled in by the shim (MCP client, working directory, pid); not for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub source: Option<Source>,
    /// Client-chosen id that makes re-submits idempotent; the shim sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub id: Option<QuestionId>,
    /// Set by an agent's permission hook: what the prompt is about, so a rule the person kept
    /// answers it at once, and "Always allow" / "Always deny" keep one (SPEC §19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub permission: Option<super::rule::PermissionAsk>,
}

/// What a question's time limit does (`timeoutAction`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum TimeoutAction {
    /// Ends it unanswered (status "timeout").
    #[default]
    Timeout,
    /// Answers with the recommended options, never a dangerous one (status "answered").
    Recommended,
}

impl TimeoutAction {
    /// Whether this is the default (left out of stored questions and the config file).
    pub fn is_default(&self) -> bool {
        *self == TimeoutAction::Timeout
    }

    /// The wire name: `timeout` or `recommended`.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutAction::Timeout => "timeout",
            TimeoutAction::Recommended => "recommended",
        }
    }
}

/// One of the questions of a request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SubQuestion {
    /// The question itself, in Markdown. Make it answerable on its own.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::model::limits::MAX_QUESTION_CHARS)))]
    pub question: String,
    /// A very short label shown as a chip above the question (e.g. "Database", "Deploy").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::model::limits::MAX_HEADER_CHARS)))]
    pub header: Option<String>,
    /// true lets the person pick several options; false (the default) allows one.
    #[serde(default)]
    pub multi_select: bool,
    /// The choices, up to 26, with unique labels. Mark the one you would pick as
    /// `recommended`, and risky ones as `danger`. May be empty for a free-text question.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::model::limits::MAX_OPTIONS)))]
    pub options: Vec<QuestionOption>,
    /// Whether the person may type their own answer ("Other"). On by default: do not add an
    /// "Other" option yourself.
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct QuestionOption {
    /// Short text of the choice; returned verbatim in `selected` when picked.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::model::limits::MAX_LABEL_CHARS)))]
    pub label: String,
    /// Optional one-line explanation: the consequence or trade-off of this choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::model::limits::MAX_DESCRIPTION_CHARS)))]
    pub description: Option<String>,
    /// Optional longer Markdown shown beside the options while this one is focused or picked
    /// (under it on a phone): the code, diff, command or sketch it would lead to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::model::limits::MAX_PREVIEW_CHARS)))]
    pub preview: Option<String>,
    /// Marks the option you recommend.
    #[serde(default)]
    pub recommended: bool,
    /// Marks a destructive or risky option; it is shown in red.
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SubQuestionAnswer {
    #[serde(default)]
    pub selected: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_text: Option<String>,
    /// Pasted, dropped or photographed images (SPEC §13), at most
    /// `limits::MAX_IMAGES_PER_ANSWER`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<AnswerImage>,
}

/// An image in an answer. It is sent with `data`. The daemon keeps the bytes beside the
/// question, so the question itself (its events, the page, the history) carries only
/// `mediaType` and `size`, and the image is served at
/// `/api/questions/<id>/images/<answer>/<place>`. `data` travels again where the bytes are
/// wanted: the agent's result, `hark ask --json` and the JSON export.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnswerImage {
    /// `image/png`, `image/jpeg`, `image/webp` or `image/gif`; the daemon checks the bytes.
    pub media_type: String,
    /// The bytes in standard base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// The decoded size in bytes, set by the daemon.
    #[serde(default)]
    pub size: u64,
}

impl AnswerImage {
    /// An image from a `data:` URL (`data:image/png;base64,…`), as the page's form posts it.
    /// Anything else is kept whole as `data` with no type, for the daemon to refuse by field.
    pub fn from_data_url(url: &str) -> AnswerImage {
        let (media_type, data) = url
            .strip_prefix("data:")
            .and_then(|rest| rest.split_once(";base64,"))
            .unwrap_or(("", url));
        AnswerImage {
            media_type: media_type.to_string(),
            data: Some(data.to_string()),
            size: 0,
        }
    }
}

impl SubQuestionAnswer {
    /// The answer without the images' bytes: what the question keeps.
    pub fn without_image_data(&self) -> SubQuestionAnswer {
        SubQuestionAnswer {
            selected: self.selected.clone(),
            free_text: self.free_text.clone(),
            images: self
                .images
                .iter()
                .map(|image| AnswerImage {
                    media_type: image.media_type.clone(),
                    data: None,
                    size: image.size,
                })
                .collect(),
        }
    }
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
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub created_at: DateTime<Utc>,
    #[serde(
        default,
        deserialize_with = "super::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub closed_at: Option<DateTime<Utc>>,
    #[serde(
        default,
        deserialize_with = "super::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub expires_at: Option<DateTime<Utc>>,
    /// What its time limit does.
    #[serde(default, skip_serializing_if = "TimeoutAction::is_default")]
    pub timeout_action: TimeoutAction,
    /// Where it was answered or declined (unknown: through the API).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_via: Option<AnsweredVia>,
    /// A permission prompt's subject and choices (`AskRequest::permission`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission: Option<super::rule::PermissionAsk>,
    /// When the agent stopped waiting (its call was cancelled, or its shim went away): the
    /// question stays answerable for `lateSecs`, and a late answer is kept for the agent.
    #[serde(
        default,
        deserialize_with = "super::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub abandoned_at: Option<DateTime<Utc>>,
    /// Its Markdown as the page shows it, rendered by the daemon so the browser never parses
    /// Markdown: headlines in the event stream (`/api/ws`) and the page's lists, everything on
    /// the question's own page; absent from the rest of the API, the history and the exports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<Shown>,
}

/// What the page shows of a question's texts, rendered from its Markdown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    /// The title, else the first question, as plain text, for lists.
    pub headline: String,
    /// Under a title, the first question as plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_question: Option<String>,
    /// The title. This and the fields below are filled for the question's own page only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Rendered>,
    /// Each question's text, inline.
    #[serde(default)]
    pub questions: Vec<Rendered>,
    /// Each question's options' previews.
    #[serde(default)]
    pub previews: Vec<Vec<Option<Rendered>>>,
}

/// One text as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rendered {
    /// Sanitised HTML from Markdown.
    Html(String),
    /// A JSON document, as YAML (the page keeps the original a click away).
    Yaml(String),
}

/// What names a question: its title unless blank, or else its first question.
fn headline_of<'a>(title: Option<&'a str>, first_question: Option<&'a str>) -> &'a str {
    title
        .filter(|title| !title.trim().is_empty())
        .or(first_question)
        .unwrap_or_default()
}

/// What names a question on the page: the headline the daemon rendered from its Markdown when
/// it sent one (`shown`), else `headline_of`.
fn shown_headline_of<'a>(
    shown: Option<&'a str>,
    title: Option<&'a str>,
    first_question: Option<&'a str>,
) -> &'a str {
    shown.unwrap_or_else(|| headline_of(title, first_question))
}

impl Question {
    /// The answers its time limit gives with `timeoutAction: "recommended"`: each question's
    /// recommended option (a multi-select's recommended options), when it has one and none of
    /// them is marked danger. `None` when any question has no such answer: it then times out.
    pub fn recommended_answers(&self) -> Option<Vec<SubQuestionAnswer>> {
        if self.timeout_action != TimeoutAction::Recommended {
            return None;
        }
        self.questions
            .iter()
            .map(|sub| {
                let recommended: Vec<&QuestionOption> = sub
                    .options
                    .iter()
                    .filter(|option| option.recommended)
                    .collect();
                let fits = match recommended.len() {
                    0 => false,
                    1 => true,
                    _ => sub.multi_select,
                } && recommended.iter().all(|option| !option.danger);
                fits.then(|| SubQuestionAnswer {
                    selected: recommended
                        .iter()
                        .map(|option| option.label.clone())
                        .collect(),
                    free_text: None,
                    images: Vec::new(),
                })
            })
            .collect()
    }

    /// True while the question can still be answered.
    pub fn is_pending(&self) -> bool {
        self.status == Status::Pending
    }

    /// What names the question in a list or a notification: its title, or else its first
    /// question (as written, Markdown included).
    pub fn headline(&self) -> &str {
        let first = self.questions.first().map(|sub| sub.question.as_str());
        headline_of(self.title.as_deref(), first)
    }

    /// The headline as the page shows it: rendered from its Markdown when the daemon sent it
    /// so (`shown`), else as written.
    pub fn shown_headline(&self) -> &str {
        let shown = self.shown.as_ref().map(|shown| shown.headline.as_str());
        let first = self.questions.first().map(|sub| sub.question.as_str());
        shown_headline_of(shown, self.title.as_deref(), first)
    }

    /// What a waiter receives once the question is closed.
    pub fn wait_result(&self) -> WaitResult {
        WaitResult {
            status: self.status,
            answers: self.answers.clone(),
            note: self.note.clone(),
            messages: Vec::new(),
        }
    }
}

impl Question {
    /// Who asked, as the inbox groups it and the channels show it: the client and the
    /// project folder's name.
    pub fn source_label(&self) -> Option<String> {
        let source = self.source.as_ref()?;
        let project = source.cwd.as_deref().and_then(|cwd| {
            std::path::Path::new(cwd.trim_end_matches('/'))
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
        });
        match (&source.client, project) {
            (Some(client), Some(project)) => Some(format!("{client} · {project}")),
            (Some(client), None) => Some(client.clone()),
            (None, Some(project)) => Some(project),
            (None, None) => None,
        }
    }
}

/// `POST /api/questions/:id/answer`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerRequest {
    pub answers: Vec<SubQuestionAnswer>,
    /// Where the person answered, when not on Hark's page or through this API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<AnsweredVia>,
}

/// `POST /api/questions/:id/decline`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclineRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where the person declined, when not on Hark's page or through this API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<AnsweredVia>,
}

/// The protocol a wait may switch to (`Connection: upgrade`, `Upgrade: hark-wait`), as the
/// shim's and the CLI's waits do. After `101 Switching Protocols` the daemon writes one line,
/// `<status> <body>`: the status and JSON body the plain wait would have answered (`204` alone),
/// and closes. A waiting call then costs the daemon a socket and a future rather than an HTTP
/// connection with its buffers. Closing the connection mid-wait is leaving, as with the plain
/// wait's `cancelOnDisconnect`.
pub const WAIT_UPGRADE: &str = "hark-wait";

/// `GET /api/questions/:id/wait` once the question is closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitResult {
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<SubQuestionAnswer>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Asked for with `messages=true` (the MCP shim's waits): the messages the person left for
    /// the agent that asked, oldest first, delivered with this answer (SPEC §18).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<AgentMessage>,
}

/// `GET /api/questions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionList {
    pub questions: Vec<Question>,
}

#[cfg(test)]
mod tests;
