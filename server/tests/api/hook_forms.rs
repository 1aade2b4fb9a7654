//! `hark hook claude` for what Claude Code asks besides its questions and permissions, fed the
//! inputs of its hooks reference (code.claude.com/docs/en/hooks): another MCP server's form
//! (`Elicitation`), a plan to approve (`PreToolUse` of `ExitPlanMode`), and a permission whose
//! "always allow" suggestion the person picks in Hark.

use crate::api::hook::{hook_of, printed};
use crate::api::world::*;
use serde_json::{Value, json};

async fn hook(world: &World, input: &Value) -> tokio::process::Child {
    hook_of(world, "claude", input, "30").await
}

async fn answer(world: &World, question: &Value, answers: Value) {
    let id = question["id"].as_str().unwrap();
    let answered = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({ "answers": answers }),
        )
        .await;
    assert!(
        answered.status().is_success(),
        "{}",
        answered.text().await.unwrap()
    );
}

/// The reference's form-mode input, with a form of five fields (one of each kind, one not
/// required), as an MCP server's `elicitation/create` carries it.
fn deploy_form() -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/me/shop",
        "permission_mode": "default",
        "hook_event_name": "Elicitation",
        "mcp_server_name": "deployer",
        "message": "Where should the release go?",
        "mode": "form",
        "requested_schema": {
            "type": "object",
            "properties": {
                "environment": {"type": "string", "title": "Environment",
                    "oneOf": [{"const": "prod", "title": "Production"}, {"const": "staging", "title": "Staging"}],
                    "default": "staging"},
                "replicas": {"type": "integer", "title": "Replicas", "description": "How many copies to run",
                    "minimum": 1, "maximum": 10},
                "notify": {"type": "boolean", "title": "Tell the team?"},
                "note": {"type": "string", "title": "Release note", "maxLength": 50},
                "canary": {"type": "number", "title": "Canary share", "minimum": 0, "maximum": 1}
            },
            "required": ["environment", "replicas", "notify", "canary"]
        }
    })
}

#[tokio::test]
async fn another_servers_form_is_asked_in_hark_and_its_answer_goes_back_typed() {
    let world = World::new();
    let child = hook(&world, &deploy_form()).await;
    let first = world.pending(1).await.remove(0);
    let title = first["title"].as_str().unwrap();
    assert!(
        title.contains("deployer") && title.contains("Where should the release go?"),
        "{title}"
    );
    assert!(title.ends_with("(1/2)"), "four fields at a time: {title}");
    let subs = first["questions"].as_array().unwrap();
    let headers: Vec<&str> = subs
        .iter()
        .map(|sub| sub["header"].as_str().unwrap())
        .collect();
    assert_eq!(
        headers,
        ["Environment", "Replicas", "Tell the team?", "Release note"]
    );
    assert_eq!(subs[0]["options"][1]["label"], "Staging");
    assert_eq!(subs[0]["options"][1]["recommended"], true, "the default");
    assert_eq!(subs[0]["allowFreeText"], false);
    assert_eq!(subs[1]["question"], "How many copies to run");
    assert_eq!(subs[1]["allowFreeText"], true);
    let yes_no: Vec<&str> = (subs[2]["options"].as_array().unwrap().iter())
        .map(|option| option["label"].as_str().unwrap())
        .collect();
    assert_eq!(yes_no, ["Yes", "No"]);
    assert_eq!(
        subs[3]["options"][0]["label"], "Leave empty",
        "not required"
    );
    answer(
        &world,
        &first,
        json!([{"selected": ["Production"]}, {"selected": [], "freeText": "three"},
               {"selected": ["Yes"]}, {"selected": ["Leave empty"]}]),
    )
    .await;
    // What did not fit is asked again, alone, saying why.
    let again = world.pending(1).await.remove(0);
    let subs = again["questions"].as_array().unwrap();
    assert_eq!(subs.len(), 1);
    assert_eq!(subs[0]["header"], "Replicas");
    let asked = subs[0]["question"].as_str().unwrap();
    assert!(
        asked.contains("three") && asked.contains("How many copies"),
        "{asked}"
    );
    answer(&world, &again, json!([{"selected": [], "freeText": "12"}])).await;
    let range = world.pending(1).await.remove(0);
    assert!(
        range["questions"][0]["question"]
            .as_str()
            .unwrap()
            .contains("10")
    );
    answer(&world, &range, json!([{"selected": [], "freeText": "3"}])).await;
    let second = world.pending(1).await.remove(0);
    assert!(second["title"].as_str().unwrap().ends_with("(2/2)"));
    answer(
        &world,
        &second,
        json!([{"selected": [], "freeText": "0,25"}]),
    )
    .await;
    let output = printed(child).await.expect("the form's answer");
    assert_eq!(
        output,
        json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
            "content": {"environment": "prod", "replicas": 3, "notify": true, "canary": 0.25}}})
    );
    let content = &output["hookSpecificOutput"]["content"];
    assert!(content["replicas"].is_i64() && content["canary"].is_f64());
}

#[tokio::test]
async fn a_skipped_form_declines_and_a_sign_in_page_is_left_to_claude_code() {
    let world = World::new();
    let child = hook(&world, &deploy_form()).await;
    let question = world.pending(1).await.remove(0);
    let id = question["id"].as_str().unwrap();
    world
        .post(&format!("/api/questions/{id}/decline"), &json!({}))
        .await;
    assert_eq!(
        printed(child).await,
        Some(json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "decline"}}))
    );
    let mut sign_in = deploy_form();
    sign_in["mode"] = json!("url");
    sign_in["url"] = json!("https://auth.example.com/login");
    sign_in.as_object_mut().unwrap().remove("requested_schema");
    assert_eq!(printed(hook(&world, &sign_in).await).await, None);
    assert!(
        world.pending(0).await.is_empty(),
        "nothing was asked for a sign-in"
    );
}

fn exit_plan_mode() -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/me/shop",
        "permission_mode": "plan",
        "hook_event_name": "PreToolUse",
        "tool_name": "ExitPlanMode",
        "tool_input": {
            "plan": "## Refactor auth\n1. Extract the session store\n2. Add tests",
            "planFilePath": "/home/me/.claude/plans/refactor-auth.md"
        },
        "tool_use_id": "toolu_01PLAN"
    })
}

#[tokio::test]
async fn a_plan_is_approved_in_hark_or_sent_back_with_the_persons_words() {
    let world = World::new();
    let child = hook(&world, &exit_plan_mode()).await;
    let question = world.pending(1).await.remove(0);
    let sub = &question["questions"][0];
    assert!(
        sub["question"]
            .as_str()
            .unwrap()
            .contains("## Refactor auth\n1. Extract")
    );
    let labels: Vec<&str> = (sub["options"].as_array().unwrap().iter())
        .map(|option| option["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Approve", "Keep planning"]);
    answer(&world, &question, json!([{"selected": ["Approve"]}])).await;
    let output = printed(child).await.expect("an approval");
    let specific = &output["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow");
    assert_eq!(specific["updatedInput"], exit_plan_mode()["tool_input"]);

    let child = hook(&world, &exit_plan_mode()).await;
    let question = world.pending(1).await.remove(0);
    answer(
        &world,
        &question,
        json!([{"selected": [], "freeText": "Keep the old tokens working"}]),
    )
    .await;
    let output = printed(child).await.expect("the person's words");
    let specific = &output["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("Keep the old tokens working"), "{reason}");
    assert!(specific.get("updatedInput").is_none());
}

#[tokio::test]
async fn always_allow_answers_with_claude_codes_own_suggestion_shown_first() {
    let world = World::new();
    let suggestion = json!({
        "type": "addRules",
        "rules": [{"toolName": "Bash", "ruleContent": "npm test"}],
        "behavior": "allow",
        "destination": "localSettings"
    });
    let input = json!({
        "session_id": "abc123",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/me/shop",
        "permission_mode": "default",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test", "description": "Run the tests"},
        "permission_suggestions": [suggestion]
    });
    let child = hook(&world, &input).await;
    let question = world.pending(1).await.remove(0);
    let options = question["questions"][0]["options"].as_array().unwrap();
    let labels: Vec<&str> = options
        .iter()
        .map(|option| option["label"].as_str().unwrap())
        .collect();
    // Hark's own rule for this exact call, Claude Code's suggestion, and the denials.
    assert_eq!(
        labels,
        [
            "Allow",
            "Always allow",
            "Always allow Bash(npm test)",
            "Deny",
            "Always deny"
        ]
    );
    let kept = options[2]["description"].as_str().unwrap();
    assert!(
        kept.contains(".claude/settings.local.json"),
        "where the rule is kept: {kept}"
    );
    answer(
        &world,
        &question,
        json!([{"selected": ["Always allow Bash(npm test)"]}]),
    )
    .await;
    assert_eq!(
        printed(child).await,
        Some(
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedPermissions": [suggestion]}}})
        )
    );
}

#[tokio::test]
async fn a_plan_left_to_claude_codes_dialog_is_not_asked_again_as_a_permission() {
    let world = World::new();
    world.start_daemon().await;
    let mut input = exit_plan_mode();
    input["hook_event_name"] = json!("PermissionRequest");
    input.as_object_mut().unwrap().remove("tool_use_id");
    assert_eq!(printed(hook(&world, &input).await).await, None);
    assert!(world.pending(0).await.is_empty(), "nothing asked twice");
}
