//! A world for the shim and CLI tests: a temporary `HARK_HOME` and a free port, shims started
//! as the real binary with an rmcp client, and the daemon they start killed at the end.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ErrorData, Implementation, JsonObject,
    ProgressNotificationParam, Request,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestContext, RequestHandle, RunningService,
};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An MCP client that remembers the progress notifications it receives; it introduces itself
/// as `name` ("hark-test" unless set). With `form` set it declares elicitation and answers
/// every form that way, recording each form and each one withdrawn.
#[derive(Clone, Default)]
pub struct Recorder {
    pub progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    pub name: Option<&'static str>,
    pub form: Option<FormReply>,
    pub forms: Arc<Mutex<Vec<Value>>>,
    pub withdrawn: Arc<std::sync::atomic::AtomicUsize>,
    /// Declares the tasks extension (MCP 2026-07-28).
    pub tasks: bool,
}

/// How the test client's person answers a form.
#[derive(Clone)]
pub enum FormReply {
    Accept(Value),
    Decline,
    /// Closes the dialog without a choice.
    Dismiss,
    /// Leaves the dialog open until the server withdraws it.
    Hold,
    /// Answers with this content after a while (the page may be quicker).
    Later(Duration, Value),
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.forms
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(match self.form.clone() {
            Some(FormReply::Accept(content)) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(content)
            }
            Some(FormReply::Decline) => ElicitResult::new(ElicitationAction::Decline),
            Some(FormReply::Later(pause, content)) => {
                tokio::time::sleep(pause).await;
                ElicitResult::new(ElicitationAction::Accept).with_content(content)
            }
            Some(FormReply::Dismiss) | None => ElicitResult::new(ElicitationAction::Cancel),
            Some(FormReply::Hold) => {
                context.ct.cancelled().await;
                self.withdrawn
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                ElicitResult::new(ElicitationAction::Cancel)
            }
        })
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities = match (self.form.is_some(), self.tasks) {
            (true, true) => ClientCapabilities::builder()
                .enable_elicitation()
                .enable_tasks()
                .build(),
            (true, false) => ClientCapabilities::builder().enable_elicitation().build(),
            (false, true) => ClientCapabilities::builder().enable_tasks().build(),
            (false, false) => ClientCapabilities::default(),
        };
        ClientConfig::new(
            capabilities,
            Implementation::new(self.name.unwrap_or("hark-test"), "9.9"),
        )
    }
}

pub type Shim = RunningService<RoleClient, Recorder>;

pub struct World {
    pub home: tempfile::TempDir,
    pub port: u16,
    pub http: reqwest::Client,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl World {
    pub fn new() -> World {
        World {
            home: tempfile::tempdir().unwrap(),
            port: free_port(),
            http: reqwest::Client::builder()
                .pool_idle_timeout(hark::client::IDLE_CONNECTION)
                .build()
                .unwrap(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// `hark <args>` with this world's home and port.
    pub fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hark"));
        command
            .args(args)
            .env("HARK_HOME", self.home.path())
            .env("HARK_PORT", self.port.to_string())
            .env("HARK_LOG", "warn")
            .env("BROWSER", "true")
            .env_remove("HARK_URL")
            .env_remove("HARK_TOKEN")
            .env_remove("HARK_MAX_WAIT");
        command
    }

    /// Starts `hark mcp <extra>` and completes the MCP handshake.
    pub async fn shim_with(&self, extra: &[&str]) -> (Shim, u32) {
        self.shim_as(Recorder::default(), extra).await
    }

    /// Starts `hark mcp <extra>` for the client `recorder` plays.
    pub async fn shim_as(&self, recorder: Recorder, extra: &[&str]) -> (Shim, u32) {
        let mut args = vec!["mcp"];
        args.extend_from_slice(extra);
        let command = self.command(&args).configure(|_| {});
        let transport = TokioChildProcess::new(command).expect("hark mcp starts");
        let pid = transport.id().expect("the shim has a pid");
        let shim = recorder.serve(transport).await.expect("handshake");
        (shim, pid)
    }

    /// Starts `hark mcp` for the client `recorder` plays, speaking MCP 2026-07-28 (no
    /// `initialize`: the client's name and capabilities travel in each request's `_meta`).
    pub async fn shim_2026(&self, recorder: Recorder) -> Shim {
        use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
        let command = self.command(&["mcp"]).configure(|_| {});
        let transport = TokioChildProcess::new(command).expect("hark mcp starts");
        recorder
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("discovery")
    }

    pub async fn shim(&self) -> Shim {
        self.shim_with(&[]).await.0
    }

    /// Pending questions, oldest first, polled until `count` are there (bounded).
    pub async fn pending(&self, count: usize) -> Vec<Value> {
        for _ in 0..200 {
            if let Ok(response) = self
                .http
                .get(self.url("/api/questions?status=pending"))
                .send()
                .await
            {
                let body: Value = response.json().await.unwrap();
                let mut questions = body["questions"].as_array().cloned().unwrap_or_default();
                if questions.len() >= count {
                    questions.reverse();
                    return questions;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{count} pending questions did not appear");
    }

    pub async fn question(&self, id: &str) -> Value {
        self.http
            .get(self.url(&format!("/api/questions/{id}")))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Polls until at least `count` waits for an outcome are open on the daemon (bounded): the
    /// shims' waits have reached the store.
    pub async fn waits_open(&self, count: usize) {
        crate::api::support::waits_open(&self.http, &self.url("/api/health"), count).await;
    }

    /// Polls until the question has `status` (bounded by `within`).
    pub async fn expect_status(&self, id: &str, status: &str, within: Duration) {
        let started = std::time::Instant::now();
        loop {
            let question = self.question(id).await;
            if question["status"] == status {
                return;
            }
            assert!(
                started.elapsed() < within,
                "{id} is {} after {within:?}",
                question["status"]
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Starts this world's daemon (`hark serve --detach`), as the shim does on its first question.
    pub async fn start_daemon(&self) {
        let started = self
            .command(&["serve", "--detach"])
            .stdout(std::process::Stdio::null())
            .status()
            .await
            .unwrap();
        assert!(started.success(), "hark serve --detach");
    }

    pub fn daemon_pid(&self) -> Option<i32> {
        std::fs::read_to_string(self.home.path().join("daemon.pid"))
            .ok()
            .and_then(|text| text.trim().parse().ok())
    }
}

impl Drop for World {
    fn drop(&mut self) {
        if let Some(pid) = self.daemon_pid() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

pub fn arguments(value: Value) -> JsonObject {
    value.as_object().cloned().expect("arguments are an object")
}

/// Calls `ask_user` and returns the pending call, so the test can answer it meanwhile.
pub async fn start_call(shim: &Shim, tool: &'static str, args: Value) -> RequestHandle<RoleClient> {
    let params = CallToolRequestParams::new(tool).with_arguments(arguments(args));
    shim.send_cancellable_request(
        ClientRequest::CallToolRequest(Request::new(params)),
        PeerRequestOptions::no_options(),
    )
    .await
    .expect("the request is sent")
}

/// Waits for a call's result.
pub async fn finish(call: RequestHandle<RoleClient>) -> CallToolResult {
    let response = tokio::time::timeout(Duration::from_secs(30), call.await_response())
        .await
        .expect("the call finishes within 30 s")
        .expect("a response");
    match response {
        rmcp::model::ServerResult::CallToolResult(result) => result,
        other => panic!("unexpected response {other:?}"),
    }
}

pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
