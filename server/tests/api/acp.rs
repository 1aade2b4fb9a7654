//! `hark acp -- <agent>`: an ACP agent behind the proxy, played by a small script that speaks
//! the protocol's lines (`docs/protocol/v1`: initialize, session/new, session/prompt, a tool
//! call announced in `session/update`, `session/request_permission`), with this test as the
//! editor. Every line passes byte for byte; a permission answered in Hark reaches the agent and
//! the editor is told (`$/cancel_request`), its late reply dropped; an editor that answers first
//! withdraws the Hark question; "Always allow" keeps a rule that answers the next such call.

use crate::api::world::*;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout};

/// The agent (`acp_agent.py`, also driven by the protocol's own SDK client in `cargo xtask
/// test`).
const AGENT: &str = include_str!("acp_agent.py");

struct Editor {
    child: tokio::process::Child,
    to_proxy: ChildStdin,
    from_proxy: Lines<BufReader<ChildStdout>>,
}

impl Editor {
    async fn start(world: &World) -> Editor {
        let agent = world.home.path().join("agent.py");
        std::fs::write(&agent, AGENT).unwrap();
        let mut child = world
            .command(&["acp", "--", "python3", agent.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let to_proxy = child.stdin.take().unwrap();
        let from_proxy = BufReader::new(child.stdout.take().unwrap()).lines();
        Editor {
            child,
            to_proxy,
            from_proxy,
        }
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.to_proxy.write_all(line.as_bytes()).await.unwrap();
        self.to_proxy.flush().await.unwrap();
    }

    /// The next line from the proxy, as text.
    async fn line(&mut self) -> String {
        tokio::time::timeout(Duration::from_secs(20), self.from_proxy.next_line())
            .await
            .expect("the proxy says something")
            .unwrap()
            .expect("the proxy is still there")
    }

    async fn message(&mut self) -> Value {
        serde_json::from_str(&self.line().await).unwrap()
    }
}

/// Answers the one pending question with `label`, after checking what it asks.
async fn answer_in_hark(world: &World, label: &str) -> String {
    let question = world.pending(1).await.remove(0);
    let sub = &question["questions"][0];
    assert_eq!(
        sub["question"],
        "Allow Run cargo test?\n\n```\ncargo test\n```"
    );
    let labels: Vec<&str> = (sub["options"].as_array().unwrap().iter())
        .map(|option| option["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Allow", "Always allow", "Reject"]);
    assert_eq!(sub["options"][2]["danger"], true);
    let client = question["source"]["client"].as_str().unwrap();
    assert!(client.starts_with("fake-agent (hark acp"), "{client}");
    assert_eq!(question["source"]["cwd"], "/home/me/project");
    let id = question["id"].as_str().unwrap().to_string();
    let answer = json!({"answers": [{"selected": [label]}]});
    let answered = world
        .post(&format!("/api/questions/{id}/answer"), &answer)
        .await;
    assert_eq!(answered.status(), 200);
    id
}

#[tokio::test]
async fn an_acp_agents_permission_is_answered_in_hark_or_in_the_editor_whichever_is_first() {
    let world = World::new();
    world.start_daemon().await;
    let mut editor = Editor::start(&world).await;

    editor
        .send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {}}}))
        .await;
    // Byte for byte as the agent wrote it (Python's spacing, not serde's).
    let initialized = editor.line().await;
    assert!(
        initialized.starts_with(r#"{"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1"#),
        "{initialized}"
    );
    editor
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "session/new",
        "params": {"cwd": "/home/me/project", "mcpServers": []}}))
        .await;
    assert_eq!(editor.message().await["result"]["sessionId"], "sess_1");

    // Answered in Hark first: the agent gets it, the editor is told, its late reply dropped.
    let prompt = json!({"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "test it"}]}});
    editor.send(prompt.clone()).await;
    assert_eq!(
        editor.message().await["params"]["update"]["toolCallId"],
        "call_0"
    );
    let asked = editor.message().await;
    assert_eq!(
        (&asked["id"], &asked["method"]),
        (&json!(0), &json!("session/request_permission"))
    );
    answer_in_hark(&world, "Allow").await;
    let cancel = editor.message().await;
    assert_eq!(
        cancel,
        json!({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": 0}})
    );
    let ended = editor.message().await;
    assert_eq!(ended["id"], 2);
    assert_eq!(
        ended["result"]["_meta"]["result"]["outcome"],
        json!({"outcome": "selected", "optionId": "allow-once"})
    );
    editor
        .send(json!({"jsonrpc": "2.0", "id": 0, "result": {"outcome": {"outcome": "cancelled"}}}))
        .await;

    // Answered in the editor first: passed on, and the Hark question withdrawn.
    editor
        .send(
            json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "again"}]}}),
        )
        .await;
    editor.message().await;
    assert_eq!(editor.message().await["id"], 1);
    let question = world.pending(1).await.remove(0);
    editor.send(json!({"jsonrpc": "2.0", "id": 1, "result": {"outcome": {"outcome": "selected", "optionId": "reject"}}})).await;
    let ended = editor.message().await;
    assert_eq!(ended["id"], 3);
    assert_eq!(
        ended["result"]["_meta"]["result"]["outcome"]["optionId"],
        "reject"
    );
    // The editor's late reply to the first request never reached the agent.
    assert_eq!(ended["result"]["_meta"]["replies"], json!({"0": 1, "1": 1}));
    let id = question["id"].as_str().unwrap();
    world
        .expect_status(id, "cancelled", Duration::from_secs(10))
        .await;

    // "Always allow" in Hark keeps a rule: the next such call is answered at once.
    editor
        .send(
            json!({"jsonrpc": "2.0", "id": 4, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "and again"}]}}),
        )
        .await;
    editor.message().await;
    editor.message().await;
    answer_in_hark(&world, "Always allow").await;
    assert_eq!(editor.message().await["method"], "$/cancel_request");
    assert_eq!(
        editor.message().await["result"]["_meta"]["result"]["outcome"]["optionId"],
        "allow-always"
    );
    editor
        .send(
            json!({"jsonrpc": "2.0", "id": 5, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "once more"}]}}),
        )
        .await;
    editor.message().await;
    assert_eq!(editor.message().await["id"], 3);
    assert_eq!(editor.message().await["method"], "$/cancel_request");
    assert_eq!(
        editor.message().await["result"]["_meta"]["result"]["outcome"]["optionId"],
        "allow-once"
    );
    let rules: Value = world
        .http
        .get(world.url("/api/rules"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(rules["rules"][0]["agent"], "acp:fake-agent");
    assert_eq!(rules["rules"][0]["pattern"], "cargo test");

    // A form (`elicitation/create`) is asked in Hark too, and goes back typed.
    editor
        .send(
            json!({"jsonrpc": "2.0", "id": 6, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "form"}]}}),
        )
        .await;
    let form = editor.message().await;
    assert_eq!(
        (&form["id"], &form["method"]),
        (&json!(4), &json!("elicitation/create"))
    );
    let question = world.pending(1).await.remove(0);
    assert_eq!(
        question["title"],
        "fake-agent: How careful should the release be?"
    );
    let id = question["id"].as_str().unwrap();
    let answer = json!({"answers": [{"selected": ["careful"]}, {"selected": [], "freeText": "3"}]});
    assert_eq!(
        world
            .post(&format!("/api/questions/{id}/answer"), &answer)
            .await
            .status(),
        200
    );
    assert_eq!(editor.message().await["method"], "$/cancel_request");
    let ended = editor.message().await;
    assert_eq!(
        ended["result"]["_meta"]["result"],
        json!({"action": "accept", "content": {"strategy": "careful", "replicas": 3}})
    );

    // The editor goes: the agent's stdin closes, it ends, and so does the proxy.
    drop(editor.to_proxy);
    let status = tokio::time::timeout(Duration::from_secs(20), editor.child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn without_an_agent_to_run_hark_acp_says_how() {
    let world = World::new();
    let output = world.command(&["acp"]).output().await.unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("hark acp -- gemini --acp"), "{said}");
    let output = world
        .command(&["acp", "--", "no-such-agent-anywhere"])
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-agent-anywhere"));
}
