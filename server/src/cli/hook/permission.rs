//! A permission prompt of any agent, asked in Hark the one way: "Allow <tool>?" over what the
//! tool would do, shown whole and literally as code (Markdown in a command stays text, a run of
//! blanks is counted, so nothing hides past the edge), with Allow, the agent's own extra choices
//! (Claude Code's "always allow" entries) and Deny (marked danger). Each agent's module reads
//! its prompt and writes the decision in its own shape.

use super::Hook;
use hark_core::model::{AskRequest, QuestionOption, Status, SubQuestion};
use hark_text::{Lang, t_in};
use serde_json::Value;

/// A tool input's characters shown in a permission question at most: the whole of any real
/// command, within the question's own limit.
const SUMMARY_CHARS: usize = 8_000;

/// A choice beside Allow and Deny: its label and what it means.
pub struct Extra {
    pub label: String,
    pub description: String,
}

/// What the person picked.
#[derive(Debug, PartialEq, Eq)]
pub enum Picked {
    Allow,
    Deny,
    /// An extra choice, by its place among the extras.
    Extra(usize),
}

/// What a tool call would do: its command, file or the like, else its input (shown literally by
/// `literal_block`).
pub fn summary(tool_input: &Value) -> String {
    let named = [
        "command",
        "file_path",
        "url",
        "path",
        "pattern",
        "description",
    ]
    .iter()
    .find_map(|key| tool_input.get(*key).and_then(Value::as_str))
    .map(str::to_string);
    named.unwrap_or_else(|| tool_input.to_string())
}

/// Asks whether `tool` may do `what`; `None` when the person skipped, or nobody answered in
/// time (the agent then asks in its own dialog).
pub async fn ask(
    hook: &Hook<'_>,
    lang: Lang,
    tool: &str,
    what: &str,
    extras: &[Extra],
) -> Option<Picked> {
    let (allow, deny) = (t_in(lang, "hook-allow", &[]), t_in(lang, "hook-deny", &[]));
    let asked = format!(
        "{}\n\n{}",
        t_in(lang, "hook-permission", &[("tool", tool.into())]),
        hark_text::markdown::literal_block(lang, what, SUMMARY_CHARS)
    );
    let options = std::iter::once(QuestionOption::new(allow.clone()))
        .chain(extras.iter().map(|extra| QuestionOption {
            description: Some(extra.description.clone()),
            ..QuestionOption::new(extra.label.clone())
        }))
        .chain([QuestionOption {
            danger: true,
            ..QuestionOption::new(deny.clone())
        }])
        .collect();
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(tool.to_string()),
            options,
            allow_free_text: false,
            ..SubQuestion::text(asked)
        }],
        source: Some(hook.source()),
        ..AskRequest::default()
    };
    let result = hook.ask(request).await?;
    if result.status != Status::Answered {
        return None;
    }
    let picked = result.answers.iter().flatten().next()?.selected.first()?;
    if *picked == allow {
        Some(Picked::Allow)
    } else if *picked == deny {
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
    fn a_tool_input_is_summarised_by_what_it_does() {
        assert_eq!(
            summary(&json!({"command": "rm -rf build", "timeout": 5})),
            "rm -rf build"
        );
        assert_eq!(
            summary(&json!({"file_path": "/src/main.rs", "content": "…"})),
            "/src/main.rs"
        );
        let long = summary(&json!({"other": "x".repeat(600)}));
        assert!(long.contains(&"x".repeat(600)));
    }
}
