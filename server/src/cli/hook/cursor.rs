//! Cursor's agent hooks: `beforeShellExecution` and `beforeMCPExecution` asked in Hark
//! (`permission`), and `stop` handing over a message the person left for the agent.
//!
//! Shapes from Cursor's hooks documentation (cursor.com/docs/hooks) and its own hooks in
//! `cursor/cookbook` (`hooks/.cursor/hooks.json`) and `cursor/plugins`: hooks are
//! `~/.cursor/hooks.json` or a project's `.cursor/hooks.json` (`"version": 1`, entries with
//! `command` and `timeout` in seconds); every input has `hook_event_name`,
//! `conversation_id`, `workspace_roots`; `beforeShellExecution` adds `command` and `cwd`,
//! `beforeMCPExecution` adds `tool_name`, `tool_input` (a JSON string) and the server
//! (`mcp_server_name`, `url` or `command`); both are answered `{"permission": "allow" | "deny" |
//! "ask", "user_message", "agent_message"}`. A hook that fails, times out or prints what is not
//! JSON lets the action through unless `failClosed` is set, so this always prints JSON: with no
//! answer in time (or a skip) it answers "ask", and Cursor asks in its own dialog. `stop` (with
//! `status` and `loop_count`) is answered `{"followup_message": …}`, which Cursor sends as the
//! person's next message (5 follow-ups at most unless `loop_limit` says otherwise), or `{}`.
//!
//! The session (SPEC §20, `session`), by `conversation_id`: `beforeSubmitPrompt` says it works
//! (answered `{"continue": true}`), `afterAgentResponse` gives what it said (`text`), `stop` that
//! it finished; there a message from the person (waiting, or coming within `continueWaitSecs`
//! while Cursor still takes follow-ups and the turn `completed`) is the follow-up. Cursor has no
//! hook for its own approval dialog, so it is never seen waiting there.

use super::permission::{self, Picked};
use super::{Hook, person_lang, session};
use hark_core::model::SessionState;
use hark_text::t_in;
use serde::Deserialize;
use serde_json::{Value, json};

/// The fields of Cursor's hook input that Hark reads.
#[derive(Deserialize)]
pub struct CursorInput {
    hook_event_name: String,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Option<String>,
    #[serde(default)]
    mcp_server_name: Option<String>,
    /// `stop`: how many follow-ups Cursor has sent on its own in this conversation.
    #[serde(default)]
    loop_count: u32,
    /// `stop`: `completed`, `aborted` or `error`.
    status: Option<String>,
    /// `afterAgentResponse`: what the agent said.
    text: Option<String>,
    conversation_id: Option<String>,
}

/// Cursor's follow-ups at most, unless a hook's `loop_limit` says otherwise: past them it
/// ignores `followup_message`.
const FOLLOW_UPS: u32 = 5;

/// Cursor's "ask the person in your own dialog".
fn ask_in_cursor() -> Value {
    json!({"permission": "ask"})
}

/// Cursor's answer to its hook's `input`; `None` for events Hark leaves alone.
pub async fn answer(hook: &Hook<'_>, input: &CursorInput) -> Option<Value> {
    let (tool, what) = match input.hook_event_name.as_str() {
        "beforeShellExecution" => match &input.command {
            Some(command) => ("Shell".to_string(), json!({ "command": command })),
            None => return Some(ask_in_cursor()),
        },
        "beforeMCPExecution" => {
            let Some(tool) = input.tool_name.clone() else {
                return Some(ask_in_cursor());
            };
            let tool = match &input.mcp_server_name {
                Some(server) => format!("{server}: {tool}"),
                None => tool,
            };
            // Cursor gives the tool's input as JSON in a string.
            let given = input.tool_input.clone().unwrap_or_default();
            (
                tool,
                serde_json::from_str(&given).unwrap_or(Value::String(given)),
            )
        }
        "stop" => return Some(stopped(hook, input).await),
        "beforeSubmitPrompt" => {
            let id = input.conversation_id.as_deref();
            session::report(hook, id, SessionState::Working, None).await;
            return Some(json!({"continue": true}));
        }
        "afterAgentResponse" => {
            let (id, said) = (input.conversation_id.as_deref(), input.text.as_deref());
            session::report(hook, id, SessionState::Working, said).await;
            return None;
        }
        _ => return None,
    };
    let lang = person_lang(hook).await;
    Some(match permission::ask(hook, lang, &tool, &what, &[]).await {
        Some(Picked::Allow) => json!({"permission": "allow"}),
        Some(Picked::Deny) => json!({
            "permission": "deny",
            "user_message": t_in(lang, "hook-denied", &[]),
            "agent_message": "The person denied this in Hark.",
        }),
        // Skipped or no answer in time: Cursor asks in its own dialog.
        Some(Picked::Extra(_)) | None => ask_in_cursor(),
    })
}

/// `stop`: the session finished; the messages the person left for this agent (Cursor in its
/// workspace) become the next message Cursor sends, marked delivered, waiting for one as
/// `continueWaitSecs` says; nothing waiting, or no daemon: `{}`. Past Cursor's limit a follow-up
/// would be dropped: the messages wait for the next turn.
async fn stopped(hook: &Hook<'_>, input: &CursorInput) -> Value {
    let id = input.conversation_id.as_deref();
    if input.loop_count >= FOLLOW_UPS {
        session::report(hook, id, SessionState::Finished, None).await;
        return json!({});
    }
    let completed = input
        .status
        .as_deref()
        .is_none_or(|status| status == "completed");
    match session::end_of_turn(hook, id, None, completed).await {
        Some(followup) => json!({ "followup_message": followup }),
        None => json!({}),
    }
}
