//! `ask_user` as a task for a client of MCP 2025-11-25 (its experimental tasks), through the
//! real shim, spoken line by line as such a client writes it (rmcp's client no longer sends
//! `task`): the server declares `tasks`, `ask_user` says it may run as one, the handle comes back
//! at once, `tasks/get` reports it, `tasks/result` waits and returns the answer tied to the task,
//! Hark's form comes as an `elicitation/create` tied to the task (and is withdrawn when the page
//! answers first), and a cancelled task stays cancelled while its question stays answerable.
//! The same over `/mcp`, one message per POST, where a task is its session's alone, its result
//! is not kept forever, and sessions are bounded without cutting a call in flight.

use crate::api::support::{Daemon, pick};
use crate::api::world::World;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// How long any one answer may take here.
const PATIENCE: Duration = Duration::from_secs(20);

type Waiting = Arc<Mutex<HashMap<String, oneshot::Sender<Value>>>>;

/// A 2025-11-25 client speaking JSON-RPC lines to `hark mcp`.
struct Client {
    _child: tokio::process::Child,
    stdin: Arc<tokio::sync::Mutex<tokio::process::ChildStdin>>,
    waiting: Waiting,
    /// Requests and notifications the server sent.
    from_server: mpsc::UnboundedReceiver<Value>,
    next: u64,
}

impl Client {
    /// Starts the shim and initializes at 2025-11-25 with `capabilities`; the server's answer.
    async fn start(world: &World, capabilities: Value) -> (Client, Value) {
        let mut child = world
            .command(&["mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let stdin = Arc::new(tokio::sync::Mutex::new(child.stdin.take().unwrap()));
        let waiting: Waiting = Arc::default();
        let (to_test, from_server) = mpsc::unbounded_channel();
        let answers = waiting.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
                let answer = message
                    .get("method")
                    .is_none()
                    .then(|| answers.lock().unwrap().remove(&message["id"].to_string()))
                    .flatten();
                match answer {
                    Some(sender) => {
                        let _ = sender.send(message);
                    }
                    None => {
                        let _ = to_test.send(message);
                    }
                }
            }
        });
        let mut client = Client {
            _child: child,
            stdin,
            waiting,
            from_server,
            next: 0,
        };
        let initialized = client
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                       "clientInfo": {"name": "tasks-client-2025", "version": "1.0"}}),
            )
            .await;
        client
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        (client, initialized)
    }

    async fn send(&self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        let mut stdin = self.stdin.lock().await;
        stdin.write_all(&line).await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Sends a request; its answer comes through the receiver.
    async fn ask(&mut self, method: &str, params: Value) -> oneshot::Receiver<Value> {
        self.next += 1;
        let id = json!(self.next);
        let (sender, receiver) = oneshot::channel();
        self.waiting.lock().unwrap().insert(id.to_string(), sender);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        receiver
    }

    /// A request and its whole answer (`result` or `error`).
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let answer = self.ask(method, params).await;
        tokio::time::timeout(PATIENCE, answer)
            .await
            .unwrap_or_else(|_| panic!("no answer to {method}"))
            .unwrap()
    }

    /// The next message the server sent of its own that `matches` (others are skipped).
    async fn next_from_server(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        tokio::time::timeout(PATIENCE, async {
            loop {
                let message = self.from_server.recv().await.expect("the shim is running");
                if matches(&message) {
                    return message;
                }
            }
        })
        .await
        .expect("the server's message came")
    }
}

fn deploy() -> Value {
    json!({"name": "ask_user", "task": {"ttl": 60000}, "arguments": {"questions": [
        {"question": "Deploy now?", "options": [{"label": "Yes", "recommended": true}, {"label": "No"}]}
    ]}})
}

/// `tasks/get` until the task's status is `status` (bounded).
async fn task_until(client: &mut Client, task_id: &str, status: &str) -> Value {
    for _ in 0..200 {
        let got = client
            .request("tasks/get", json!({"taskId": task_id}))
            .await;
        if got["result"]["status"] == status {
            return got["result"].clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {task_id} never became {status}");
}

#[tokio::test]
async fn a_2025_client_gets_the_handle_at_once_and_the_answer_from_tasks_result() {
    let world = World::new();
    let (mut client, initialized) = Client::start(&world, json!({})).await;
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        initialized["result"]["capabilities"]["tasks"],
        json!({"cancel": {}, "requests": {"tools": {"call": {}}}})
    );
    let tools = client.request("tools/list", json!({})).await;
    let tools = tools["result"]["tools"].as_array().unwrap().clone();
    let tool = |name: &str| {
        tools
            .iter()
            .find(|tool| tool["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(tool("ask_user")["execution"]["taskSupport"], "optional");
    assert!(tool("get_answer").get("execution").is_none());

    let created = client.request("tools/call", deploy()).await;
    let task = &created["result"]["task"];
    assert_eq!(task["status"], "working", "{created}");
    assert!(task["createdAt"].is_string() && task["lastUpdatedAt"].is_string());
    assert!(task.get("ttl").is_some() && task.get("ttlMs").is_none());
    assert!(created["result"].get("resultType").is_none());
    let task_id = task["taskId"].as_str().unwrap().to_string();
    let got = task_until(&mut client, &task_id, "working").await;
    assert!(got.get("resultType").is_none() && got.get("result").is_none());

    // tasks/result waits while the question is open, and returns the answer given on the page.
    let result = client.ask("tasks/result", json!({"taskId": task_id})).await;
    let question = world.pending(1).await.remove(0);
    let id = question["id"].as_str().unwrap();
    assert_eq!(question["source"]["client"], "tasks-client-2025 1.0");
    let answered = world
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    assert_eq!(answered.status(), 200);
    let result = tokio::time::timeout(PATIENCE, result)
        .await
        .unwrap()
        .unwrap();
    let result = &result["result"];
    assert_eq!(
        result["structuredContent"]["status"], "answered",
        "{result}"
    );
    assert_eq!(
        result["structuredContent"]["answers"][0]["selected"],
        json!(["Yes"])
    );
    assert_eq!(result["_meta"][RELATED_TASK]["taskId"], task_id);
    assert!(result.get("resultType").is_none());
    task_until(&mut client, &task_id, "completed").await;
    // An unknown task is refused.
    let unknown = client
        .request("tasks/result", json!({"taskId": "no-such-task"}))
        .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let unnamed = client.request("tasks/result", json!({})).await;
    assert!(
        unnamed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("taskId"),
        "{unnamed}"
    );
}

#[tokio::test]
async fn hark_s_form_comes_through_tasks_result_and_the_page_can_still_win() {
    let world = World::new();
    let (mut client, _) = Client::start(&world, json!({"elicitation": {"form": {}}})).await;
    let created = client.request("tools/call", deploy()).await;
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_string();
    task_until(&mut client, &task_id, "input_required").await;
    let result = client.ask("tasks/result", json!({"taskId": task_id})).await;
    let form = client
        .next_from_server(|message| message["method"] == "elicitation/create")
        .await;
    assert_eq!(form["params"]["_meta"][RELATED_TASK]["taskId"], task_id);
    assert_eq!(form["params"]["mode"], "form");
    let schema = &form["params"]["requestedSchema"];
    assert_eq!(schema["properties"]["q1"]["oneOf"][1]["const"], "No");
    client
        .send(&json!({"jsonrpc": "2.0", "id": form["id"],
                       "result": {"action": "accept", "content": {"q1": "No"}}}))
        .await;
    let result = tokio::time::timeout(PATIENCE, result)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        result["result"]["structuredContent"]["answers"][0]["selected"],
        json!(["No"]),
        "{result}"
    );
    let asked: Value = world
        .http
        .get(world.url("/api/questions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(asked["questions"][0]["answeredVia"], "client");

    // The page answers while the form is open: the form is withdrawn, the page's answer stands.
    let created = client.request("tools/call", deploy()).await;
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_string();
    task_until(&mut client, &task_id, "input_required").await;
    let result = client.ask("tasks/result", json!({"taskId": task_id})).await;
    let form = client
        .next_from_server(|message| message["method"] == "elicitation/create")
        .await;
    let question = world.pending(1).await.remove(0);
    world
        .post(
            &format!("/api/questions/{}/answer", question["id"].as_str().unwrap()),
            &pick("Yes"),
        )
        .await;
    let result = tokio::time::timeout(PATIENCE, result)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        result["result"]["structuredContent"]["answers"][0]["selected"],
        json!(["Yes"])
    );
    let withdrawn = client
        .next_from_server(|message| message["method"] == "notifications/cancelled")
        .await;
    assert_eq!(withdrawn["params"]["requestId"], form["id"]);
}

#[tokio::test]
async fn a_cancelled_task_stays_cancelled_and_its_question_stays_answerable() {
    let world = World::new();
    let (mut client, _) = Client::start(&world, json!({})).await;
    let created = client.request("tools/call", deploy()).await;
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_string();
    let question = world.pending(1).await.remove(0);
    let id = question["id"].as_str().unwrap().to_string();
    let cancelled = client
        .request("tasks/cancel", json!({"taskId": task_id}))
        .await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    assert_eq!(cancelled["result"]["taskId"], task_id);
    assert_eq!(
        cancelled["result"]["createdAt"],
        created["result"]["task"]["createdAt"]
    );
    task_until(&mut client, &task_id, "cancelled").await;
    // Its result is an error that says where a late answer goes.
    let result = client
        .request("tasks/result", json!({"taskId": task_id}))
        .await;
    assert!(
        result["error"]["message"]
            .as_str()
            .unwrap()
            .contains("get_answer"),
        "{result}"
    );
    // The question is still open for a late answer, which stays cancelled for the task.
    assert_eq!(world.question(&id).await["status"], "pending");
    world
        .post(&format!("/api/questions/{id}/answer"), &pick("No"))
        .await;
    world
        .expect_status(&id, "answered", Duration::from_secs(10))
        .await;
    let got = client
        .request("tasks/get", json!({"taskId": task_id}))
        .await;
    assert_eq!(got["result"]["status"], "cancelled");
    // A task that has ended cannot be cancelled again.
    let again = client
        .request("tasks/cancel", json!({"taskId": task_id}))
        .await;
    assert_eq!(again["error"]["code"], -32602, "{again}");
}

/// A 2025-11-25 client of `/mcp`, one JSON-RPC message per POST (answers read from JSON or
/// from the Server-Sent Events stream rmcp sends).
struct HttpClient {
    url: String,
    http: reqwest::Client,
    session: Option<String>,
    next: u64,
}

impl HttpClient {
    async fn post(&mut self, message: &Value) -> reqwest::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .json(message);
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.send().await.unwrap()
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let response = self
            .post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().unwrap().to_string());
        }
        let sse = response
            .headers()
            .get("content-type")
            .is_some_and(|kind| kind.to_str().unwrap().starts_with("text/event-stream"));
        let mut body = response.bytes_stream();
        let mut text = String::new();
        tokio::time::timeout(PATIENCE, async {
            use futures::StreamExt;
            while let Some(chunk) = body.next().await {
                text.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
                let found = if sse {
                    text.lines()
                        .filter_map(|line| line.strip_prefix("data:"))
                        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
                        .find(|message| message["id"] == id)
                } else {
                    serde_json::from_str::<Value>(&text).ok()
                };
                if let Some(found) = found {
                    return found;
                }
            }
            panic!("no answer to {method}: {text}");
        })
        .await
        .unwrap_or_else(|_| panic!("no answer to {method} in time"))
    }
}

#[tokio::test]
async fn over_http_a_2025_client_gets_the_handle_at_once_and_the_answer_from_tasks_result() {
    let daemon = Daemon::start();
    let mut client = HttpClient {
        url: daemon.url("/mcp"),
        http: reqwest::Client::new(),
        session: None,
        next: 0,
    };
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "http-tasks-2025", "version": "1.0"}}),
        )
        .await;
    assert_eq!(
        initialized["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
        json!({}),
        "{initialized}"
    );
    assert!(client.session.is_some(), "a session was opened");
    let accepted = client
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    assert_eq!(accepted.status(), 202);
    let tools = client.request("tools/list", json!({})).await;
    assert_eq!(
        tools["result"]["tools"][0]["execution"]["taskSupport"],
        "optional"
    );
    let created = client.request("tools/call", deploy()).await;
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_string();
    let got = client
        .request("tasks/get", json!({"taskId": task_id}))
        .await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    let question = loop_pending(&daemon).await;
    daemon
        .post(
            &format!("/api/questions/{}/answer", question["id"].as_str().unwrap()),
            &pick("Yes"),
        )
        .await;
    let result = client
        .request("tasks/result", json!({"taskId": task_id}))
        .await;
    assert_eq!(
        result["result"]["structuredContent"]["answers"][0]["selected"],
        json!(["Yes"]),
        "{result}"
    );
    assert_eq!(result["result"]["_meta"][RELATED_TASK]["taskId"], task_id);
}

/// The one pending question of `daemon` (polled, bounded).
async fn loop_pending(daemon: &Daemon) -> Value {
    for _ in 0..200 {
        let pending: Value = daemon
            .get("/api/questions?status=pending")
            .await
            .json()
            .await
            .unwrap();
        if let Some(question) = pending["questions"].get(0) {
            return question.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no question arrived");
}

/// A 2025-11-25 client of `daemon`'s `/mcp`, initialized, as `name`.
async fn http_client(daemon: &Daemon, name: &str) -> HttpClient {
    let mut client = HttpClient {
        url: daemon.url("/mcp"),
        http: reqwest::Client::new(),
        session: None,
        next: 0,
    };
    client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": name, "version": "1.0"}}),
        )
        .await;
    let accepted = client
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    assert_eq!(accepted.status(), 202);
    client
}

#[tokio::test]
async fn over_http_a_task_is_its_sessions_alone_and_its_result_is_not_kept_forever() {
    let daemon = Daemon::start();
    let mut owner = http_client(&daemon, "agent").await;
    let created = owner.request("tools/call", deploy()).await;
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_string();
    // Another session, even of a client of the same name, reads, waits on and cancels nothing.
    let mut other = http_client(&daemon, "agent").await;
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let refused = other.request(method, json!({"taskId": task_id})).await;
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
    }
    let got = owner.request("tasks/get", json!({"taskId": task_id})).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    let question = loop_pending(&daemon).await;
    assert_eq!(question["status"], "pending");
    daemon
        .post(
            &format!("/api/questions/{}/answer", question["id"].as_str().unwrap()),
            &pick("Yes"),
        )
        .await;
    let result = owner
        .request("tasks/result", json!({"taskId": task_id}))
        .await;
    assert_eq!(
        result["result"]["structuredContent"]["answers"][0]["selected"],
        json!(["Yes"]),
        "{result}"
    );
    // 150 later tasks (refused at once: no questions) push the answer out.
    let refused =
        json!({"name": "ask_user", "task": {"ttl": 60000}, "arguments": {"questions": []}});
    for _ in 0..150 {
        let created = owner.request("tools/call", refused.clone()).await;
        assert!(created["result"]["task"]["taskId"].is_string(), "{created}");
    }
    let gone = owner.request("tasks/get", json!({"taskId": task_id})).await;
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
}

#[tokio::test]
async fn over_http_sessions_are_bounded_and_a_call_in_flight_is_never_cut() {
    let daemon = Daemon::start();
    let mut first = http_client(&daemon, "first").await;
    // A call waiting for the person keeps its session, however many come after it.
    let mut waiting = http_client(&daemon, "waiting").await;
    let call = json!({"name": "ask_user", "arguments": {"questions": [
        {"question": "Still there?", "options": [{"label": "Yes"}]}
    ]}});
    let asking = tokio::spawn(async move { waiting.request("tools/call", call).await });
    let question = loop_pending(&daemon).await;
    // Far more sessions than are kept: the least lately used idle one goes.
    for number in 0..150 {
        http_client(&daemon, &format!("loop-{number}")).await;
    }
    let gone = first
        .post(&json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list", "params": {}}))
        .await;
    assert_eq!(gone.status(), 404, "the oldest idle session was closed");
    daemon
        .post(
            &format!("/api/questions/{}/answer", question["id"].as_str().unwrap()),
            &pick("Yes"),
        )
        .await;
    let answered = asking.await.unwrap();
    assert_eq!(
        answered["result"]["structuredContent"]["answers"][0]["selected"],
        json!(["Yes"]),
        "{answered}"
    );
    let health = daemon.get("/api/health").await;
    assert_eq!(health.status(), 200);
}
