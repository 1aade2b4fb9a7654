//! Gemini CLI's hooks: `BeforeTool`, "Allow <tool>?" asked in Hark (`permission`); and its session
//! (SPEC §20, `session`): `BeforeAgent` says it works, `Notification` of a `ToolPermission` that
//! it waits in its own dialog (with the notification's `message`), `AfterAgent` that it finished
//! its turn with `prompt_response`, and a message from the person continues it: `{"decision":
//! "block", "reason": …}`, whose reason Gemini CLI sends as the next prompt (`core/client.ts`;
//! while `stop_hook_active` says a hook continues it already, the hook waits for none);
//! `SessionEnd` ends it. Each carries `session_id` (`types.ts`: `AfterAgentInput`,
//! `NotificationInput`).
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
use super::{Hook, person_lang, session};
use hark_core::model::SessionState;
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
    session_id: Option<String>,
    /// `AfterAgent`: what Gemini answered this turn.
    prompt_response: Option<String>,
    #[serde(default)]
    stop_hook_active: bool,
    /// `Notification`: its kind (`ToolPermission`) and words.
    notification_type: Option<String>,
    message: Option<String>,
}

/// Gemini CLI's answer to its hook's `input`; `None` for events Hark leaves alone.
pub async fn answer(hook: &Hook<'_>, input: &GeminiInput) -> Option<Value> {
    let id = input.session_id.as_deref();
    match input.hook_event_name.as_str() {
        "BeforeTool" if !input.tool_name.is_empty() => {}
        "BeforeAgent" => {
            session::report(hook, id, SessionState::Working, None).await;
            return None;
        }
        "Notification" if input.notification_type.as_deref() == Some("ToolPermission") => {
            let said = input.message.as_deref();
            session::report(hook, id, SessionState::Waiting, said).await;
            return None;
        }
        "AfterAgent" => {
            let said = input.prompt_response.as_deref();
            let may_wait = !input.stop_hook_active;
            let reason = session::end_of_turn(hook, id, said, may_wait).await?;
            return Some(json!({"decision": "block", "reason": reason}));
        }
        "SessionEnd" => {
            session::report(hook, id, SessionState::Ended, None).await;
            return None;
        }
        _ => return None,
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
