//! The stdio shim's messages, rewritten between a 2025-11-25 client that uses the experimental
//! tasks of that revision and rmcp, which speaks only the tasks extension of 2026-07-28
//! (SEP-2663). The two carry the same things in other shapes (the 2025-11-25 schema,
//! `schema/2025-11-25/schema.ts`, and its `basic/utilities/tasks.mdx`):
//!
//! - the server declares `capabilities.tasks` (`cancel`, `requests.tools.call`; not `list`) in
//!   its `initialize` answer, and `ask_user` says `execution.taskSupport: "optional"` in
//!   `tools/list`;
//! - a `tools/call` with `task: {ttl}` asks for a task: rmcp would drop that field, so it
//!   becomes the extension's per-request capability (`_meta`,
//!   `io.modelcontextprotocol/clientCapabilities`, the client's own from `initialize` plus the
//!   extension), which `tasks/get` and `tasks/cancel` need too;
//! - rmcp's flat task (`resultType`, `ttlMs`, `pollIntervalMs`, the result inlined) goes back
//!   as the 2025-11-25 `Task` (`ttl`, `pollInterval`), nested under `task` when it answers the
//!   call, and `tasks/cancel` answers with the task, `cancelled` (and it stays so);
//! - `tasks/result` needs no rewriting: `HarkMcp` answers it (`tasks_2025.rs`).
//!
//! Hand-written because rmcp has no hook before its typed parsing, where `task` is lost. It
//! reads one JSON-RPC message per line, as the stdio transport frames them; a line it cannot
//! read passes through untouched, for rmcp to answer.

use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The revision whose experimental tasks this bridge translates.
pub const REVISION: &str = "2025-11-25";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The tool that runs as a task.
const TASK_TOOL: &str = "ask_user";
/// Bytes between the bridge and rmcp, each way.
const PIPE_BYTES: usize = 64 * 1024;

/// What an answer to one of the client's requests becomes.
#[derive(Clone, Debug, PartialEq)]
enum Reshape {
    Initialized,
    ToolsListed,
    /// A `tools/call` that asked for a task.
    TaskCreated,
    TaskGot,
    TaskCancelled {
        task_id: String,
    },
}

/// What the bridge knows of the conversation.
#[derive(Default)]
pub struct Bridge {
    /// The client asked for 2025-11-25 and rmcp agreed.
    speaks_2025: bool,
    /// The client's capabilities from `initialize`.
    capabilities: Value,
    waiting: HashMap<String, Reshape>,
    /// The last state of each task, as the client was told it.
    tasks: HashMap<String, Value>,
    cancelled: HashSet<String>,
}

fn key(id: &Value) -> String {
    id.to_string()
}

impl Bridge {
    /// A message from the client, made what rmcp reads.
    pub fn client_said(&mut self, mut message: Value) -> Value {
        let (Some(method), Some(id)) = (
            message["method"].as_str().map(str::to_string),
            message.get("id").map(key),
        ) else {
            return message;
        };
        if method == "initialize" {
            if message["params"]["protocolVersion"] == REVISION {
                self.capabilities = message["params"]["capabilities"].clone();
                self.waiting.insert(id, Reshape::Initialized);
            }
            return message;
        }
        if !self.speaks_2025 {
            return message;
        }
        let reshape = match method.as_str() {
            "tools/list" => {
                self.waiting.insert(id, Reshape::ToolsListed);
                return message;
            }
            "tools/call" => {
                let Some(params) = message["params"].as_object_mut() else {
                    return message;
                };
                if params.remove("task").is_none_or(|task| !task.is_object()) {
                    return message;
                }
                Reshape::TaskCreated
            }
            "tasks/get" => Reshape::TaskGot,
            "tasks/cancel" => Reshape::TaskCancelled {
                task_id: message["params"]["taskId"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            },
            _ => return message,
        };
        self.declare_tasks(&mut message);
        self.waiting.insert(id, reshape);
        message
    }

    /// Puts the client's capabilities, with the tasks extension, in the request's `_meta`.
    fn declare_tasks(&self, message: &mut Value) {
        let mut capabilities = match &self.capabilities {
            Value::Object(capabilities) => capabilities.clone(),
            _ => Map::new(),
        };
        let extensions = capabilities
            .entry("extensions")
            .or_insert_with(|| json!({}));
        if let Some(extensions) = extensions.as_object_mut() {
            extensions.insert(TASKS_EXTENSION.into(), json!({}));
        }
        if !message["params"].is_object() {
            message["params"] = json!({});
        }
        let params = &mut message["params"];
        if !params["_meta"].is_object() {
            params["_meta"] = json!({});
        }
        params["_meta"][CLIENT_CAPABILITIES] = Value::Object(capabilities);
    }

    /// A message from rmcp, made what a 2025-11-25 client reads.
    pub fn server_said(&mut self, mut message: Value) -> Value {
        let Some(reshape) = message
            .get("id")
            .filter(|_| message.get("method").is_none())
            .and_then(|id| self.waiting.remove(&key(id)))
        else {
            return message;
        };
        let Some(result) = message.get_mut("result") else {
            return message;
        };
        match reshape {
            Reshape::Initialized => {
                if result["protocolVersion"] == REVISION && result["capabilities"].is_object() {
                    self.speaks_2025 = true;
                    result["capabilities"]["tasks"] =
                        json!({"cancel": {}, "requests": {"tools": {"call": {}}}});
                }
            }
            Reshape::ToolsListed => {
                for tool in result["tools"].as_array_mut().into_iter().flatten() {
                    if tool["name"] == TASK_TOOL {
                        tool["execution"] = json!({"taskSupport": "optional"});
                    }
                }
            }
            Reshape::TaskCreated => {
                if result["resultType"] == "task" {
                    let task = self.task_of(result);
                    let mut created = json!({ "task": task });
                    if let Some(meta) = result.get("_meta") {
                        created["_meta"] = meta.clone();
                    }
                    *result = created;
                }
            }
            Reshape::TaskGot => {
                if result["taskId"].is_string() {
                    *result = self.task_of(result);
                }
            }
            Reshape::TaskCancelled { task_id } => {
                let mut task = self
                    .tasks
                    .get(&task_id)
                    .cloned()
                    .unwrap_or_else(|| json!({"taskId": task_id, "ttl": null}));
                let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                if task.get("createdAt").is_none() {
                    task["createdAt"] = json!(now);
                }
                task["status"] = json!("cancelled");
                task["lastUpdatedAt"] = json!(now);
                self.cancelled.insert(task_id.clone());
                self.tasks.insert(task_id, task.clone());
                *result = task;
            }
        }
        message
    }

    /// rmcp's flat task as a 2025-11-25 `Task`, remembered.
    fn task_of(&mut self, flat: &Value) -> Value {
        let task_id = flat["taskId"].as_str().unwrap_or_default().to_string();
        let failed = flat["status"] == "completed" && flat["result"]["isError"] == true;
        let status = if self.cancelled.contains(&task_id) {
            json!("cancelled")
        } else if failed {
            json!("failed")
        } else {
            flat["status"].clone()
        };
        let mut task = json!({
            "taskId": task_id,
            "status": status,
            "createdAt": flat["createdAt"],
            "lastUpdatedAt": flat["lastUpdatedAt"],
            "ttl": flat.get("ttlMs").cloned().unwrap_or(Value::Null),
        });
        if let Some(message) = flat.get("statusMessage") {
            task["statusMessage"] = message.clone();
        }
        if let Some(every) = flat.get("pollIntervalMs") {
            task["pollInterval"] = every.clone();
        }
        self.tasks.insert(task_id, task.clone());
        task
    }
}

/// Copies lines from `from` to `to`, each message rewritten by `rewrite`; ends when `from`
/// ends (or `to` is gone), then closes `to`.
async fn pump(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    bridge: Arc<Mutex<Bridge>>,
    rewrite: fn(&mut Bridge, Value) -> Value,
) {
    let mut lines = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let out = match serde_json::from_slice::<Value>(&line) {
            Ok(message) if message.is_object() => {
                let message = rewrite(
                    &mut bridge.lock().unwrap_or_else(|poison| poison.into_inner()),
                    message,
                );
                let mut out = serde_json::to_vec(&message).unwrap_or_default();
                out.push(b'\n');
                out
            }
            _ => std::mem::take(&mut line),
        };
        if to.write_all(&out).await.is_err() || to.flush().await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// Stands between the client on `input`/`output` and rmcp: the reader and writer rmcp serves.
pub fn stand_between(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> (tokio::io::DuplexStream, tokio::io::DuplexStream) {
    let bridge = Arc::new(Mutex::new(Bridge::default()));
    let (rmcp_reads, client_side) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_writes, server_side) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(pump(
        input,
        client_side,
        bridge.clone(),
        Bridge::client_said,
    ));
    tokio::spawn(pump(server_side, output, bridge, Bridge::server_said));
    (rmcp_reads, rmcp_writes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn initialized(capabilities: Value) -> Bridge {
        let mut bridge = Bridge::default();
        bridge.client_said(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": REVISION, "capabilities": capabilities,
                       "clientInfo": {"name": "c", "version": "1"}}}));
        let answer = bridge.server_said(json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": REVISION, "capabilities": {"tools": {}}, "serverInfo": {"name": "hark", "version": "0"}}}));
        assert_eq!(
            answer["result"]["capabilities"]["tasks"],
            json!({"cancel": {}, "requests": {"tools": {"call": {}}}})
        );
        bridge
    }

    #[test]
    fn a_task_call_declares_the_extension_with_the_clients_own_capabilities() {
        let mut bridge = initialized(json!({"elicitation": {"form": {}}}));
        let call = bridge.client_said(json!({"jsonrpc": "2.0", "id": "c1", "method": "tools/call",
            "params": {"name": "ask_user", "arguments": {}, "task": {"ttl": 60000}}}));
        assert!(call["params"].get("task").is_none());
        assert_eq!(
            call["params"]["_meta"][CLIENT_CAPABILITIES],
            json!({"elicitation": {"form": {}}, "extensions": {TASKS_EXTENSION: {}}})
        );
        // A call without `task` is left as it is.
        let plain = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask_user"}});
        assert_eq!(bridge.client_said(plain.clone()), plain);
    }

    #[test]
    fn rmcps_flat_task_goes_back_nested_and_renamed() {
        let mut bridge = initialized(json!({}));
        bridge.client_said(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "ask_user", "task": {}}}));
        let created = bridge.server_said(json!({"jsonrpc": "2.0", "id": 5, "result": {
            "resultType": "task", "taskId": "t1", "status": "working", "statusMessage": "waiting",
            "createdAt": "2026-12-03T08:00:00Z", "lastUpdatedAt": "2026-12-03T08:00:00Z",
            "ttlMs": null, "pollIntervalMs": 2000}}));
        assert_eq!(
            created["result"],
            json!({"task": {"taskId": "t1", "status": "working", "statusMessage": "waiting",
                "createdAt": "2026-12-03T08:00:00Z", "lastUpdatedAt": "2026-12-03T08:00:00Z",
                "ttl": null, "pollInterval": 2000}})
        );
        // A tool error is a failed task.
        bridge.client_said(
            json!({"jsonrpc": "2.0", "id": 6, "method": "tasks/get", "params": {"taskId": "t1"}}),
        );
        let got = bridge.server_said(json!({"jsonrpc": "2.0", "id": 6, "result": {
            "resultType": "complete", "taskId": "t1", "status": "completed",
            "createdAt": "a", "lastUpdatedAt": "b", "ttlMs": null,
            "result": {"content": [], "isError": true}}}));
        assert_eq!(got["result"]["status"], "failed");
        assert!(got["result"].get("result").is_none());
    }

    #[test]
    fn a_cancelled_task_says_so_and_stays_cancelled() {
        let mut bridge = initialized(json!({}));
        bridge.client_said(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": "t"}}),
        );
        bridge.server_said(json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
            "taskId": "t", "status": "working", "createdAt": "a", "lastUpdatedAt": "a", "ttlMs": null}}));
        let cancel = bridge.client_said(
            json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel", "params": {"taskId": "t"}}),
        );
        assert!(
            cancel["params"]["_meta"][CLIENT_CAPABILITIES]["extensions"][TASKS_EXTENSION]
                .is_object()
        );
        let cancelled = bridge
            .server_said(json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete"}}));
        assert_eq!(cancelled["result"]["status"], "cancelled");
        assert_eq!(cancelled["result"]["createdAt"], "a");
        bridge.client_said(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "t"}}),
        );
        let later = bridge.server_said(json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
            "taskId": "t", "status": "completed", "createdAt": "a", "lastUpdatedAt": "c", "ttlMs": null,
            "result": {"content": []}}}));
        assert_eq!(later["result"]["status"], "cancelled");
        // An error passes as it is.
        bridge.client_said(
            json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel", "params": {"taskId": "x"}}),
        );
        let refused = json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "unknown task: x"}});
        assert_eq!(bridge.server_said(refused.clone()), refused);
    }

    #[test]
    fn other_revisions_pass_untouched() {
        let mut bridge = Bridge::default();
        bridge.client_said(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}}}));
        let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18", "capabilities": {}}});
        assert_eq!(bridge.server_said(answer.clone()), answer);
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask_user", "task": {}}});
        assert_eq!(bridge.client_said(call.clone()), call);
        let list = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "ask_user"}]}});
        assert_eq!(bridge.server_said(list.clone()), list);
    }
}
