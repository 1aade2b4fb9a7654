//! Remembered decisions (SPEC §19): a permission prompt an agent's hook asks in Hark carries what
//! it is about (`PermissionAsk`: the agent, the tool, what the tool would do, and which options
//! allow, deny or keep a rule), so Hark can answer a matching prompt itself, and keep a rule
//! when the person picks "Always allow" or "Always deny" on any surface. A rule is the exact
//! subject the person saw, or a prefix ending in `*` given through the API: it never widens
//! itself.

use super::validate::limits::MAX_LABEL_CHARS;
use super::{ErrorBody, Question, SubQuestionAnswer};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The longest subject or pattern: a whole command, within a question's own limit.
pub const MAX_PATTERN_CHARS: usize = 8_000;
/// Rules kept at most.
pub const MAX_RULES: usize = 1_000;
/// The longest agent name.
const MAX_AGENT_CHARS: usize = 64;

/// What a permission prompt is about, and which of its first question's options decide it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionAsk {
    /// The agent asking: `claude-code`, `codex`, `gemini-cli`, `cursor` or `copilot-cli`.
    pub agent: String,
    /// Its tool (`Bash`, `run_shell_command`, `mcp__server__tool`, …).
    pub tool: String,
    /// What the tool would do: the command, file or address a rule is matched against.
    pub subject: String,
    /// The options (by their place) that allow and deny once.
    pub allow: usize,
    pub deny: usize,
    /// The options that allow or deny and keep a rule, when offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always_allow: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always_deny: Option<usize>,
}

/// Whether a rule allows or denies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Deny,
}

/// A rule's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RuleId(pub Uuid);

impl std::fmt::Display for RuleId {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(formatter)
    }
}

/// A rule as `POST /api/rules` takes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewRule {
    pub agent: String,
    pub tool: String,
    /// The subject exactly, or a prefix followed by `*`.
    pub pattern: String,
    pub decision: Decision,
}

/// A rule Hark keeps: matching prompts of `agent`'s `tool` are answered with `decision`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub id: RuleId,
    pub agent: String,
    pub tool: String,
    pub pattern: String,
    pub decision: Decision,
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub created_at: DateTime<Utc>,
}

impl NewRule {
    /// Checks each field.
    ///
    /// # Errors
    /// The first field that is blank, too long or a pattern that is only `*`.
    pub fn validate(&self) -> Result<(), ErrorBody> {
        let field = |name: &str, value: &str, max: usize| {
            if value.trim().is_empty() {
                Err(ErrorBody::field(name, format!("{name} must not be blank")))
            } else if value.chars().count() > max {
                Err(ErrorBody::field(
                    name,
                    format!("{name} is longer than {max} characters"),
                ))
            } else {
                Ok(())
            }
        };
        field("agent", &self.agent, MAX_AGENT_CHARS)?;
        field("tool", &self.tool, MAX_LABEL_CHARS)?;
        field("pattern", &self.pattern, MAX_PATTERN_CHARS)?;
        if self.pattern.trim() == "*" {
            return Err(ErrorBody::field(
                "pattern",
                "pattern must say what it matches: a lone * would answer every call of the tool",
            ));
        }
        Ok(())
    }

    /// The rule, made now.
    pub fn kept(self) -> Rule {
        Rule {
            id: RuleId(Uuid::new_v4()),
            agent: self.agent,
            tool: self.tool,
            pattern: self.pattern,
            decision: self.decision,
            created_at: Utc::now(),
        }
    }
}

impl Rule {
    /// Whether this rule answers `ask`: the same agent and tool, and the subject itself, or for
    /// a pattern ending in `*`, a subject that starts with what comes before it.
    pub fn matches(&self, ask: &PermissionAsk) -> bool {
        self.agent == ask.agent
            && self.tool == ask.tool
            && match self.pattern.strip_suffix('*') {
                Some(prefix) => ask.subject.starts_with(prefix),
                None => ask.subject == self.pattern,
            }
    }
}

/// The decision `rules` give `ask`: a deny rule wins over an allow rule.
pub fn decide<'a>(rules: &'a [Rule], ask: &PermissionAsk) -> Option<&'a Rule> {
    let mut matching = rules.iter().filter(|rule| rule.matches(ask));
    let first = matching
        .clone()
        .find(|rule| rule.decision == Decision::Deny);
    first.or_else(|| matching.next())
}

impl PermissionAsk {
    /// Checks the option places against the question's first sub-question.
    ///
    /// # Errors
    /// Names the field: blank or long names, an option place the question lacks.
    pub fn validate(&self, options: usize) -> Result<(), ErrorBody> {
        let rule = NewRule {
            agent: self.agent.clone(),
            tool: self.tool.clone(),
            pattern: self.subject.clone(),
            decision: Decision::Allow,
        };
        rule.validate().map_err(|error| {
            let field = error.field.as_deref().map(|field| match field {
                "pattern" => "permission.subject".to_string(),
                other => format!("permission.{other}"),
            });
            ErrorBody {
                error: format!("permission: {}", error.error),
                field,
            }
        })?;
        let places = [
            ("allow", Some(self.allow)),
            ("deny", Some(self.deny)),
            ("alwaysAllow", self.always_allow),
            ("alwaysDeny", self.always_deny),
        ];
        for (name, place) in places {
            if let Some(place) = place
                && place >= options
            {
                return Err(ErrorBody::field(
                    format!("permission.{name}"),
                    format!(
                        "permission.{name} is option {place}; the first question has {options}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The rule an answer keeps, when it picked "Always allow" or "Always deny".
    pub fn kept_by(&self, question: &Question, answers: &[SubQuestionAnswer]) -> Option<NewRule> {
        // A subject ending in `*` would be kept as a prefix: wider than what the person saw.
        if self.subject.ends_with('*') {
            return None;
        }
        let picked = answers.first()?.selected.first()?;
        let label = |place: Option<usize>| {
            place
                .and_then(|place| question.questions.first()?.options.get(place))
                .map(|option| option.label.as_str())
        };
        let decision = if label(self.always_allow) == Some(picked.as_str()) {
            Decision::Allow
        } else if label(self.always_deny) == Some(picked.as_str()) {
            Decision::Deny
        } else {
            return None;
        };
        Some(NewRule {
            agent: self.agent.clone(),
            tool: self.tool.clone(),
            pattern: self.subject.clone(),
            decision,
        })
    }

    /// The answer a rule's decision gives: the option that allows or denies once.
    pub fn answer(&self, question: &Question, decision: Decision) -> Option<SubQuestionAnswer> {
        let place = match decision {
            Decision::Allow => self.allow,
            Decision::Deny => self.deny,
        };
        let option = question.questions.first()?.options.get(place)?;
        Some(SubQuestionAnswer {
            selected: vec![option.label.clone()],
            free_text: None,
            images: Vec::new(),
        })
    }
}
