//! Agent sessions (SPEC §20): each agent Hark hears from (its client, its directory, its own
//! session id where it gives one), what it is doing now — working, waiting for the person in
//! Hark or in its own dialog, finished its turn — since when, and the last thing it said. Fed
//! by the hooks (`POST /api/sessions`) and by the questions agents ask.

use super::AgentRef;
use super::error::ErrorBody;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The most of an agent's last message kept, in characters; a longer one is cut.
pub const MAX_LAST_MESSAGE_CHARS: usize = 4_000;
/// The longest session id an agent may give, in characters.
pub const MAX_SESSION_ID_CHARS: usize = 200;
/// Sessions kept at most; past it, the one heard from longest ago leaves.
pub const MAX_SESSIONS: usize = 200;

/// What an agent is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SessionState {
    /// At work: the person sent a prompt, or a tool ran.
    Working,
    /// A question of its waits for the person in Hark.
    Asking,
    /// Its own dialog waits for the person (a permission prompt in its terminal).
    Waiting,
    /// It finished its turn, and waits for the next prompt.
    Finished,
    /// The session ended (or went quiet past `sessionIdleSecs`): it leaves the list.
    Ended,
}

impl SessionState {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            SessionState::Working => "working",
            SessionState::Asking => "asking",
            SessionState::Waiting => "waiting",
            SessionState::Finished => "finished",
            SessionState::Ended => "ended",
        }
    }
}

/// When the person is told of a session (config `notifyOn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SessionNotice {
    /// It waits for the person outside Hark, in its own dialog.
    Waiting,
    /// It finished its turn.
    Finished,
}

impl SessionNotice {
    /// The notice a state gives, if any.
    pub fn of(state: SessionState) -> Option<SessionNotice> {
        match state {
            SessionState::Waiting => Some(SessionNotice::Waiting),
            SessionState::Finished => Some(SessionNotice::Finished),
            _ => None,
        }
    }
}

/// One agent session, as `GET /api/sessions` and `session:updated` show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSession {
    /// Hark's own id of the session, given when it is first heard of and kept: the page, the
    /// chat apps and the log know it by this, whatever ids the agent gives later.
    pub id: String,
    /// The agent, as "Tell the agent…" addresses it.
    pub agent: AgentRef,
    /// The agent's own id of the session, when it gives one (Claude Code's `session_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub state: SessionState,
    /// Since when it is in this state.
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub since: DateTime<Utc>,
    /// When Hark last heard from it.
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub seen_at: DateTime<Utc>,
    /// The last thing it said (at the end of its turn), or what its dialog asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
    /// The last message's Markdown as safe HTML, rendered by the daemon for the page (its event
    /// stream and the Agents page); absent from the rest of the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<String>,
}

impl AgentSession {
    /// Whether `report` is about this session: the same agent (`AgentRef::matches`), and the
    /// same own id when both give one.
    pub fn is(&self, agent: &AgentRef, session_id: Option<&str>) -> bool {
        let same_id = match (self.session_id.as_deref(), session_id) {
            (Some(mine), Some(theirs)) => mine == theirs,
            _ => true,
        };
        same_id && self.agent.matches(agent)
    }
}

/// `POST /api/sessions`: what an agent's hook says it is doing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReport {
    pub agent: AgentRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub state: Option<SessionState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
}

/// `GET /api/sessions`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionList {
    pub sessions: Vec<AgentSession>,
}

/// Checks a report, naming the field at fault; the last message is cut to fit, not refused.
///
/// # Errors
/// A blank client, or a field longer than it may be.
pub fn validate_report(report: &SessionReport) -> Result<SessionState, ErrorBody> {
    let too_long = |field: &str, text: &str, most: usize| {
        (text.chars().count() > most)
            .then(|| ErrorBody::field(field, format!("{field} is over {most} characters")))
    };
    if report.agent.client.trim().is_empty() {
        return Err(ErrorBody::field("agent.client", "agent.client is empty"));
    }
    let most = super::limits::MAX_SOURCE_CHARS;
    let checks = [
        too_long("agent.client", &report.agent.client, most),
        too_long("agent.cwd", report.agent.cwd.as_deref().unwrap_or(""), most),
        too_long(
            "sessionId",
            report.session_id.as_deref().unwrap_or(""),
            MAX_SESSION_ID_CHARS,
        ),
    ];
    if let Some(error) = checks.into_iter().flatten().next() {
        return Err(error);
    }
    report.state.ok_or_else(|| {
        ErrorBody::field(
            "state",
            "state must be \"working\", \"asking\", \"waiting\", \"finished\" or \"ended\"",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_names_the_field_at_fault() {
        let report = |value| serde_json::from_value::<SessionReport>(value).unwrap();
        let good = report(json!({"agent": {"client": "claude-code", "cwd": "/w"},
                                 "sessionId": "abc", "state": "finished"}));
        assert_eq!(validate_report(&good), Ok(SessionState::Finished));
        let blank = report(json!({"agent": {"client": " "}, "state": "working"}));
        assert_eq!(
            validate_report(&blank).unwrap_err().field.as_deref(),
            Some("agent.client")
        );
        let long = report(json!({"agent": {"client": "c"}, "state": "working",
                                 "sessionId": "x".repeat(MAX_SESSION_ID_CHARS + 1)}));
        assert_eq!(
            validate_report(&long).unwrap_err().field.as_deref(),
            Some("sessionId")
        );
        let stateless = report(json!({"agent": {"client": "c"}}));
        assert_eq!(
            validate_report(&stateless).unwrap_err().field.as_deref(),
            Some("state")
        );
        assert!(
            serde_json::from_value::<SessionReport>(json!({"agent": {"client": "c"},
                                                                "state": "asleep"}))
            .is_err()
        );
    }

    #[test]
    fn a_session_is_known_by_its_own_id_else_by_its_agent() {
        let agent = AgentRef {
            client: "claude-code".into(),
            cwd: Some("/w".into()),
        };
        let session = AgentSession {
            id: "a1".into(),
            agent: agent.clone(),
            session_id: Some("one".into()),
            state: SessionState::Working,
            since: Utc::now(),
            seen_at: Utc::now(),
            last_message: None,
            shown: None,
        };
        assert!(session.is(&agent, Some("one")));
        assert!(!session.is(&agent, Some("two")));
        assert!(session.is(&agent, None));
        let elsewhere = AgentRef {
            cwd: Some("/x".into()),
            ..agent
        };
        assert!(!session.is(&elsewhere, None));
    }
}
