//! Messages for a running agent (SPEC §18, "Tell the agent…"): whom they are for, what they
//! say, whether the agent has had them, and how an agent reads them.

use super::{AnsweredVia, QuestionId, Source};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

/// The id of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MessageId(pub Uuid);

impl MessageId {
    /// A fresh random id.
    pub fn new_random() -> Self {
        Self(Uuid::new_v4())
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for MessageId {
    type Err = uuid::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s).map(Self)
    }
}

/// An asking agent as messages address it: its client's name without the version
/// (`claude-code`), and the directory it works in (none for an agent that reached Hark over
/// `/mcp`, whose directory Hark cannot know).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRef {
    pub client: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

impl AgentRef {
    /// The agent that asked a question, when its client is known.
    pub fn of(source: &Source) -> Option<AgentRef> {
        let client = client_name(source.client.as_deref()?);
        (!client.is_empty()).then(|| AgentRef {
            client: client.to_string(),
            cwd: source.cwd.clone(),
        })
    }

    /// Whether `self` and `other` name one agent: the same client (letter case aside) in the
    /// same directory (a trailing separator aside).
    pub fn matches(&self, other: &AgentRef) -> bool {
        let directory = |cwd: &Option<String>| {
            cwd.as_deref()
                .map(|cwd| cwd.trim_end_matches(['/', '\\']).to_string())
                .filter(|cwd| !cwd.is_empty())
        };
        self.client.trim().eq_ignore_ascii_case(other.client.trim())
            && directory(&self.cwd) == directory(&other.cwd)
    }

    /// "claude-code · hark": the client and the project folder's name, as the inbox groups.
    pub fn label(&self) -> String {
        let project = self.cwd.as_deref().and_then(|cwd| {
            std::path::Path::new(cwd.trim_end_matches(['/', '\\']))
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
        });
        match project {
            Some(project) => format!("{} · {project}", self.client),
            None => self.client.clone(),
        }
    }
}

/// A client's name without its version: `claude-code 2.1.3` → `claude-code`,
/// `claude-code (hark hook 0.4.0)` → `claude-code`, `Visual Studio Code 1.95` →
/// `Visual Studio Code`. Clients give Hark "name version"; the version changes with every update
/// while the agent stays the same.
pub fn client_name(client: &str) -> &str {
    let named = client.split(" (").next().unwrap_or(client).trim();
    match named.rsplit_once(char::is_whitespace) {
        Some((name, last)) if looks_like_version(last) => name.trim_end(),
        _ => named,
    }
}

fn looks_like_version(word: &str) -> bool {
    let digits = word.strip_prefix(['v', 'V']).unwrap_or(word);
    digits.starts_with(|c: char| c.is_ascii_digit())
}

/// `POST /api/messages`: a message for the agent `to`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewMessage {
    pub to: AgentRef,
    pub text: String,
    /// Where the person wrote it, when not on Hark's page or through this API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<AnsweredVia>,
}

/// Whether the agent has had a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageStatus {
    /// Not yet: it goes with the agent's next result from Hark.
    Waiting,
    Delivered,
}

impl MessageStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::Waiting => "waiting",
            MessageStatus::Delivered => "delivered",
        }
    }
}

/// A message for an agent, waiting or delivered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentMessage {
    pub id: MessageId,
    pub to: AgentRef,
    pub text: String,
    pub status: MessageStatus,
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub created_at: DateTime<Utc>,
    #[serde(
        default,
        deserialize_with = "super::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub delivered_at: Option<DateTime<Utc>>,
    /// The question whose answer took it to the agent, when one did: a wait for that question
    /// repeated (its first result lost on the way) hands it over again, never another time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivered_with: Option<QuestionId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<AnsweredVia>,
}

/// A message as the inbox reads it off the event stream: its id and status (the rest is
/// skipped), so the first view's WebAssembly carries no reader of a whole message (issue 48).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct MessageBrief {
    pub id: MessageId,
    pub status: MessageStatus,
}

impl From<&AgentMessage> for MessageBrief {
    fn from(message: &AgentMessage) -> Self {
        Self {
            id: message.id,
            status: message.status,
        }
    }
}

impl AgentMessage {
    /// A new waiting message, written at `now`.
    pub fn waiting(message: NewMessage, now: DateTime<Utc>) -> Self {
        AgentMessage {
            id: MessageId::new_random(),
            to: AgentRef {
                client: message.to.client.trim().to_string(),
                cwd: message.to.cwd.filter(|cwd| !cwd.trim().is_empty()),
            },
            text: message.text.trim().to_string(),
            status: MessageStatus::Waiting,
            created_at: now,
            delivered_at: None,
            delivered_with: None,
            via: message.via,
        }
    }

    /// Whether it still waits for its agent.
    pub fn is_waiting(&self) -> bool {
        self.status == MessageStatus::Waiting
    }
}

/// `GET /api/messages` (newest first) and what an agent collects (oldest first).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageList {
    pub messages: Vec<AgentMessage>,
}

/// A message as the agent gets it, in the result of `ask_user` or `get_answer`.
// The `///` docs become the MCP tool's output schema: written for the model that reads them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersonMessage {
    /// What the person wrote to you.
    pub text: String,
    /// When they wrote it (RFC 3339).
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub sent_at: DateTime<Utc>,
}

impl From<&AgentMessage> for PersonMessage {
    fn from(message: &AgentMessage) -> Self {
        PersonMessage {
            text: message.text.clone(),
            sent_at: message.created_at,
        }
    }
}

/// The messages in words for the agent (its tool result's text, a hook's context), oldest
/// first; `None` without any. English, like the tools' descriptions: a model reads it.
pub fn for_the_agent(messages: &[PersonMessage]) -> Option<String> {
    let lines: Vec<String> = messages
        .iter()
        .map(|message| {
            format!(
                "- ({} UTC) {}",
                message.sent_at.format("%H:%M"),
                message.text
            )
        })
        .collect();
    match lines.as_slice() {
        [] => None,
        [_] => Some(format!(
            "The person sent you a message while you worked; take it into account in what you \
             do next:\n{}",
            lines[0]
        )),
        _ => Some(format!(
            "The person sent you {} messages while you worked, oldest first; take them into \
             account in what you do next:\n{}",
            lines.len(),
            lines.join("\n")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_client_is_named_without_its_version() {
        assert_eq!(client_name("claude-code 2.1.3"), "claude-code");
        assert_eq!(client_name("claude-code (hark hook 0.4.0)"), "claude-code");
        assert_eq!(client_name("codex-mcp-client v0.44.0"), "codex-mcp-client");
        assert_eq!(
            client_name("Visual Studio Code 1.95.0"),
            "Visual Studio Code"
        );
        assert_eq!(client_name("inspector"), "inspector");
        assert_eq!(client_name("My Agent"), "My Agent");
    }

    #[test]
    fn an_agent_is_its_client_and_its_directory() {
        let source = Source {
            client: Some("claude-code 2.1.3".into()),
            cwd: Some("/home/ann/hark".into()),
            pid: Some(7),
        };
        let agent = AgentRef::of(&source).unwrap();
        assert_eq!(agent.client, "claude-code");
        assert_eq!(agent.label(), "claude-code · hark");
        let updated = AgentRef {
            client: "Claude-Code".into(),
            cwd: Some("/home/ann/hark/".into()),
        };
        assert!(agent.matches(&updated));
        let elsewhere = AgentRef {
            cwd: Some("/home/ann/other".into()),
            ..agent.clone()
        };
        assert!(!agent.matches(&elsewhere));
        let no_folder = AgentRef {
            client: "claude-code".into(),
            cwd: None,
        };
        assert!(!agent.matches(&no_folder));
        assert!(no_folder.matches(&no_folder.clone()));
        assert_eq!(AgentRef::of(&Source::default()), None);
    }

    #[test]
    fn a_message_has_the_wire_shape_of_spec_18() {
        let message = AgentMessage::waiting(
            NewMessage {
                to: AgentRef {
                    client: " claude-code ".into(),
                    cwd: Some(String::new()),
                },
                text: "  use the staging database  ".into(),
                via: None,
            },
            DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
        );
        let json = serde_json::to_value(&message).unwrap();
        assert_eq!(json["to"], json!({"client": "claude-code"}));
        assert_eq!(json["text"], "use the staging database");
        assert_eq!(json["status"], "waiting");
        assert!(json.get("deliveredAt").is_none());
        let back: AgentMessage = serde_json::from_value(json).unwrap();
        assert_eq!(back, message);
    }

    #[test]
    fn the_agent_reads_its_messages_oldest_first() {
        let at = |secs| DateTime::from_timestamp(secs, 0).unwrap();
        assert_eq!(for_the_agent(&[]), None);
        let one = for_the_agent(&[PersonMessage {
            text: "stop after the tests".into(),
            sent_at: at(3_600),
        }])
        .unwrap();
        assert!(one.contains("a message") && one.ends_with("- (01:00 UTC) stop after the tests"));
        let two = for_the_agent(&[
            PersonMessage {
                text: "first".into(),
                sent_at: at(0),
            },
            PersonMessage {
                text: "second".into(),
                sent_at: at(60),
            },
        ])
        .unwrap();
        assert!(two.contains("2 messages") && two.find("first") < two.find("second"));
    }
}
