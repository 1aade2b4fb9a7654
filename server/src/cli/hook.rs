//! `hark hook claude`: Claude Code's own dialogs, asked in Hark (SPEC §12). Claude Code runs it
//! as a hook command with the event's JSON on stdin:
//! - `PreToolUse` of `AskUserQuestion`: the same questions are asked in Hark, and the person's
//!   choices answer the tool;
//! - `PermissionRequest`: "Allow <tool>: <what>?" with Allow and Deny, and the decision goes back.
//!
//! Without an answer within `--wait` it prints nothing and exits 0, so Claude Code shows its own
//! dialog, and the Hark question is withdrawn with a note. Anything else is left alone.
//!
//! Field names as the Claude Code hooks reference gives them: the input's `hook_event_name`,
//! `tool_name`, `tool_input` and `cwd`; the output's `hookSpecificOutput` with `hookEventName`,
//! for `PreToolUse` `permissionDecision` ("allow" / "deny"), `permissionDecisionReason` and
//! `updatedInput` (merged into the tool's input), for `PermissionRequest` `decision` with
//! `behavior` ("allow" / "deny") and `message`. `AskUserQuestion`'s input is `questions`
//! (`question`, `header`, `options` with `label` and `description`, `multiSelect`), and its
//! answers go in `answers`, question text → the chosen label (several joined by ", "), as
//! Claude Code's guide to answering clarifying questions (Agent SDK, "user input") describes.

use crate::client::asking::{self, Ended};
use crate::client::connection::Connection;
use hark_core::model::{AskRequest, QuestionOption, Source, Status, SubQuestion, WaitResult};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;
use tokio::time::Instant;

/// Claude Code's default hook timeout is 60 s: Hark gives up a little before.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(55);
/// Tool inputs summarised in a permission question at most, in characters.
const SUMMARY_CHARS: usize = 500;

/// The note on a question the hook withdrew.
const NO_ANSWER_NOTE: &str = "no answer in time: Claude Code asks in its own dialog";

/// The fields of a hook's input that Hark reads.
#[derive(Deserialize)]
struct HookInput {
    hook_event_name: String,
    #[serde(default)]
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    #[serde(default)]
    cwd: Option<String>,
}

/// One of `AskUserQuestion`'s questions.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClaudeQuestion {
    question: String,
    #[serde(default)]
    header: Option<String>,
    #[serde(default)]
    options: Vec<ClaudeOption>,
    #[serde(default)]
    multi_select: bool,
}

#[derive(Deserialize)]
struct ClaudeOption {
    label: String,
    #[serde(default)]
    description: Option<String>,
}

/// The most of stdin the hook reads: far more than any question Hark takes (a permission's
/// tool input is cut to a summary), and bounded, so a runaway input cannot fill memory.
const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Runs the hook: reads stdin, asks, prints Claude Code's answer (or nothing).
pub async fn run(connection: Connection, wait: Duration) -> ExitCode {
    let mut text = String::new();
    let read = std::io::stdin()
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_string(&mut text);
    if read.is_err() {
        return ExitCode::SUCCESS;
    }
    if text.len() > MAX_INPUT_BYTES {
        eprintln!(
            "hark hook: the hook's input is over {} MB, too large for Hark; Claude Code asks itself",
            MAX_INPUT_BYTES / (1024 * 1024)
        );
        return ExitCode::SUCCESS;
    }
    let input: HookInput = match serde_json::from_str(&text) {
        Ok(input) => input,
        Err(error) => {
            // Never in Claude Code's way: it shows its own dialog.
            eprintln!("hark hook: the hook's input is not what Claude Code sends: {error}");
            return ExitCode::SUCCESS;
        }
    };
    let output = match (input.hook_event_name.as_str(), input.tool_name.as_str()) {
        ("PreToolUse", "AskUserQuestion") => ask_questions(&connection, &input, wait).await,
        ("PermissionRequest", _) => ask_permission(&connection, &input, wait).await,
        _ => None,
    };
    if let Some(output) = output {
        println!("{output}");
    }
    ExitCode::SUCCESS
}

fn source(input: &HookInput) -> Source {
    Source {
        client: Some(format!(
            "claude-code hook (hark {})",
            env!("CARGO_PKG_VERSION")
        )),
        cwd: input.cwd.clone(),
        pid: Some(std::process::id()),
    }
}

/// Asks `request` and waits up to `wait`; withdraws it (with a note) when nobody answers.
async fn ask(connection: &Connection, request: AskRequest, wait: Duration) -> Option<WaitResult> {
    let (request, _) = asking::with_id(request);
    let request = match asking::submit(connection, request).await {
        Ok(request) => request,
        Err(error) => {
            eprintln!("hark hook: {error}");
            return None;
        }
    };
    let id = request.id?;
    match asking::wait(connection, &request, Some(Instant::now() + wait)).await {
        Ok(Ended::Closed(result)) => Some(result),
        Ok(Ended::StillPending) => {
            let _ = connection.client().withdraw(id, NO_ANSWER_NOTE).await;
            None
        }
        Err(error) => {
            eprintln!("hark hook: {error}");
            None
        }
    }
}

async fn ask_questions(
    connection: &Connection,
    input: &HookInput,
    wait: Duration,
) -> Option<Value> {
    let questions: Vec<ClaudeQuestion> =
        serde_json::from_value(input.tool_input.get("questions")?.clone()).ok()?;
    let request = AskRequest {
        questions: questions
            .iter()
            .map(|asked| SubQuestion {
                header: asked.header.clone(),
                multi_select: asked.multi_select,
                options: asked
                    .options
                    .iter()
                    .map(|option| QuestionOption {
                        description: option.description.clone(),
                        ..QuestionOption::new(option.label.clone())
                    })
                    .collect(),
                ..SubQuestion::text(asked.question.clone())
            })
            .collect(),
        source: Some(source(input)),
        ..AskRequest::default()
    };
    let result = ask(connection, request, wait).await?;
    match result.status {
        Status::Answered => {
            let mut answers = Map::new();
            for (asked, answer) in questions.iter().zip(result.answers.iter().flatten()) {
                let mut parts = answer.selected.clone();
                parts.extend(answer.free_text.clone());
                answers.insert(asked.question.clone(), Value::String(parts.join(", ")));
            }
            let mut updated = input.tool_input.clone();
            updated["answers"] = Value::Object(answers);
            Some(json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "answered in Hark",
                "updatedInput": updated,
            }}))
        }
        Status::Declined => {
            let reason = match result.note {
                Some(note) => {
                    format!("The person skipped these questions in Hark. Their note: {note}")
                }
                None => "The person skipped these questions in Hark.".to_string(),
            };
            Some(json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }}))
        }
        // Timed out or withdrawn in Hark: Claude Code asks in its own dialog.
        _ => None,
    }
}

/// What a tool call would do, in a line: its command, file or the like, else its input.
fn summary(tool_input: &Value) -> String {
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
    let text = named.unwrap_or_else(|| tool_input.to_string());
    let mut summary: String = text.chars().take(SUMMARY_CHARS).collect();
    if text.chars().count() > SUMMARY_CHARS {
        summary.push('…');
    }
    summary
}

/// The labels of a permission question's two options.
const ALLOW: &str = "Allow";
const DENY: &str = "Deny";

async fn ask_permission(
    connection: &Connection,
    input: &HookInput,
    wait: Duration,
) -> Option<Value> {
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(input.tool_name.clone()),
            options: vec![
                QuestionOption::new(ALLOW),
                QuestionOption {
                    danger: true,
                    ..QuestionOption::new(DENY)
                },
            ],
            allow_free_text: false,
            ..SubQuestion::text(format!(
                "Allow {}: {}?",
                input.tool_name,
                summary(&input.tool_input)
            ))
        }],
        source: Some(source(input)),
        ..AskRequest::default()
    };
    let result = ask(connection, request, wait).await?;
    let chose = |label: &str| {
        result
            .answers
            .iter()
            .flatten()
            .any(|answer| answer.selected.iter().any(|picked| picked == label))
    };
    let decision = match result.status {
        Status::Answered if chose(ALLOW) => json!({"behavior": "allow"}),
        Status::Answered if chose(DENY) => {
            json!({"behavior": "deny", "message": "The person denied this in Hark."})
        }
        // Skipped, timed out or withdrawn: Claude Code asks in its own dialog.
        _ => return None,
    };
    Some(json!({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": decision,
    }}))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(long.ends_with('…') && long.chars().count() == SUMMARY_CHARS + 1);
    }
}
