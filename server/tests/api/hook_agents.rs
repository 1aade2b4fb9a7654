//! `hark hook gemini`, `hark hook cursor` and `hark hook copilot` fed the input each agent sends
//! (Gemini CLI's `hooks/hookEventHandler.ts`, Cursor's hooks documentation, GitHub's hooks
//! reference and Copilot CLI 1.0.102 itself), their whole output compared with what each reads.

use crate::api::hook::{hook_of as hook, hook_raw, printed};
use crate::api::world::*;
use serde_json::{Value, json};

/// Answers the one pending question with `label`, after checking it asks about `tool` over
/// `what`.
async fn pick(world: &World, tool: &str, what: &str, label: &str) {
    let question = world.pending(1).await.remove(0);
    let sub = &question["questions"][0];
    assert_eq!(sub["header"], tool);
    assert!(sub["question"].as_str().unwrap().contains(what), "{sub}");
    let labels: Vec<&str> = (sub["options"].as_array().unwrap().iter())
        .map(|option| option["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Allow", "Always allow", "Deny", "Always deny"]);
    let id = question["id"].as_str().unwrap();
    let answered = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": [label]}]}),
        )
        .await;
    assert!(answered.status().is_success());
}

fn gemini_before_tool() -> Value {
    json!({
        "session_id": "9f1c",
        "transcript_path": "/home/me/.gemini/tmp/abc/chats/session-1.json",
        "cwd": "/home/me/shop",
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-04T10:20:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf build", "description": "Remove build dir", "dir_path": "."}
    })
}

#[tokio::test]
async fn gemini_clis_tool_call_is_allowed_denied_or_left_to_its_own_dialog() {
    let world = World::new();
    let child = hook(&world, "gemini", &gemini_before_tool(), "30").await;
    pick(&world, "run_shell_command", "rm -rf build", "Allow").await;
    assert_eq!(printed(child).await, Some(json!({"decision": "allow"})));

    let child = hook(&world, "gemini", &gemini_before_tool(), "30").await;
    pick(&world, "run_shell_command", "rm -rf build", "Deny").await;
    assert_eq!(
        printed(child).await,
        Some(json!({"decision": "deny", "reason": "The person denied this in Hark."}))
    );

    // Nobody answers: Gemini CLI shows its own dialog, and the question is withdrawn.
    let child = hook(&world, "gemini", &gemini_before_tool(), "1").await;
    assert_eq!(printed(child).await, Some(json!({"decision": "ask"})));
    assert!(world.pending(0).await.is_empty());

    let mut after = gemini_before_tool();
    after["hook_event_name"] = json!("AfterTool");
    assert_eq!(
        printed(hook(&world, "gemini", &after, "30").await).await,
        None
    );
}

fn copilot_permission_request() -> Value {
    json!({
        "hookName": "permissionRequest",
        "sessionId": "0c6b",
        "timestamp": 1_796_392_871_160_u64,
        "cwd": "/home/me/shop",
        "toolName": "bash",
        "toolInput": {"command": "cargo publish"},
        "permissionSuggestions": []
    })
}

#[tokio::test]
async fn copilot_clis_permission_is_allowed_or_denied_in_its_exact_shape() {
    let world = World::new();
    let child = hook(&world, "copilot", &copilot_permission_request(), "30").await;
    pick(&world, "bash", "cargo publish", "Allow").await;
    assert_eq!(printed(child).await, Some(json!({"behavior": "allow"})));

    let child = hook(&world, "copilot", &copilot_permission_request(), "30").await;
    pick(&world, "bash", "cargo publish", "Deny").await;
    assert_eq!(
        printed(child).await,
        Some(json!({"behavior": "deny", "message": "The person denied this in Hark."}))
    );

    // No answer in time: nothing printed, so Copilot CLI shows its own prompt.
    let child = hook(&world, "copilot", &copilot_permission_request(), "1").await;
    assert_eq!(printed(child).await, None);
    let mut stop = copilot_permission_request();
    stop["hookName"] = json!("agentStop");
    assert_eq!(
        printed(hook(&world, "copilot", &stop, "30").await).await,
        None
    );
}

fn cursor_input(event: &str, extra: Value) -> Value {
    let mut input = json!({
        "conversation_id": "c0ffee",
        "generation_id": "g1",
        "model": "claude-4.5-sonnet",
        "hook_event_name": event,
        "cursor_version": "2.4.0",
        "workspace_roots": ["/home/me/shop"],
        "user_email": null,
        "transcript_path": null
    });
    for (key, value) in extra.as_object().unwrap() {
        input[key] = value.clone();
    }
    input
}

#[tokio::test]
async fn cursors_shell_and_mcp_calls_are_allowed_denied_or_left_to_its_dialog() {
    let world = World::new();
    let shell = cursor_input(
        "beforeShellExecution",
        json!({"command": "git push --force", "cwd": "/home/me/shop", "sandbox": false}),
    );
    let child = hook(&world, "cursor", &shell, "30").await;
    pick(&world, "Shell", "git push --force", "Allow").await;
    assert_eq!(printed(child).await, Some(json!({"permission": "allow"})));

    let mcp = cursor_input(
        "beforeMCPExecution",
        json!({"tool_name": "create_issue", "tool_input": "{\"title\":\"Flaky test\"}",
               "mcp_server_name": "github", "url": "https://api.githubcopilot.com/mcp/"}),
    );
    let child = hook(&world, "cursor", &mcp, "30").await;
    pick(&world, "github: create_issue", "Flaky test", "Deny").await;
    assert_eq!(
        printed(child).await,
        Some(
            json!({"permission": "deny", "user_message": "Denied in Hark.",
                    "agent_message": "The person denied this in Hark."})
        )
    );

    // Nobody answers: Cursor asks in its own dialog (empty output would let the call through).
    let child = hook(&world, "cursor", &shell, "1").await;
    assert_eq!(printed(child).await, Some(json!({"permission": "ask"})));
}

#[tokio::test]
async fn cursors_stop_hands_over_what_the_person_left_for_it() {
    let world = World::new();
    let stop = cursor_input("stop", json!({"status": "completed", "loop_count": 0}));
    // No daemon running: nothing to hand over, and no daemon is started for it.
    assert_eq!(
        printed(hook(&world, "cursor", &stop, "30").await).await,
        Some(json!({}))
    );
    world.start_daemon().await;
    let to = json!({"client": "cursor", "cwd": "/home/me/shop"});
    let left = world
        .post(
            "/api/messages",
            &json!({"to": to, "text": "Also update the changelog."}),
        )
        .await;
    assert_eq!(left.status(), 201);
    let output = printed(hook(&world, "cursor", &stop, "30").await)
        .await
        .unwrap();
    let followup = output["followup_message"].as_str().unwrap();
    assert!(
        followup.contains("Also update the changelog."),
        "{followup}"
    );
    assert_eq!(output.as_object().unwrap().len(), 1);
    // Handed over once.
    assert_eq!(
        printed(hook(&world, "cursor", &stop, "30").await).await,
        Some(json!({}))
    );
}

#[tokio::test]
async fn what_hark_cannot_read_is_left_to_the_agents_own_dialog_never_let_through() {
    let world = World::new();
    // Gemini CLI (its tools approved) and Cursor let a call through on empty output.
    let gemini = printed(hook_raw(&world, "gemini", "not json", "30").await).await;
    assert_eq!(gemini, Some(json!({"decision": "ask"})));
    let cursor = printed(hook_raw(&world, "cursor", "{\"truncated\": ", "30").await).await;
    assert_eq!(cursor, Some(json!({"permission": "ask"})));
    let shell = cursor_input("beforeShellExecution", json!({"cwd": "/home/me/shop"}));
    let without_command = printed(hook(&world, "cursor", &shell, "30").await).await;
    assert_eq!(without_command, Some(json!({"permission": "ask"})));
    // The others ask themselves on empty output.
    assert_eq!(
        printed(hook_raw(&world, "copilot", "[]", "30").await).await,
        None
    );
    assert_eq!(
        printed(hook_raw(&world, "claude", "", "30").await).await,
        None
    );
}

#[tokio::test]
async fn past_cursors_follow_up_limit_a_message_waits_for_the_next_turn() {
    let world = World::new();
    world.start_daemon().await;
    let to = json!({"client": "cursor", "cwd": "/home/me/shop"});
    let left = world
        .post(
            "/api/messages",
            &json!({"to": to, "text": "Run the linter too."}),
        )
        .await;
    assert_eq!(left.status(), 201);
    let spent = cursor_input("stop", json!({"status": "completed", "loop_count": 5}));
    assert_eq!(
        printed(hook(&world, "cursor", &spent, "30").await).await,
        Some(json!({}))
    );
    let next = cursor_input("stop", json!({"status": "completed", "loop_count": 0}));
    let output = printed(hook(&world, "cursor", &next, "30").await)
        .await
        .unwrap();
    let followup = output["followup_message"].as_str().unwrap();
    assert!(followup.contains("Run the linter too."), "{followup}");
}
