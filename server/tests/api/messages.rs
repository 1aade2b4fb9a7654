//! "Tell the agent…" (SPEC §18) through the real daemon: a message for an agent (its client's
//! name and its directory) waits, then comes with that agent's next `ask_user` result from the
//! real shim, or through Claude Code's `PostToolUse` hook, once; the events and the list say
//! where each stands; bad messages are refused naming their field.

use crate::api::events::{connect_url, next_event};
use crate::api::support::Daemon;
use crate::api::world::*;
use serde_json::{Value, json};
use std::process::Stdio;
use tokio::io::AsyncWriteExt;

/// The agent a pending question came from, as messages address it.
fn agent_of(question: &Value) -> Value {
    let client = question["source"]["client"].as_str().unwrap();
    json!({
        "client": hark_core::model::client_name(client),
        "cwd": question["source"]["cwd"],
    })
}

async fn messages(world: &World) -> Vec<Value> {
    let list: Value = world
        .http
        .get(world.url("/api/messages"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["messages"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_message_reaches_the_agents_next_result_once() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"questions": [{"question": "Deploy now?", "options": [{"label": "Yes"}, {"label": "No"}]}]}),
    )
    .await;
    let question = world.pending(1).await.remove(0);
    let agent = agent_of(&question);
    assert_eq!(agent["client"], "hark-test", "{question}");
    let mut page = connect_url(&world.url("/api/ws")).await;
    assert_eq!(next_event(&mut page).await["event"], "init");

    let created = world
        .post(
            "/api/messages",
            &json!({"to": agent, "text": "Use the staging database."}),
        )
        .await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.unwrap();
    assert_eq!(created["status"], "waiting");
    let id = created["id"].as_str().unwrap().to_string();
    let event = next_event(&mut page).await;
    assert_eq!(event["event"], "message:created");
    assert_eq!(event["data"]["id"], id.as_str());
    // Another agent's message stays where it is.
    let elsewhere = json!({"client": "hark-test", "cwd": "/somewhere/else"});
    let other = world
        .post(
            "/api/messages",
            &json!({"to": elsewhere, "text": "Not yours."}),
        )
        .await;
    assert_eq!(other.status(), 201);

    let question_id = question["id"].as_str().unwrap();
    world
        .post(
            &format!("/api/questions/{question_id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    let result = finish(call).await;
    let text = text_of(&result);
    assert!(text.starts_with("Yes\n\n"), "{text}");
    assert!(text.contains("Use the staging database."), "{text}");
    assert!(!text.contains("Not yours."), "{text}");
    let structured = result.structured_content.unwrap();
    assert_eq!(
        structured["messages"][0]["text"],
        "Use the staging database."
    );
    assert_eq!(structured["messages"].as_array().unwrap().len(), 1);

    let listed = messages(&world).await;
    let ours = listed.iter().find(|m| m["id"] == id.as_str()).unwrap();
    assert_eq!(ours["status"], "delivered");
    assert!(ours["deliveredAt"].is_string());
    let theirs = listed.iter().find(|m| m["text"] == "Not yours.").unwrap();
    assert_eq!(theirs["status"], "waiting");
    let mut delivered = None;
    for _ in 0..10 {
        let event = next_event(&mut page).await;
        if event["event"] == "message:delivered" {
            delivered = Some(event);
            break;
        }
    }
    assert_eq!(delivered.unwrap()["data"]["id"], id.as_str());

    // Both are in the export, as JSON and as Markdown in the daemon's language.
    let export: Value = world
        .http
        .get(world.url("/api/export?of=messages"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export.as_array().unwrap().len(), 2, "{export}");
    let markdown = world
        .http
        .get(world.url("/api/export?of=messages&format=markdown"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        markdown.starts_with("# Messages to your agents"),
        "{markdown}"
    );
    assert!(
        markdown.contains("> Use the staging database."),
        "{markdown}"
    );
    assert!(markdown.contains("delivered "), "{markdown}");
    assert!(markdown.contains("waiting for the agent"), "{markdown}");
    let refused = world
        .http
        .get(world.url("/api/export?of=everything"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.json::<Value>().await.unwrap()["field"], "of");

    // Delivered once: the next result carries nothing more.
    let again = start_call(
        &shim,
        "ask_user",
        json!({"questions": [{"question": "Anything else?"}]}),
    )
    .await;
    let next = world.pending(1).await.remove(0);
    let next_id = next["id"].as_str().unwrap();
    world
        .post(
            &format!("/api/questions/{next_id}/answer"),
            &json!({"answers": [{"freeText": "no"}]}),
        )
        .await;
    let result = finish(again).await;
    assert_eq!(text_of(&result), "no");
    assert!(result.structured_content.unwrap().get("messages").is_none());
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_messages_are_refused_naming_their_field() {
    let world = World::new();
    world.start_daemon().await;
    let to = json!({"client": "claude-code", "cwd": "/w"});
    let cases = [
        (json!({"text": "hello"}), "to"),
        (json!({"to": {"cwd": "/w"}, "text": "hello"}), "to.client"),
        (
            json!({"to": {"client": "  "}, "text": "hello"}),
            "to.client",
        ),
        (json!({"to": to, "text": "   "}), "text"),
        (json!({"to": to, "text": "x".repeat(4_001)}), "text"),
        (json!({"to": to, "text": 7}), "text"),
        (json!({"to": to, "text": "hi", "via": "telepathy"}), "via"),
    ];
    for (body, field) in cases {
        let response = world.post("/api/messages", &body).await;
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["field"], field, "{body}: {error}");
        assert!(error["error"].as_str().unwrap().contains(field), "{error}");
    }
    let response = world
        .post("/api/messages/deliver", &json!({"client": ""}))
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["field"], "client");
    // Nothing was kept, and the daemon is still up.
    assert!(messages(&world).await.is_empty());
    assert_eq!(
        world
            .post("/api/messages", &json!({"to": to, "text": "fine"}))
            .await
            .status(),
        201
    );
}

#[tokio::test]
async fn a_waiting_message_is_never_dropped_for_another_agents() {
    let world = World::new();
    world.start_daemon().await;
    let first = json!({"client": "claude-code", "cwd": "/w/first"});
    let busy = json!({"client": "codex", "cwd": "/w/busy"});
    let response = world
        .post(
            "/api/messages",
            &json!({"to": first, "text": "for the first"}),
        )
        .await;
    assert_eq!(response.status(), 201);
    // 1,001 for another agent: a hundred wait, the rest are refused, and nothing of the first
    // agent's goes.
    let mut refused = 0;
    for number in 0..1_001 {
        let response = world
            .post(
                "/api/messages",
                &json!({"to": busy, "text": format!("busy {number}")}),
            )
            .await;
        if response.status() == 429 {
            let error: Value = response.json().await.unwrap();
            assert!(
                error["error"]
                    .as_str()
                    .unwrap()
                    .contains("wait for this agent"),
                "{error}"
            );
            refused += 1;
        } else {
            assert_eq!(response.status(), 201, "message {number}");
        }
    }
    assert_eq!(refused, 901);
    let listed = messages(&world).await;
    assert!(
        listed
            .iter()
            .any(|message| message["text"] == "for the first"),
        "the first agent's message is no longer listed"
    );
    let delivered: Value = world
        .post("/api/messages/deliver", &first)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(delivered["messages"].as_array().unwrap().len(), 1);
    assert_eq!(delivered["messages"][0]["text"], "for the first");
    // Once the busy agent collects its hundred, it may be told more.
    let delivered: Value = world
        .post("/api/messages/deliver", &busy)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(delivered["messages"].as_array().unwrap().len(), 100);
    let response = world
        .post("/api/messages", &json!({"to": busy, "text": "one more"}))
        .await;
    assert_eq!(response.status(), 201);
}

/// `GET /api/questions/{id}/wait` as the shim makes it, taking the agent's messages along.
async fn wait_taking_messages(daemon: &Daemon, id: &str) -> Value {
    daemon
        .get(&format!("/api/questions/{id}/wait?timeout=5&messages=true"))
        .await
        .json()
        .await
        .unwrap()
}

fn texts(result: &Value) -> Vec<String> {
    result["messages"]
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .map(|m| m["text"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn listed(daemon: &Daemon) -> Vec<Value> {
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    list["messages"].as_array().unwrap().clone()
}

#[tokio::test]
async fn the_answers_wait_brings_the_messages_and_a_repeated_wait_loses_none() {
    let daemon = Daemon::start();
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Deploy now?"}],
                     "source": {"client": "claude-code 2.1", "cwd": "/w/hark"}}))
        .await;
    let id = asked["id"].as_str().unwrap().to_string();
    let agent = json!({"client": "claude-code", "cwd": "/w/hark"});
    for text in ["Use staging.", "Then stop."] {
        let response = daemon
            .post("/api/messages", &json!({"to": agent, "text": text}))
            .await;
        assert_eq!(response.status(), 201);
    }
    daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"freeText": "yes"}]}),
        )
        .await;
    // A plain wait (a script's, a page's) leaves the messages for the agent.
    let plain: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=5"))
        .await
        .json()
        .await
        .unwrap();
    assert!(plain.get("messages").is_none(), "{plain}");
    assert!(
        listed(&daemon)
            .await
            .iter()
            .all(|m| m["status"] == "waiting")
    );

    let first = wait_taking_messages(&daemon, &id).await;
    assert_eq!(first["answers"][0]["freeText"], "yes");
    assert_eq!(texts(&first), ["Use staging.", "Then stop."], "{first}");
    let kept = listed(&daemon).await;
    assert!(
        kept.iter()
            .all(|m| m["status"] == "delivered" && m["deliveredWith"] == id.as_str()),
        "{kept:?}"
    );
    // The result was lost on the way and the shim waits again: the same messages, once more.
    assert_eq!(
        texts(&wait_taking_messages(&daemon, &id).await),
        texts(&first)
    );
    // Nothing else hands them over a second time.
    let collected: Value = daemon
        .post("/api/messages/deliver", &agent)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(collected["messages"], json!([]));
    // Acknowledged, so kept: after a kill -9 the same wait still brings them.
    let daemon = daemon.crash_and_restart();
    let after = wait_taking_messages(&daemon, &id).await;
    assert_eq!(texts(&after), texts(&first), "{after}");
}

/// Runs `hark hook claude` on Claude Code's `PostToolUse` input for a tool run in `cwd`.
async fn post_tool_use(world: &World, cwd: &str) -> Option<Value> {
    let input = json!({
        "session_id": "abc123",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "cargo test"},
        "tool_response": {"stdout": "ok", "stderr": "", "interrupted": false},
        "tool_use_id": "toolu_01ABC123"
    });
    let mut child = world
        .command(&["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).await.unwrap();
    drop(stdin);
    let output = tokio::time::timeout(std::time::Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("the hook ends")
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    (!text.trim().is_empty()).then(|| serde_json::from_str(text.trim()).unwrap())
}

#[tokio::test]
async fn claude_codes_post_tool_use_hook_hands_the_messages_over() {
    let world = World::new();
    // No daemon: the hook says nothing and starts none (it runs after every tool call).
    assert_eq!(post_tool_use(&world, "/home/me/project").await, None);
    assert_eq!(world.daemon_pid(), None);

    world.start_daemon().await;
    let to = json!({"client": "claude-code", "cwd": "/home/me/project"});
    for text in ["Stop after the tests.", "Then open a pull request."] {
        let response = world
            .post("/api/messages", &json!({"to": to, "text": text}))
            .await;
        assert_eq!(response.status(), 201);
    }
    // Another project's Claude Code gets nothing.
    assert_eq!(post_tool_use(&world, "/home/me/other").await, None);

    let output = post_tool_use(&world, "/home/me/project/").await.unwrap();
    assert_eq!(output["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    let context = output["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains("2 messages"), "{context}");
    let (first, second) = (
        context.find("Stop after the tests.").unwrap(),
        context.find("Then open a pull request.").unwrap(),
    );
    assert!(first < second, "oldest first: {context}");
    assert_eq!(output.as_object().unwrap().len(), 1, "{output}");
    // Handed over once.
    assert_eq!(post_tool_use(&world, "/home/me/project").await, None);
    assert!(
        messages(&world)
            .await
            .iter()
            .all(|message| message["status"] == "delivered")
    );
}
