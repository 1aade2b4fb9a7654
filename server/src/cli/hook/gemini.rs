//! Gemini CLI's `BeforeTool` hook: "Allow <tool>?" asked in Hark (`permission`).
//!
//! Shapes from google-gemini/gemini-cli (5411f11): `docs/hooks/index.md` and
//! `packages/core/src/hooks/types.ts` (`BeforeToolInput`, `HookOutput`),
//! `hooks/hookEventHandler.ts` (the input: `session_id`, `cwd`, `hook_event_name: "BeforeTool"`,
//! `tool_name` such as `run_shell_command`, whose `tool_input` has `command`, or
//! `mcp_<server>_<tool>` with `mcp_context`) and `scheduler/hook-utils.ts` with
//! `scheduler/scheduler.ts` (what the output does). A hook's `{"decision": "deny", "reason": …}`
//! blocks the call and tells the model why; `{"decision": "ask"}` makes Gemini CLI show its own
//! confirmation dialog whatever its approval mode; `allow` changes nothing, so Gemini CLI still
//! asks where its policy says to. Hark is therefore the one place to answer when Gemini CLI runs
//! with its tools approved (`--approval-mode=yolo`, or a policy that allows them): Allow lets the
//! call run, Deny blocks it, and with no answer in time (or a skip) the hook answers "ask", so
//! the person at the terminal decides in Gemini CLI's own dialog. Its hooks time out after
//! `timeout` milliseconds (60000 unless set), which `--wait` stays under.

use super::permission::{self, Picked};
use super::{Hook, person_lang};
use serde::Deserialize;
use serde_json::{Value, json};

/// The fields of Gemini CLI's hook input that Hark reads.
#[derive(Deserialize)]
pub struct GeminiInput {
    hook_event_name: String,
    #[serde(default)]
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
}

/// Gemini CLI's answer to its hook's `input`; `None` for events Hark leaves alone.
pub async fn answer(hook: &Hook<'_>, input: &GeminiInput) -> Option<Value> {
    if input.hook_event_name != "BeforeTool" || input.tool_name.is_empty() {
        return None;
    }
    let lang = person_lang(hook).await;
    Some(
        match permission::ask(hook, lang, &input.tool_name, &input.tool_input, &[]).await {
            Some(Picked::Allow) => json!({"decision": "allow"}),
            Some(Picked::Deny) => {
                json!({"decision": "deny", "reason": "The person denied this in Hark."})
            }
            // Skipped or no answer in time: Gemini CLI asks in its own dialog.
            Some(Picked::Extra(_)) | None => json!({"decision": "ask"}),
        },
    )
}
