//! Agent sessions (SPEC §20) through the real daemon and the real `hark hook claude`, fed the
//! inputs of Claude Code's hooks reference (`UserPromptSubmit`, `Notification`, `Stop`,
//! `SessionEnd`): the session goes through working, waiting and finished with Claude's last
//! message, the event stream says each change once, a message from the person continues a
//! finished Claude (`{"decision": "block"}`), and by default the hook never holds Claude.

use crate::api::events::{connect_url, next_event};
use crate::api::hook::{hook_of, printed};
use crate::api::support::assert_error;
use crate::api::world::*;
use serde_json::{Value, json};

const CWD: &str = "/home/me/shop";

/// A world whose daemon runs with `config`.
async fn world_with(config: Value) -> World {
    let world = World::new();
    std::fs::write(
        world.home.path().join("config.json"),
        serde_json::to_vec(&config).unwrap(),
    )
    .unwrap();
    world.start_daemon().await;
    world
}

/// Claude Code's input for `event`, with the fields every event carries.
fn claude(event: &str, fields: Value) -> Value {
    let mut input = json!({
        "session_id": "00893aaf-19fa-41d2-8238-13269b9b3ca0",
        "transcript_path": "/home/me/.claude/projects/shop/00893aaf.jsonl",
        "cwd": CWD,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    for (key, value) in fields.as_object().unwrap() {
        input[key] = value.clone();
    }
    input
}

/// Runs `hark hook claude` on `input`; what it printed.
async fn run_hook(world: &World, input: Value) -> Option<Value> {
    printed(hook_of(world, "claude", &input, "30").await).await
}

async fn sessions(world: &World) -> Vec<Value> {
    let list: Value = world
        .http
        .get(world.url("/api/sessions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["sessions"].as_array().unwrap().clone()
}

/// The next `session:updated` on `stream`, skipping other events.
async fn next_session(stream: &mut crate::api::events::Socket) -> Value {
    for _ in 0..50 {
        let event = next_event(stream).await;
        if event["event"] == "session:updated" {
            return event["data"].clone();
        }
    }
    panic!("no session:updated in 50 events");
}

fn message_for_claude(text: &str) -> Value {
    json!({"to": {"client": "claude-code", "cwd": CWD}, "text": text})
}

#[tokio::test]
async fn claude_codes_hooks_drive_its_session_through_working_waiting_and_finished() {
    let world = world_with(json!({})).await;
    let mut stream = connect_url(&world.url("/api/ws")).await;
    assert_eq!(next_event(&mut stream).await["event"], "init");

    let prompt = claude("UserPromptSubmit", json!({"prompt": "Refactor the cart"}));
    assert_eq!(run_hook(&world, prompt).await, None);
    let working = next_session(&mut stream).await;
    assert_eq!(working["state"], "working");
    assert_eq!(
        working["agent"],
        json!({"client": "claude-code", "cwd": CWD})
    );
    assert_eq!(working["sessionId"], "00893aaf-19fa-41d2-8238-13269b9b3ca0");

    let dialog = claude(
        "Notification",
        json!({"message": "Claude needs your permission to use Bash",
               "title": "Permission needed", "notification_type": "permission_prompt"}),
    );
    assert_eq!(run_hook(&world, dialog).await, None);
    let waiting = next_session(&mut stream).await;
    assert_eq!(waiting["state"], "waiting");
    assert_eq!(
        waiting["lastMessage"],
        "Claude needs your permission to use Bash"
    );

    let tool = claude(
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "cargo test"},
               "tool_response": {"stdout": "ok"}, "tool_use_id": "toolu_01"}),
    );
    assert_eq!(run_hook(&world, tool).await, None);
    assert_eq!(next_session(&mut stream).await["state"], "working");

    let stop = claude(
        "Stop",
        json!({"stop_hook_active": false,
               "last_assistant_message": "I've refactored the cart; all 42 tests pass."}),
    );
    // Nothing waits for Claude, and by default the hook does not hold it for a reply.
    assert_eq!(run_hook(&world, stop).await, None);
    let finished = next_session(&mut stream).await;
    assert_eq!(finished["state"], "finished");
    assert_eq!(
        finished["lastMessage"],
        "I've refactored the cart; all 42 tests pass."
    );
    // The hook has ended: a message sent now waits for Claude's next turn.
    let later = world
        .post("/api/messages", &message_for_claude("and the wishlist"))
        .await;
    assert_eq!(later.status(), 201);
    let later: Value = later.json().await.unwrap();
    assert_eq!(later["status"], "waiting");

    let listed = sessions(&world).await;
    assert_eq!(listed.len(), 1, "one session, told apart by its id");
    assert_eq!(listed[0]["state"], "finished");

    let end = claude("SessionEnd", json!({"reason": "prompt_input_exit"}));
    assert_eq!(run_hook(&world, end).await, None);
    let ended = next_session(&mut stream).await;
    assert_eq!(ended["state"], "ended");
    assert!(sessions(&world).await.is_empty());
}

#[tokio::test]
async fn a_reply_from_the_page_continues_a_finished_claude() {
    let world = world_with(json!({"continueWaitSecs": 120})).await;
    let mut stream = connect_url(&world.url("/api/ws")).await;
    assert_eq!(next_event(&mut stream).await["event"], "init");
    let stop = claude(
        "Stop",
        json!({"stop_hook_active": false, "last_assistant_message": "Deployed to staging."}),
    );
    let hook = hook_of(&world, "claude", &stop, "30").await;
    assert_eq!(next_session(&mut stream).await["state"], "finished");
    // The person reads "Deployed to staging." on the phone and replies.
    let reply = world
        .post(
            "/api/messages",
            &message_for_claude("Now promote it to production."),
        )
        .await;
    assert_eq!(reply.status(), 201);
    let output = printed(hook).await.expect("the hook continues Claude");
    assert_eq!(output["decision"], "block");
    let reason = output["reason"].as_str().unwrap();
    assert!(reason.contains("Now promote it to production."), "{reason}");
    // Claude goes on: at work again, and the reply is delivered, once.
    let mut states = Vec::new();
    for _ in 0..3 {
        let session = next_session(&mut stream).await;
        states.push(session["state"].as_str().unwrap().to_string());
        if session["state"] == "working" {
            break;
        }
    }
    assert_eq!(
        states.last().map(String::as_str),
        Some("working"),
        "{states:?}"
    );
    let messages: Value = world
        .http
        .get(world.url("/api/messages"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(messages["messages"][0]["status"], "delivered");
}

#[tokio::test]
async fn a_waiting_message_continues_claude_at_once_and_a_continued_claude_is_never_held() {
    let world = world_with(json!({"continueWaitSecs": 120})).await;
    let waiting = world
        .post(
            "/api/messages",
            &message_for_claude("Also bump the version."),
        )
        .await;
    assert_eq!(waiting.status(), 201);
    // Already continued by a hook: a message waiting still goes at once…
    let continued = claude(
        "Stop",
        json!({"stop_hook_active": true, "last_assistant_message": "Done with the cart."}),
    );
    let output = run_hook(&world, continued.clone()).await.unwrap();
    assert_eq!(output["decision"], "block");
    assert!(
        output["reason"]
            .as_str()
            .unwrap()
            .contains("Also bump the version.")
    );
    // …but with none, the hook does not wait for one (no loop of held turns): it ends, and a
    // message sent afterwards waits for the next turn.
    assert_eq!(run_hook(&world, continued).await, None);
    let later = world
        .post("/api/messages", &message_for_claude("later"))
        .await;
    let later: Value = later.json().await.unwrap();
    assert_eq!(later["status"], "waiting");
}

#[tokio::test]
async fn a_bad_session_report_is_refused_naming_its_field() {
    let world = world_with(json!({})).await;
    for (body, field) in [
        (
            json!({"agent": {"client": " "}, "state": "working"}),
            "agent.client",
        ),
        (json!({"agent": {"client": "claude-code"}}), "state"),
        (
            json!({"agent": {"client": "claude-code"}, "state": "working",
                   "sessionId": "s".repeat(201)}),
            "sessionId",
        ),
        (
            json!({"agent": {"client": "claude-code"}, "state": "asleep"}),
            "state",
        ),
    ] {
        assert_error(world.post("/api/sessions", &body).await, 400, Some(field)).await;
    }
    assert!(sessions(&world).await.is_empty());
}

#[tokio::test]
async fn codex_gemini_and_cursor_report_their_turns_and_a_reply_continues_each() {
    let world = world_with(json!({})).await;
    let leave =
        |client: &str, text: &str| json!({"to": {"client": client, "cwd": CWD}, "text": text});
    // Codex: its hooks take Claude Code's shapes (`stop.command.input.schema.json`).
    let codex_stop = json!({"session_id": "th-1", "turn_id": "t1", "transcript_path": null,
        "cwd": CWD, "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
        "stop_hook_active": false, "last_assistant_message": "Renamed foo to bar."});
    assert_eq!(
        printed(hook_of(&world, "codex", &codex_stop, "30").await).await,
        None
    );
    assert_eq!(
        world
            .post("/api/messages", &leave("codex", "Run the tests too."))
            .await
            .status(),
        201
    );
    let output = printed(hook_of(&world, "codex", &codex_stop, "30").await)
        .await
        .unwrap();
    assert_eq!(output["decision"], "block");
    assert!(
        output["reason"]
            .as_str()
            .unwrap()
            .contains("Run the tests too.")
    );

    // Gemini CLI: `AfterAgent`, whose blocking reason is its next prompt.
    let after_agent = json!({"session_id": "g-1", "transcript_path": "/tmp/g.json", "cwd": CWD,
        "hook_event_name": "AfterAgent", "timestamp": "2026-12-04T10:20:00.000Z",
        "prompt": "fix the build", "prompt_response": "The build is green.", "stop_hook_active": false});
    assert_eq!(
        printed(hook_of(&world, "gemini", &after_agent, "30").await).await,
        None
    );
    assert_eq!(
        world
            .post("/api/messages", &leave("gemini-cli", "Now the docs."))
            .await
            .status(),
        201
    );
    let output = printed(hook_of(&world, "gemini", &after_agent, "30").await)
        .await
        .unwrap();
    assert_eq!(output["decision"], "block");
    assert!(output["reason"].as_str().unwrap().contains("Now the docs."));

    // Cursor: what it said comes at `afterAgentResponse`, its end at `stop`.
    let cursor = |event: &str, fields: Value| {
        let mut input = json!({"conversation_id": "cv-1", "generation_id": "gen-1",
            "hook_event_name": event, "workspace_roots": [CWD], "cursor_version": "2.1"});
        for (key, value) in fields.as_object().unwrap() {
            input[key] = value.clone();
        }
        input
    };
    let prompt = cursor(
        "beforeSubmitPrompt",
        json!({"prompt": "tidy up", "attachments": []}),
    );
    assert_eq!(
        printed(hook_of(&world, "cursor", &prompt, "30").await).await,
        Some(json!({"continue": true}))
    );
    let response = cursor("afterAgentResponse", json!({"text": "Tidied the imports."}));
    assert_eq!(
        printed(hook_of(&world, "cursor", &response, "30").await).await,
        None
    );
    let stop = cursor("stop", json!({"status": "completed", "loop_count": 0}));
    assert_eq!(
        printed(hook_of(&world, "cursor", &stop, "30").await).await,
        Some(json!({}))
    );

    let listed = sessions(&world).await;
    let of = |client: &str| {
        listed
            .iter()
            .find(|session| session["agent"]["client"] == client)
            .unwrap_or_else(|| panic!("no {client} session in {listed:?}"))
            .clone()
    };
    // Codex and Gemini went on with the person's words: at work again.
    assert_eq!(of("codex")["state"], "working");
    assert_eq!(of("codex")["lastMessage"], "Renamed foo to bar.");
    assert_eq!(of("gemini-cli")["state"], "working");
    assert_eq!(of("gemini-cli")["lastMessage"], "The build is green.");
    assert_eq!(of("cursor")["state"], "finished");
    assert_eq!(of("cursor")["lastMessage"], "Tidied the imports.");
    assert_eq!(of("cursor")["sessionId"], "cv-1");
}

#[tokio::test]
async fn codexs_notify_program_says_a_turn_finished() {
    let world = world_with(json!({})).await;
    // As `codex-rs/hooks/src/legacy_notify.rs` runs it: the event as the last argument.
    let event = json!({"type": "agent-turn-complete", "thread-id": "b5f6c1c2", "turn-id": "12345",
        "cwd": CWD, "client": "codex-tui", "input-messages": ["Rename foo to bar."],
        "last-assistant-message": "Rename complete and verified."});
    let output = world
        .command(&["hook", "codex", &event.to_string()])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(output.status.success());
    assert!(output.stdout.is_empty(), "Codex reads no answer from it");
    let listed = sessions(&world).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["state"], "finished");
    assert_eq!(listed[0]["sessionId"], "b5f6c1c2");
    assert_eq!(listed[0]["lastMessage"], "Rename complete and verified.");
}

#[tokio::test]
async fn hark_status_lists_each_agent_and_what_it_does() {
    let world = world_with(json!({})).await;
    let stop = claude(
        "Stop",
        json!({"stop_hook_active": false, "last_assistant_message": "Done."}),
    );
    assert_eq!(run_hook(&world, stop).await, None);
    let status = world.command(&["status"]).output().await.unwrap();
    assert!(status.status.success());
    let printed = String::from_utf8(status.stdout).unwrap();
    assert!(
        printed.contains("agent claude-code · shop: finished since "),
        "{printed}"
    );
}
