//! Codex's hooks: `PermissionRequest`, "Allow <tool>?" asked in Hark (`permission`); and its
//! session (SPEC §20, `session`), whose events take Claude Code's shapes
//! (`codex-rs/hooks/schema/generated/*.command.input.schema.json`): `UserPromptSubmit` and
//! `PostToolUse` say it works, `Stop` that it finished with `last_assistant_message` (and a
//! message from the person continues it, `{"decision": "block", "reason": …}` as
//! `stop.command.output.schema.json` takes it; Codex sets no cap on such continuations, so
//! while `stop_hook_active` says one runs, the hook waits for none), `StopFailure` that it
//! finished with an error. Each carries `session_id`. Codex's `notify` program (`notify =
//! ["hark", "hook", "codex"]` in `config.toml`; `codex-rs/hooks/src/legacy_notify.rs` appends the
//! event's JSON as the last argument) says a turn finished: `{"type": "agent-turn-complete",
//! "thread-id", "cwd", "last-assistant-message"}`; it reads no answer. `PermissionRequest`'s input
//! (`hook_event_name`, `tool_name` such as `Bash`, `apply_patch` or `mcp__server__tool`,
//! `tool_input` with `command` and an optional `description`, `cwd`) and its output
//! (`hookSpecificOutput.hookEventName` and `decision.behavior` / `decision.message`, every
//! other field refused) are as openai/codex reads them in
//! `codex-rs/hooks/src/events/permission_request.rs` and
//! `codex-rs/hooks/src/engine/output_parser.rs`. Empty output (exit 0) leaves Codex's own
//! approval prompt; its hooks time out after `timeout` seconds (600 unless set).

use super::permission::{self, Picked};
use super::{Hook, person_lang, session};
use hark_core::model::SessionState;
use serde::Deserialize;
use serde_json::{Value, json};

/// The fields of Codex's hook input that Hark reads.
#[derive(Deserialize)]
pub struct CodexInput {
    #[serde(default)]
    hook_event_name: String,
    /// The `notify` program's event, and its fields.
    #[serde(rename = "type")]
    notified: Option<String>,
    #[serde(rename = "thread-id")]
    thread_id: Option<String>,
    #[serde(rename = "last-assistant-message")]
    turn_said: Option<String>,
    #[serde(default)]
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    session_id: Option<String>,
    last_assistant_message: Option<String>,
    #[serde(default)]
    stop_hook_active: bool,
}

/// Codex's answer to its hook's `input`, or `None` to leave the event to Codex.
pub async fn answer(hook: &Hook<'_>, input: &CodexInput) -> Option<Value> {
    if input.notified.as_deref() == Some("agent-turn-complete") {
        let (id, said) = (input.thread_id.as_deref(), input.turn_said.as_deref());
        session::report(hook, id, SessionState::Finished, said).await;
        return None;
    }
    if input.hook_event_name != "PermissionRequest" {
        let turn = session::Turn {
            event: &input.hook_event_name,
            session_id: input.session_id.as_deref(),
            said: input.last_assistant_message.as_deref(),
            continued: input.stop_hook_active,
        };
        return session::turn(hook, &turn).await.flatten();
    }
    let lang = person_lang(hook).await;
    let (tool, tool_input) = (&input.tool_name, &input.tool_input);
    let decision = match permission::ask(hook, lang, tool, tool_input, &[]).await? {
        Picked::Allow => json!({"behavior": "allow"}),
        Picked::Deny => json!({"behavior": "deny", "message": "The person denied this in Hark."}),
        // Codex is offered no other choice.
        Picked::Extra(_) => return None,
    };
    Some(json!({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": decision,
    }}))
}
