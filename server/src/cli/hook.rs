//! `hark hook claude` and `hark hook codex`: an agent's own dialogs, asked in Hark (SPEC §12).
//! The agent runs it as a hook command with the event's JSON on stdin:
//! - Claude Code's `PreToolUse` of `AskUserQuestion`: the same questions are asked in Hark, and
//!   the person's choices answer the tool;
//! - `PermissionRequest` (Claude Code and Codex): "Allow <tool>: <what>?" with Allow and Deny
//!   (marked danger), and the decision goes back; for Claude Code, each of its
//!   `permission_suggestions` (its "always allow" choices: a rule, a directory, a mode) is a
//!   choice of its own, labelled with the rule and where Claude Code keeps it, and picking it
//!   allows with that entry as `updatedPermissions` (the reference's "Permission update
//!   entries": a hook may echo a suggestion, as the person picking it in the dialog would);
//! - Claude Code's `Elicitation`: another MCP server's form (`elicitation`);
//! - Claude Code's `PreToolUse` of `ExitPlanMode`: its plan to approve (`plan`);
//! - Claude Code's `PostToolUse` (SPEC §18): the messages the person left for Claude Code in
//!   the hook's `cwd` (the agent its MCP client, `claude-code`, names) go back as
//!   `hookSpecificOutput.additionalContext` with `hookEventName: "PostToolUse"`, which Claude
//!   Code adds to the model's context after the tool's result (its hooks reference,
//!   code.claude.com/docs/en/hooks, "PostToolUse decision control"). Nothing waiting, or no
//!   daemon running: no output.
//!
//! Without an answer within `--wait` it prints nothing and exits 0, so the agent shows its own
//! dialog, and the Hark question is withdrawn with a note. Anything else is left alone.
//!
//! Claude Code's field names as its hooks reference gives them: the input's `hook_event_name`,
//! `tool_name`, `tool_input` and `cwd`; the output's `hookSpecificOutput` with `hookEventName`,
//! for `PreToolUse` `permissionDecision` ("allow" / "deny"), `permissionDecisionReason` and
//! `updatedInput` (merged into the tool's input), for `PermissionRequest` `decision` with
//! `behavior` ("allow" / "deny") and `message`. `AskUserQuestion`'s input is `questions`
//! (`question`, `header`, `options` with `label` and `description`, `multiSelect`), and its
//! answers go in `answers`, question text → the chosen label (several joined by ", "), as
//! Claude Code's guide to answering clarifying questions (Agent SDK, "user input") describes.
//!
//! Codex's `PermissionRequest` takes the same shapes: its input (`hook_event_name`, `tool_name`
//! such as `Bash`, `apply_patch` or `mcp__server__tool`, `tool_input` with `command` and an
//! optional `description`, `cwd`) and its output (`hookSpecificOutput.hookEventName` and
//! `decision.behavior` / `decision.message`, every other field refused), as openai/codex reads
//! them in `codex-rs/hooks/src/events/permission_request.rs` and
//! `codex-rs/hooks/src/engine/output_parser.rs`. Empty output (exit 0) leaves Codex's own
//! approval prompt; its hooks time out after `timeout` seconds (600 unless set).

mod elicitation;
mod plan;

use crate::client::Messages;
use crate::client::asking::{self, Ended};
use crate::client::connection::Connection;
use hark_core::model::{
    AgentRef, AskRequest, PersonMessage, QuestionOption, Source, Status, SubQuestion, WaitResult,
    for_the_agent,
};
use hark_text::{Lang, t_in};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;
use tokio::time::Instant;

/// Claude Code's default hook timeout is 60 s: Hark gives up a little before, and as soon for
/// Codex (whose hooks may take 600 s), so the person at the terminal is not kept from their own
/// dialog for long.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(55);

/// The agents whose hooks Hark answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookAgent {
    Claude,
    Codex,
}

impl HookAgent {
    /// The agent `hark hook <name>` names.
    ///
    /// # Errors
    /// A name Hark has no hook for, said in a sentence.
    pub fn named(name: &str) -> Result<HookAgent, String> {
        match name {
            "claude" => Ok(HookAgent::Claude),
            "codex" => Ok(HookAgent::Codex),
            other => Err(format!(
                "hark hook: \"claude\" (Claude Code) and \"codex\" (Codex) have hooks, not \"{other}\""
            )),
        }
    }

    fn product(self) -> &'static str {
        match self {
            HookAgent::Claude => "Claude Code",
            HookAgent::Codex => "Codex",
        }
    }

    /// The name the agent's MCP client gives itself: its hook and its tools are one agent.
    fn client_name(self) -> &'static str {
        match self {
            HookAgent::Claude => "claude-code",
            HookAgent::Codex => "codex",
        }
    }

    /// The client a question of this hook says it came from (the page groups by it).
    fn client(self) -> String {
        format!(
            "{} (hark hook {})",
            self.client_name(),
            env!("CARGO_PKG_VERSION")
        )
    }

    /// The note on a question the hook withdrew.
    fn no_answer_note(self) -> String {
        format!(
            "no answer in time: {} asks in its own dialog",
            self.product()
        )
    }
}
/// A tool input's characters shown in a permission question at most: the whole of any real
/// command, within the question's own limit.
const SUMMARY_CHARS: usize = 8_000;

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
    /// `PermissionRequest`: Claude Code's "always allow" choices.
    #[serde(default)]
    permission_suggestions: Vec<Value>,
    /// `Elicitation`: the MCP server that asks, its words, the form's mode and schema.
    #[serde(default)]
    mcp_server_name: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    requested_schema: Option<Value>,
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

/// Runs `agent`'s hook: reads stdin, asks, prints the agent's answer (or nothing).
pub async fn run(connection: Connection, agent: HookAgent, wait: Duration) -> ExitCode {
    let mut text = String::new();
    let read = std::io::stdin()
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_string(&mut text);
    if read.is_err() {
        return ExitCode::SUCCESS;
    }
    if text.len() > MAX_INPUT_BYTES {
        eprintln!(
            "hark hook: the hook's input is over {} MB, too large for Hark; {} asks itself",
            MAX_INPUT_BYTES / (1024 * 1024),
            agent.product()
        );
        return ExitCode::SUCCESS;
    }
    let input: HookInput = match serde_json::from_str(&text) {
        Ok(input) => input,
        Err(error) => {
            // Never in the agent's way: it shows its own dialog.
            eprintln!(
                "hark hook: the hook's input is not what {} sends: {error}",
                agent.product()
            );
            return ExitCode::SUCCESS;
        }
    };
    let hook = Hook {
        connection: &connection,
        agent,
        input: &input,
        wait,
    };
    let output = match (
        agent,
        input.hook_event_name.as_str(),
        input.tool_name.as_str(),
    ) {
        (HookAgent::Claude, "PreToolUse", "AskUserQuestion") => ask_questions(&hook).await,
        (HookAgent::Claude, "PreToolUse", "ExitPlanMode") => plan::ask(&hook).await,
        (HookAgent::Claude, "Elicitation", _) => elicitation::ask(&hook).await,
        (_, "PermissionRequest", _) => ask_permission(&hook).await,
        (HookAgent::Claude, "PostToolUse", _) => hand_over_messages(&hook).await,
        _ => None,
    };
    if let Some(output) = output {
        println!("{output}");
    }
    ExitCode::SUCCESS
}

/// One run of a hook: what it was given and where it asks.
struct Hook<'a> {
    connection: &'a Connection,
    agent: HookAgent,
    input: &'a HookInput,
    wait: Duration,
}

impl Hook<'_> {
    fn source(&self) -> Source {
        Source {
            client: Some(self.agent.client()),
            cwd: self.input.cwd.clone(),
            pid: Some(std::process::id()),
        }
    }

    /// Asks `request` and waits up to `wait`; withdraws it (with a note) when nobody answers.
    async fn ask(&self, request: AskRequest) -> Option<WaitResult> {
        self.ask_until(request, Instant::now() + self.wait).await
    }

    /// Asks `request` and waits until `deadline`; withdraws it (with a note) when nobody
    /// answers.
    async fn ask_until(&self, request: AskRequest, deadline: Instant) -> Option<WaitResult> {
        let (request, _) = asking::with_id(request);
        let request = match asking::submit(self.connection, request).await {
            Ok(request) => request,
            Err(error) => {
                eprintln!("hark hook: {error}");
                return None;
            }
        };
        let id = request.id?;
        match asking::wait(self.connection, &request, Some(deadline), Messages::Leave).await {
            Ok(Ended::Closed(result)) => Some(result),
            Ok(Ended::StillPending) => {
                let note = self.agent.no_answer_note();
                let _ = self.connection.client().withdraw(id, &note).await;
                None
            }
            Err(error) => {
                eprintln!("hark hook: {error}");
                None
            }
        }
    }
}

/// Claude Code's `PostToolUse`: the messages the person left for this agent (Claude Code in
/// the hook's `cwd`) go to the model as `additionalContext`, and are marked delivered. Runs
/// after every tool call, so it never starts the daemon and stays quiet when it is not running.
async fn hand_over_messages(hook: &Hook<'_>) -> Option<Value> {
    let agent = AgentRef {
        client: hook.agent.client_name().to_string(),
        cwd: hook.input.cwd.clone(),
    };
    let messages = match hook.connection.client().deliver_messages(&agent).await {
        Ok(messages) => messages,
        Err(crate::client::ClientError::Unreachable { .. }) => return None,
        Err(error) => {
            eprintln!("hark hook: {error}");
            return None;
        }
    };
    let messages: Vec<PersonMessage> = messages.iter().map(PersonMessage::from).collect();
    let context = for_the_agent(&messages)?;
    Some(json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": context,
        }
    }))
}

async fn ask_questions(hook: &Hook<'_>) -> Option<Value> {
    let input = hook.input;
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
        source: Some(hook.source()),
        ..AskRequest::default()
    };
    let result = hook.ask(request).await?;
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

/// What a tool call would do: its command, file or the like, else its input (shown literally by
/// `literal_block`).
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
    named.unwrap_or_else(|| tool_input.to_string())
}

/// The language the person reads Hark in: the daemon's (picked last in a browser), else this
/// desktop's.
async fn person_lang(hook: &Hook<'_>) -> Lang {
    match hook.connection.client().config().await {
        Ok(config) => hark_text::negotiate::daemon_lang(&config),
        Err(_) => hark_text::negotiate::desktop_lang(),
    }
}

/// Claude Code's "always allow" choices the person may pick: each one's label (the rule it
/// keeps), where Claude Code keeps it, and the entry itself.
fn always(lang: Lang, suggestions: &[Value]) -> Vec<(String, String, Value)> {
    let texts = |list: &Value| -> Option<String> {
        let texts: Vec<&str> = list.as_array()?.iter().filter_map(Value::as_str).collect();
        Some(texts.join(", "))
    };
    let rules = |rules: &Value| -> Option<String> {
        let rules: Vec<String> = (rules.as_array()?.iter())
            .filter_map(|rule| {
                let tool = rule["toolName"].as_str()?;
                Some(match rule["ruleContent"].as_str() {
                    Some(content) => format!("{tool}({content})"),
                    None => tool.to_string(),
                })
            })
            .collect();
        Some(rules.join(", "))
    };
    (suggestions.iter())
        .filter_map(|suggestion| {
            let rule = match suggestion["type"].as_str()? {
                "addRules" if suggestion["behavior"] == "allow" => rules(&suggestion["rules"])?,
                "addDirectories" => texts(&suggestion["directories"])?,
                "setMode" => suggestion["mode"].as_str()?.to_string(),
                _ => return None,
            };
            let file = match suggestion["destination"].as_str() {
                Some("session") | None => None,
                Some("localSettings") => Some(".claude/settings.local.json"),
                Some("projectSettings") => Some(".claude/settings.json"),
                Some("userSettings") => Some("~/.claude/settings.json"),
                Some(other) => Some(other),
            };
            let kept = match file {
                Some(file) => t_in(lang, "hook-always-kept", &[("place", file.into())]),
                None => t_in(lang, "hook-always-session", &[]),
            };
            let label = t_in(lang, "hook-always-allow", &[("rule", rule.into())]);
            Some((
                hark_text::plain::fit_chars(&label, 200),
                kept,
                suggestion.clone(),
            ))
        })
        .collect()
}

async fn ask_permission(hook: &Hook<'_>) -> Option<Value> {
    let input = hook.input;
    let lang = person_lang(hook).await;
    let (allow, deny) = (t_in(lang, "hook-allow", &[]), t_in(lang, "hook-deny", &[]));
    // Codex takes no other answer than allow or deny.
    let always = match hook.agent {
        HookAgent::Claude => always(lang, &input.permission_suggestions),
        HookAgent::Codex => Vec::new(),
    };
    // The command as code, whole and literal: Markdown in it, or blanks that push the rest
    // out of sight, cannot hide what the person allows.
    let asked = format!(
        "{}\n\n{}",
        t_in(
            lang,
            "hook-permission",
            &[("tool", input.tool_name.clone().into())]
        ),
        hark_text::markdown::literal_block(lang, &summary(&input.tool_input), SUMMARY_CHARS)
    );
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(input.tool_name.clone()),
            options: std::iter::once(QuestionOption::new(allow.clone()))
                .chain(always.iter().map(|(label, kept, _)| QuestionOption {
                    description: Some(kept.clone()),
                    ..QuestionOption::new(label.clone())
                }))
                .chain([QuestionOption {
                    danger: true,
                    ..QuestionOption::new(deny.clone())
                }])
                .collect(),
            allow_free_text: false,
            ..SubQuestion::text(asked)
        }],
        source: Some(hook.source()),
        ..AskRequest::default()
    };
    let result = hook.ask(request).await?;
    let chose = |label: &str| {
        result
            .answers
            .iter()
            .flatten()
            .any(|answer| answer.selected.iter().any(|picked| picked == label))
    };
    let kept = always.iter().find(|(label, _, _)| chose(label));
    let decision = match result.status {
        Status::Answered if chose(&allow) => json!({"behavior": "allow"}),
        Status::Answered if kept.is_some() => {
            let entry = kept.map(|(_, _, entry)| entry.clone());
            json!({"behavior": "allow", "updatedPermissions": [entry]})
        }
        Status::Answered if chose(&deny) => {
            json!({"behavior": "deny", "message": "The person denied this in Hark."})
        }
        // Skipped, timed out or withdrawn: the agent asks in its own dialog.
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
        assert!(long.contains(&"x".repeat(600)));
    }
}
