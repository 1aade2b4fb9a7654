//! `hark acp -- <agent command…>` (SPEC §19): runs an Agent Client Protocol agent behind a
//! transparent proxy. An editor (Zed, or any ACP client) starts Hark in the agent's place; every
//! line passes unchanged, byte for byte, in both directions, and the agent's
//! `session/request_permission` is also asked in Hark at once. The first answer wins: an
//! editor's reply withdraws the Hark question; an answer in Hark goes to the agent, the editor
//! is told its copy is answered (`$/cancel_request`), and its late reply is dropped. Only
//! protocol version 1 (as the agent's `initialize` answer says) is intercepted; anything else
//! passes through. Shapes and rules: the protocol's `schema/v1/schema.json`,
//! `docs/protocol/v1/{transports,tool-calls,cancellation,prompt-turn}.mdx`
//! (agentclientprotocol/agent-client-protocol b7f0005); `wire` has the shapes.

mod ask;
mod wire;

use crate::cli::form::{Filled, Form};
use crate::client::connection::Connection;
use hark_core::model::Source;
use hark_text::Lang;
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};
use std::process::{ExitCode, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wire::ToolCall;

/// Tool calls remembered per proxy (their titles and inputs make the questions readable).
const TOOL_CALLS_KEPT: usize = 1_000;
/// Requests answered in Hark whose editor reply is still to be dropped, at most.
const ANSWERED_KEPT: usize = 1_000;

/// A JSON-RPC id as it was written (`1` and `"1"` are two ids).
type Id = String;

/// What the proxy keeps between lines.
#[derive(Default)]
struct State {
    /// The agent's requests asked in Hark too: what withdraws the Hark question.
    asking: HashMap<Id, CancellationToken>,
    /// The agent's requests Hark answered: the editor's late reply is dropped.
    answered: HashSet<Id>,
    /// Tool calls announced in `session/update`, by session and call, oldest first.
    tool_calls: HashMap<(String, String), ToolCall>,
    call_order: VecDeque<(String, String)>,
    /// The editor's `initialize` request, and whether the agent answered it with version 1.
    initialize: Option<Id>,
    version_1: bool,
    /// The agent's name, as its `initialize` answer gives it.
    agent: Option<String>,
    /// The directory of each session (`session/new`'s `cwd`), and of the requests making one.
    new_sessions: HashMap<Id, String>,
    cwd: HashMap<String, String>,
}

/// The proxy between one editor and one agent.
struct Proxy {
    connection: Connection,
    state: Mutex<State>,
    /// Lines for the agent's stdin and for the editor (our stdout), each written by one task.
    to_agent: mpsc::UnboundedSender<String>,
    to_editor: mpsc::UnboundedSender<String>,
    /// The program's name, until the agent says its own.
    program: String,
}

/// Runs `command` as the agent behind the proxy; its exit code is ours.
pub async fn run(connection: Connection, command: Vec<String>) -> ExitCode {
    let Some((program, args)) = command.split_first() else {
        eprintln!("hark acp: name the agent to run after `--`, such as `hark acp -- gemini --acp`");
        return ExitCode::FAILURE;
    };
    let spawned = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            eprintln!("hark acp: cannot start `{program}`: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (Some(agent_in), Some(agent_out)) = (child.stdin.take(), child.stdout.take()) else {
        return ExitCode::FAILURE;
    };
    let (to_agent, for_agent) = mpsc::unbounded_channel();
    let (to_editor, for_editor) = mpsc::unbounded_channel();
    let editor_gone = CancellationToken::new();
    let writing_agent = tokio::spawn(write_lines(agent_in, for_agent, editor_gone.clone()));
    let writing_editor = tokio::spawn(write_lines(
        tokio::io::stdout(),
        for_editor,
        CancellationToken::new(),
    ));
    let name = std::path::Path::new(program).file_name();
    let proxy = Arc::new(Proxy {
        connection,
        state: Mutex::new(State::default()),
        to_agent,
        to_editor,
        program: name.map_or_else(|| program.clone(), |name| name.to_string_lossy().into()),
    });
    let reading_editor = tokio::spawn({
        let proxy = proxy.clone();
        async move {
            proxy.pass_editor_lines().await;
            // The editor closed our stdin: the agent's closes too, and it ends.
            editor_gone.cancel();
        }
    });
    proxy.clone().pass_agent_lines(agent_out).await;
    let status = child.wait().await;
    reading_editor.abort();
    drop(proxy);
    // What the agent said last reaches the editor before we end.
    let _ = writing_editor.await;
    writing_agent.abort();
    match status.ok().and_then(|status| status.code()) {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    }
}

/// Writes each line received to `out`, until every sender is gone or `stop` (the agent's
/// stdin is closed when the editor's is).
async fn write_lines(
    mut out: impl AsyncWrite + Unpin,
    mut lines: mpsc::UnboundedReceiver<String>,
    stop: CancellationToken,
) {
    loop {
        let line = tokio::select! {
            line = lines.recv() => line,
            () = stop.cancelled() => None,
        };
        let Some(mut line) = line else { break };
        line.push('\n');
        if out.write_all(line.as_bytes()).await.is_err() || out.flush().await.is_err() {
            break;
        }
    }
    let _ = out.shutdown().await;
}

/// An id as a key (its JSON text).
fn key(id: &Value) -> Id {
    id.to_string()
}

impl Proxy {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Reads the editor's lines (our stdin) and passes them on, but an answer Hark gave first.
    async fn pass_editor_lines(&self) {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(peek) = wire::peek(&line) {
                let mut state = self.state();
                if let Some(id) = peek.response_id().map(key) {
                    if state.answered.remove(&id) {
                        continue;
                    }
                    // The editor answered first: the Hark question goes.
                    if let Some(elsewhere) = state.asking.remove(&id) {
                        elsewhere.cancel();
                    }
                }
                if let Some(id) = peek.request_id().map(key) {
                    match peek.method.as_deref() {
                        Some("initialize") => state.initialize = Some(id),
                        Some("session/new") => {
                            if let Some(cwd) = peek.params["cwd"].as_str() {
                                state.new_sessions.insert(id, cwd.to_string());
                            }
                        }
                        _ => {}
                    }
                }
            }
            if self.to_agent.send(line).is_err() {
                break;
            }
        }
    }

    /// Reads the agent's lines and passes each to the editor, asking its permission requests in
    /// Hark as they go.
    async fn pass_agent_lines(self: Arc<Self>, out: tokio::process::ChildStdout) {
        let mut lines = BufReader::new(out).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(peek) = wire::peek(&line) {
                self.read_agent(&peek);
            }
            if self.to_editor.send(line).is_err() {
                break;
            }
        }
    }

    /// What a line of the agent's tells the proxy, and the permission requests it asks.
    fn read_agent(self: &Arc<Self>, peek: &wire::Peek) {
        let mut state = self.state();
        if let Some(id) = peek.response_id().map(key) {
            if state.initialize.as_ref() == Some(&id) {
                state.version_1 = peek.result["protocolVersion"] == 1;
                state.agent = (peek.result["agentInfo"]["name"].as_str()).map(str::to_string);
            }
            if let Some(cwd) = state.new_sessions.remove(&id)
                && let Some(session) = peek.result["sessionId"].as_str()
            {
                state.cwd.insert(session.to_string(), cwd);
            }
            return;
        }
        match peek.method.as_deref() {
            Some("session/update") => {
                if let Some((session, call)) = wire::tool_call_update(&peek.params) {
                    remember(&mut state, session, call);
                }
            }
            Some("$/cancel_request") => {
                // The agent withdrew its own request: nothing is answered for it from Hark.
                let id = key(&peek.params["requestId"]);
                if let Some(elsewhere) = state.asking.remove(&id) {
                    elsewhere.cancel();
                }
            }
            Some("elicitation/create") if state.version_1 => {
                let (Some(id), Ok(form)) = (
                    peek.request_id(),
                    serde_json::from_value::<wire::FormRequest>(peek.params.clone()),
                ) else {
                    return;
                };
                // A web page to open (url mode) stays with the editor, which must show it.
                if form.mode != "form" || form.requested_schema.is_none() {
                    return;
                }
                let elsewhere = CancellationToken::new();
                state.asking.insert(key(id), elsewhere.clone());
                let cwd =
                    (form.session_id.as_ref()).and_then(|session| state.cwd.get(session).cloned());
                drop(state);
                tokio::spawn(self.clone().fill(id.clone(), form, cwd, elsewhere));
            }
            Some("session/request_permission") if state.version_1 => {
                let (Some(id), Ok(request)) = (
                    peek.request_id(),
                    serde_json::from_value::<wire::PermissionRequest>(peek.params.clone()),
                ) else {
                    return;
                };
                let elsewhere = CancellationToken::new();
                state.asking.insert(key(id), elsewhere.clone());
                let known = (state.tool_calls).get(&(
                    request.session_id.clone(),
                    request.tool_call.tool_call_id.clone(),
                ));
                let call = known
                    .cloned()
                    .unwrap_or_default()
                    .merged(&request.tool_call);
                let cwd = state.cwd.get(&request.session_id).cloned();
                drop(state);
                tokio::spawn(
                    self.clone()
                        .ask(id.clone(), call, request.options, cwd, elsewhere),
                );
            }
            _ => {}
        }
    }

    /// Who asks in Hark (the agent, as it names itself), and the person's language.
    async fn asker(&self, cwd: Option<String>) -> (String, Lang, Source) {
        let agent = self
            .state()
            .agent
            .clone()
            .unwrap_or_else(|| self.program.clone());
        let lang = match self.connection.client().config().await {
            Ok(config) => hark_text::negotiate::daemon_lang(&config),
            Err(_) => hark_text::negotiate::desktop_lang(),
        };
        let source = Source {
            client: Some(format!("{agent} (hark acp {})", env!("CARGO_PKG_VERSION"))),
            cwd,
            pid: Some(std::process::id()),
        };
        (agent, lang, source)
    }

    /// Whether Hark's answer to request `id` is the first; the editor's reply is then dropped.
    fn first(&self, id: &Value) -> bool {
        let mut state = self.state();
        let first = state.asking.remove(&key(id)).is_some();
        if first {
            if state.answered.len() >= ANSWERED_KEPT {
                state.answered.clear();
            }
            state.answered.insert(key(id));
        }
        first
    }

    /// Sends Hark's answer `line` to request `id` to the agent, and tells the editor.
    fn answer(&self, id: &Value, line: String) {
        let _ = self.to_agent.send(line);
        let _ = self.to_editor.send(wire::cancel_request(id));
    }

    /// Asks one form (`elicitation/create`) in Hark; filled in there first, it goes to the
    /// agent.
    async fn fill(
        self: Arc<Self>,
        id: Value,
        form: wire::FormRequest,
        cwd: Option<String>,
        elsewhere: CancellationToken,
    ) {
        let (agent, lang, source) = self.asker(cwd).await;
        let Some(schema) = form.requested_schema.as_ref() else {
            return;
        };
        let asked = Form {
            from: &agent,
            message: &form.message,
            schema,
        };
        let in_hark = ask::InHark {
            connection: &self.connection,
            elsewhere,
        };
        let content = match crate::cli::form::fill(lang, asked, source, &in_hark).await {
            Some(Filled::Accepted(content)) => Some(content),
            Some(Filled::Declined) => None,
            None => return,
        };
        if self.first(&id) {
            self.answer(&id, wire::form_answer(&id, content));
        }
    }

    /// Asks one permission request in Hark; an answer there that comes first goes to the agent.
    async fn ask(
        self: Arc<Self>,
        id: Value,
        call: ToolCall,
        options: Vec<wire::PermissionOption>,
        cwd: Option<String>,
        elsewhere: CancellationToken,
    ) {
        let (agent, lang, source) = self.asker(cwd).await;
        let asked = ask::permission(lang, &format!("acp:{agent}"), &call, &options, source);
        let Some(label) = ask::picked(&self.connection, asked.request.clone(), elsewhere).await
        else {
            return;
        };
        let Some(option) = asked.option_of(&label) else {
            return;
        };
        if self.first(&id) {
            self.answer(&id, wire::selected(&id, option));
        }
    }
}

/// Keeps what a `session/update` says of a tool call, merged with what came before.
fn remember(state: &mut State, session: String, call: ToolCall) {
    let at = (session, call.tool_call_id.clone());
    let merged = match state.tool_calls.remove(&at) {
        Some(known) => known.merged(&call),
        None => {
            state.call_order.push_back(at.clone());
            call
        }
    };
    state.tool_calls.insert(at, merged);
    while state.call_order.len() > TOOL_CALLS_KEPT {
        if let Some(oldest) = state.call_order.pop_front() {
            state.tool_calls.remove(&oldest);
        }
    }
}
