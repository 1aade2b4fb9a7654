//! GitHub Copilot CLI's `permissionRequest` hook: "Allow <tool>?" asked in Hark (`permission`).
//!
//! Shapes from GitHub's hooks reference (github/docs,
//! `content/copilot/reference/hooks-reference.md`: hook files `.github/hooks/*.json` or
//! `~/.copilot/hooks/*.json`, `"version": 1`, camelCase events, `timeoutSec` 30 unless set) and
//! from Copilot CLI 1.0.102 itself, run against a stand-in model: its input is camelCase
//! (`hookName: "permissionRequest"`, `sessionId`, `timestamp`, `cwd`, `toolName` such as `bash`,
//! `edit` or `web_fetch`, `toolInput` an object: `{command}`, `{file_path, diff}`, `{url}`);
//! its output is top-level `{"behavior": "allow"}` or `{"behavior": "deny", "message": …}`,
//! and empty output leaves Copilot's own prompt. Copilot denies the tool when a hook exits
//! non-zero or prints what is not JSON, so this always exits 0 and prints JSON or nothing; a
//! hook that outlives `timeoutSec` falls through to Copilot's prompt.

use super::permission::{self, Picked};
use super::{Hook, person_lang};
use serde::Deserialize;
use serde_json::{Value, json};

/// The fields of Copilot CLI's hook input that Hark reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopilotInput {
    #[serde(default)]
    hook_name: Option<String>,
    #[serde(default)]
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
}

/// Copilot CLI's answer to its hook's `input`, or `None` to leave it to Copilot's prompt.
pub async fn answer(hook: &Hook<'_>, input: &CopilotInput) -> Option<Value> {
    let asks = input.hook_name.as_deref().unwrap_or("permissionRequest") == "permissionRequest";
    if !asks || input.tool_name.is_empty() {
        return None;
    }
    let lang = person_lang(hook).await;
    Some(
        match permission::ask(hook, lang, &input.tool_name, &input.tool_input, &[]).await? {
            Picked::Allow => json!({"behavior": "allow"}),
            Picked::Deny => {
                json!({"behavior": "deny", "message": "The person denied this in Hark."})
            }
            Picked::Extra(_) => return None,
        },
    )
}
