//! Claude Code's `Elicitation` hook (SPEC §19): the form another MCP server asks for with
//! `elicitation/create` (a deploy server asking which environment, a database asking to
//! confirm), asked in Hark (`cli::form`), so it reaches the page, the phone and every chat app.
//!
//! The shapes are Claude Code's hooks reference (code.claude.com/docs/en/hooks, "Elicitation"):
//! the input's `mcp_server_name`, `message`, `mode` (`form`; `url`, a sign-in in a browser, is
//! left to Claude Code's own dialog) and `requested_schema`; the output's `hookSpecificOutput`
//! with `hookEventName: "Elicitation"`, `action` (`accept`, `decline`) and, to accept, `content`.
//! Skip declines; no answer in time prints nothing, so Claude Code shows its own dialog.

use super::claude::ClaudeInput;
use super::{Hook, person_lang};
use crate::cli::form::{self, Filled, Form};
use hark_core::model::{AskRequest, WaitResult};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

/// The form's questions asked by the hook, each until its wait ends.
struct Until<'a> {
    hook: &'a Hook<'a>,
    deadline: Instant,
}

impl form::Asker for Until<'_> {
    fn ask(&self, request: AskRequest) -> impl Future<Output = Option<WaitResult>> + Send {
        self.hook.ask_until(request, self.deadline)
    }
}

/// The hook's answer: `action`, and the content when it accepts.
fn answer(action: &str, content: Option<Map<String, Value>>) -> Value {
    let mut output = json!({"hookEventName": "Elicitation", "action": action});
    if let Some(content) = content {
        output["content"] = Value::Object(content);
    }
    json!({ "hookSpecificOutput": output })
}

/// Asks the form in Hark; the hook's output, or `None` to leave it to Claude Code's dialog.
pub async fn ask(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
    if input.mode.as_deref().is_some_and(|mode| mode != "form") {
        return None;
    }
    let schema = input.requested_schema.as_ref()?;
    let lang = person_lang(hook).await;
    let from = input.mcp_server_name.clone().unwrap_or_default();
    let message = input.message.clone().unwrap_or_default();
    let form = Form {
        from: &from,
        message: &message,
        schema,
    };
    let until = Until {
        hook,
        deadline: Instant::now() + hook.wait,
    };
    match form::fill(lang, form, hook.source(), &until).await? {
        Filled::Accepted(content) => Some(answer("accept", Some(content))),
        Filled::Declined => Some(answer("decline", None)),
    }
}
