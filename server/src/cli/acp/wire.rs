//! The few shapes of the Agent Client Protocol (v1) the proxy reads and writes, as lenient serde
//! structs: a line's routing fields, `session/request_permission` and its answer, the tool calls
//! announced in `session/update`, `elicitation/create`'s form and its answer, and
//! `$/cancel_request`. Hand-written (the protocol's `agent-client-protocol-schema` crate
//! rejects a whole request over an option kind it does not know, and moves fast), after
//! `schema/v1/schema.json` of agentclientprotocol/agent-client-protocol b7f0005 (schema 1.7.0)
//! and the crate 1.20.0. Lines are newline-delimited JSON-RPC 2.0 (`transports.mdx`).

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// What routing needs of a line: its id, method and params (a response has no method).
#[derive(Debug, Default, Deserialize)]
pub struct Peek {
    #[serde(default)]
    pub id: Option<Value>,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub params: Value,
    #[serde(default)]
    pub result: Value,
}

/// Reads a line's routing fields; `None` for what is no JSON-RPC object (a batch, noise).
pub fn peek(line: &str) -> Option<Peek> {
    serde_json::from_str::<Peek>(line).ok()
}

impl Peek {
    /// A request's id (a request carries a method and an id that is not null).
    pub fn request_id(&self) -> Option<&Value> {
        self.method.as_ref()?;
        self.id.as_ref().filter(|id| !id.is_null())
    }

    /// A response's id (no method).
    pub fn response_id(&self) -> Option<&Value> {
        if self.method.is_some() {
            return None;
        }
        self.id.as_ref()
    }
}

/// `session/request_permission`'s params.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequest {
    pub session_id: String,
    pub tool_call: ToolCall,
    pub options: Vec<PermissionOption>,
}

/// A tool call as `session/update` announces it, or a permission request names it: only its id
/// is sure to be there.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    pub tool_call_id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub raw_input: Option<Value>,
}

impl ToolCall {
    /// This call, with what `later` says filled in.
    pub fn merged(mut self, later: &ToolCall) -> ToolCall {
        if later.title.is_some() {
            self.title.clone_from(&later.title);
        }
        if later.kind.is_some() {
            self.kind.clone_from(&later.kind);
        }
        if later.raw_input.is_some() {
            self.raw_input.clone_from(&later.raw_input);
        }
        self
    }
}

/// One choice of a permission request: `kind` is `allow_once`, `allow_always`, `reject_once`
/// or `reject_always` (kept as text: a kind this release does not know is still a choice).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionOption {
    pub option_id: String,
    pub name: String,
    #[serde(default)]
    pub kind: String,
}

/// A `session/update` that announces or updates a tool call: the session and the call.
pub fn tool_call_update(params: &Value) -> Option<(String, ToolCall)> {
    let update = params.get("update")?;
    let kind = update.get("sessionUpdate")?.as_str()?;
    if kind != "tool_call" && kind != "tool_call_update" {
        return None;
    }
    let session = params.get("sessionId")?.as_str()?.to_string();
    let call = ToolCall::deserialize(update).ok()?;
    Some((session, call))
}

/// `elicitation/create`'s params, form mode.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormRequest {
    pub message: String,
    pub mode: String,
    /// Its session, when it belongs to one (a form may also belong to a request).
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub requested_schema: Option<Value>,
}

/// The answer to the agent's request `id`: a permission's chosen option.
pub fn selected(id: &Value, option_id: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id,
           "result": {"outcome": {"outcome": "selected", "optionId": option_id}}})
    .to_string()
}

/// The answer to the agent's form `id`: accepted with `content`, or declined.
pub fn form_answer(id: &Value, content: Option<Map<String, Value>>) -> String {
    let result = match content {
        Some(content) => json!({"action": "accept", "content": content}),
        None => json!({"action": "decline"}),
    };
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// Tells the editor its copy of request `id` was answered elsewhere (`$/cancel_request`).
pub fn cancel_request(id: &Value) -> String {
    json!({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": id}}).to_string()
}
