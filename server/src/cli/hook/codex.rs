//! Codex's `PermissionRequest` hook: "Allow <tool>?" asked in Hark (`permission`). Its input
//! (`hook_event_name`, `tool_name` such as `Bash`, `apply_patch` or `mcp__server__tool`,
//! `tool_input` with `command` and an optional `description`, `cwd`) and its output
//! (`hookSpecificOutput.hookEventName` and `decision.behavior` / `decision.message`, every
//! other field refused) are as openai/codex reads them in
//! `codex-rs/hooks/src/events/permission_request.rs` and
//! `codex-rs/hooks/src/engine/output_parser.rs`. Empty output (exit 0) leaves Codex's own
//! approval prompt; its hooks time out after `timeout` seconds (600 unless set).

use super::permission::{self, Picked};
use super::{Hook, person_lang};
use serde::Deserialize;
use serde_json::{Value, json};

/// The fields of Codex's hook input that Hark reads.
#[derive(Deserialize)]
pub struct CodexInput {
    hook_event_name: String,
    #[serde(default)]
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
}

/// Codex's answer to its hook's `input`, or `None` to leave the event to Codex.
pub async fn answer(hook: &Hook<'_>, input: &CodexInput) -> Option<Value> {
    if input.hook_event_name != "PermissionRequest" {
        return None;
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
