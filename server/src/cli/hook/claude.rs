//! Claude Code's hooks (its hooks reference, code.claude.com/docs/en/hooks), each event asked
//! in Hark the way Claude Code would ask it in the terminal:
//! - `PreToolUse` of `AskUserQuestion`: the same questions, and the person's choices answer the
//!   tool (`updatedInput` with `answers`, question text → the chosen label, several joined by
//!   ", ", as Claude Code's guide to answering clarifying questions (Agent SDK, "user input")
//!   describes); a skip denies with the note;
//! - `PreToolUse` of `ExitPlanMode`: the plan to approve (`plan`);
//! - `Elicitation`: another MCP server's form (`elicitation`);
//! - `PermissionRequest`: "Allow <tool>?" (`permission`) and the `decision` (`behavior` "allow"
//!   / "deny", `message`); each of its `permission_suggestions` (its "always allow" choices: a
//!   rule, a directory, a mode) is a choice of its own, labelled with the rule and where Claude
//!   Code keeps it, and picking it allows with that entry as `updatedPermissions` (the
//!   reference's "Permission update entries": a hook may echo a suggestion, as the person
//!   picking it in the dialog would);
//! - `PostToolUse` (SPEC §18): the messages the person left for Claude Code in the hook's `cwd`
//!   (the agent its MCP client, `claude-code`, names) go back as
//!   `hookSpecificOutput.additionalContext` ("PostToolUse decision control"), which Claude Code
//!   adds to the model's context after the tool's result. Nothing waiting, or no daemon
//!   running: no output;
//! - the session (SPEC §20, `session`): `UserPromptSubmit` and `PostToolUse` say it works;
//!   `Notification` of a `permission_prompt` or an `elicitation_dialog` that it waits in its own
//!   dialog (with the notification's `message`), an `idle_prompt` that it finished; `Stop` that
//!   it finished, with `last_assistant_message` (Claude Code 2.1.47 and later), and a message
//!   from the person (waiting, or coming within `continueWaitSecs`) continues it:
//!   `{"decision": "block", "reason": …}` ("Stop decision control"); while `stop_hook_active`
//!   says a hook continues it already, only a message waiting does. `StopFailure` finishes it
//!   with the error; `SessionEnd` ends it. Each carries the input's `session_id`.
//!
//! The input's fields are the reference's (`hook_event_name`, `tool_name`, `tool_input`, `cwd`,
//! and each event's own); every answer is `hookSpecificOutput` with `hookEventName`.

use super::permission::{self, Extra, Picked};
use super::{Hook, elicitation, person_lang, plan, session};
use hark_core::model::{AskRequest, QuestionOption, SessionState, Status, SubQuestion};
use hark_text::{Lang, t_in};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The fields of Claude Code's hook input that Hark reads.
#[derive(Deserialize)]
pub struct ClaudeInput {
    pub hook_event_name: String,
    #[serde(default)]
    pub tool_name: String,
    #[serde(default)]
    pub tool_input: Value,
    /// `PermissionRequest`: Claude Code's "always allow" choices.
    #[serde(default)]
    pub permission_suggestions: Vec<Value>,
    /// `Elicitation`: the MCP server that asks, its words, the form's mode and schema.
    #[serde(default)]
    pub mcp_server_name: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub requested_schema: Option<Value>,
    /// Every event's session.
    pub session_id: Option<String>,
    /// `Stop`, `StopFailure`: what Claude said last (for `StopFailure`, the error).
    pub last_assistant_message: Option<String>,
    /// `Stop`: a stop hook continues Claude already.
    #[serde(default)]
    pub stop_hook_active: bool,
    /// `Notification`: what it is about (`permission_prompt`, `idle_prompt`…).
    pub notification_type: Option<String>,
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

/// Claude Code's answer to its hook's `input`, or `None` to leave the event to Claude Code.
pub async fn answer(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
    let session_id = input.session_id.as_deref();
    match (input.hook_event_name.as_str(), input.tool_name.as_str()) {
        ("PreToolUse", "AskUserQuestion") => ask_questions(hook, input).await,
        ("PreToolUse", "ExitPlanMode") => plan::ask(hook, input).await,
        ("Elicitation", _) => elicitation::ask(hook, input).await,
        // Asked in Hark already at `PreToolUse`: unanswered there, they are the person's in
        // Claude Code's own dialog, not a second question here.
        ("PermissionRequest", "AskUserQuestion" | "ExitPlanMode") => None,
        ("PermissionRequest", _) => ask_permission(hook, input).await,
        ("PostToolUse", _) => {
            let working = session::report(hook, session_id, SessionState::Working, None);
            let (_, context) = tokio::join!(working, hand_over_messages(hook));
            context
        }
        ("Notification", _) => {
            // An idle prompt only confirms the end of a turn (`Stop` told it, with what Claude
            // said): its own words ("Claude is waiting for your input") replace nothing.
            let (state, said) = match input.notification_type.as_deref() {
                Some("permission_prompt" | "elicitation_dialog") => {
                    (SessionState::Waiting, input.message.as_deref())
                }
                Some("idle_prompt") => (SessionState::Finished, None),
                _ => return None,
            };
            session::report(hook, session_id, state, said).await;
            None
        }
        (event, _) => {
            let turn = session::Turn {
                event,
                session_id,
                said: input.last_assistant_message.as_deref(),
                continued: input.stop_hook_active,
            };
            session::turn(hook, &turn).await.flatten()
        }
    }
}

/// Claude Code's `PostToolUse`: the messages the person left for this agent (Claude Code in
/// the hook's `cwd`) go to the model as `additionalContext`, and are marked delivered. Runs
/// after every tool call, so it never starts the daemon and stays quiet when it is not running.
async fn hand_over_messages(hook: &Hook<'_>) -> Option<Value> {
    let context = session::waiting_messages(hook, 0).await?;
    Some(json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": context,
        }
    }))
}

async fn ask_questions(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
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
            let label = match suggestion["type"].as_str()? {
                "addRules" if suggestion["behavior"] == "allow" => {
                    let rule = rules(&suggestion["rules"])?;
                    t_in(lang, "hook-always-allow", &[("rule", rule.into())])
                }
                "addDirectories" => {
                    let rule = texts(&suggestion["directories"])?;
                    t_in(lang, "hook-always-allow", &[("rule", rule.into())])
                }
                "setMode" => {
                    let mode = suggestion["mode"].as_str()?.to_string();
                    t_in(lang, "hook-always-mode", &[("mode", mode.into())])
                }
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
            Some((
                hark_text::plain::fit_chars(&label, 200),
                kept,
                suggestion.clone(),
            ))
        })
        // Labels are unique in a question: a suggestion that reads as one before is left out.
        .fold(
            Vec::new(),
            |mut kept: Vec<(String, String, Value)>, choice| {
                if !kept.iter().any(|(label, ..)| *label == choice.0) {
                    kept.push(choice);
                }
                kept
            },
        )
}

async fn ask_permission(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
    let lang = person_lang(hook).await;
    let always = always(lang, &input.permission_suggestions);
    let extras: Vec<Extra> = (always.iter())
        .map(|(label, kept, _)| Extra {
            label: label.clone(),
            description: kept.clone(),
        })
        .collect();
    let (tool, tool_input) = (&input.tool_name, &input.tool_input);
    let decision = match permission::ask(hook, lang, tool, tool_input, &extras).await? {
        Picked::Allow => json!({"behavior": "allow"}),
        Picked::Extra(index) => {
            json!({"behavior": "allow", "updatedPermissions": [always[index].2]})
        }
        Picked::Deny => json!({"behavior": "deny", "message": "The person denied this in Hark."}),
    };
    Some(json!({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": decision,
    }}))
}
