//! MCP 2026-07-28 through the real shim (`hark mcp`), driven by rmcp's client at that revision:
//! no `initialize`, the client's name and capabilities in each request's `_meta`, and Hark's
//! form in the client through a multi round-trip request (`input_required`, then the retry with
//! the person's answer) instead of `elicitation/create`. The race with the page holds: the
//! form's answer closes the question as the client's, and an answer given on the page first is
//! what the retry returns.

use crate::api::world::*;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use std::time::Duration;

fn deploy() -> Value {
    json!({"questions": [{"question": "Deploy now?", "options": [
        {"label": "Yes", "recommended": true}, {"label": "No"}
    ]}]})
}

fn call(arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new("ask_user").with_arguments(arguments_of(arguments))
}

fn arguments_of(value: Value) -> rmcp::model::JsonObject {
    value.as_object().cloned().unwrap()
}

fn forms(reply: FormReply) -> Recorder {
    Recorder {
        form: Some(reply),
        ..Recorder::default()
    }
}

fn id_of(result: &rmcp::model::CallToolResult) -> String {
    result.structured_content.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_2026_client_lists_the_tools_and_its_question_is_answered_on_the_page() {
    let world = World::new();
    let shim = std::sync::Arc::new(world.shim_2026(Recorder::default()).await);
    let tools = shim.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert!(
        names.contains(&"ask_user") && names.contains(&"get_answer"),
        "{names:?}"
    );

    let asking = {
        let shim = shim.clone();
        tokio::spawn(async move { shim.call_tool(call(deploy())).await })
    };
    let pending = world.pending(1).await;
    let id = pending[0]["id"].as_str().unwrap().to_string();
    // The client's name came with the request, not from a handshake.
    assert_eq!(pending[0]["source"]["client"], "hark-test 9.9");
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    let result = asking.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Yes");
    let shim = std::sync::Arc::into_inner(shim).unwrap();
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn the_form_in_the_client_comes_as_input_required_and_its_answer_closes_the_question() {
    let world = World::new();
    let client = forms(FormReply::Accept(json!({"q1": "No"})));
    let shim = world.shim_2026(client.clone()).await;
    let result = shim.call_tool(call(deploy())).await.unwrap();
    assert_eq!(text_of(&result), "No");
    let form = client.forms.lock().unwrap()[0].clone();
    assert_eq!(
        form["requestedSchema"]["properties"]["q1"]["oneOf"][1]["const"],
        "No"
    );
    let question = world.question(&id_of(&result)).await;
    assert_eq!(question["status"], "answered");
    assert_eq!(question["answeredVia"], "client");

    // Declined in the form: the question is declined.
    let decliner = world.shim_2026(forms(FormReply::Decline)).await;
    let result = decliner.call_tool(call(deploy())).await.unwrap();
    assert_eq!(
        result.structured_content.as_ref().unwrap()["status"],
        "declined"
    );
    shim.cancel().await.unwrap();
    decliner.cancel().await.unwrap();
}

#[tokio::test]
async fn an_answer_on_the_page_before_the_retry_wins_the_race() {
    let world = World::new();
    // The person leaves the client's form open, then answers on the page; the form's late
    // "No" is not taken.
    let client = forms(FormReply::Later(
        Duration::from_secs(4),
        json!({"q1": "No"}),
    ));
    let shim = std::sync::Arc::new(world.shim_2026(client.clone()).await);
    let asking = {
        let shim = shim.clone();
        tokio::spawn(async move { shim.call_tool(call(deploy())).await })
    };
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let response = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}], "via": "page"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let result = asking.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Yes");
    assert_eq!(client.forms.lock().unwrap().len(), 1);
    let question = world.question(&id).await;
    assert_eq!(question["answeredVia"], "page");

    // A retry whose state names no question of Hark's is refused by field.
    let forged = shim
        .peer()
        .call_tool_once(call(deploy()).with_request_state("not-a-question"))
        .await
        .unwrap();
    let rmcp::model::CallToolResponse::Complete(forged) = forged else {
        panic!("a forged state is answered at once");
    };
    assert_eq!(forged.is_error, Some(true));
    assert!(
        text_of(&forged).contains("requestState"),
        "{}",
        text_of(&forged)
    );
    let shim = std::sync::Arc::into_inner(shim).unwrap();
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn another_client_cannot_answer_a_question_by_naming_it_in_a_request_state() {
    let world = World::new();
    // The person leaves the form open in the agent's client; the question waits.
    let victim = std::sync::Arc::new(
        world
            .shim_2026(forms(FormReply::Later(
                Duration::from_secs(10),
                json!({"q1": "No"}),
            )))
            .await,
    );
    let asking = {
        let victim = victim.clone();
        tokio::spawn(async move { victim.call_tool(call(deploy())).await })
    };
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Another client names it (the API lists every question's id) with an accepted form.
    let attacker = world.shim_2026(forms(FormReply::Decline)).await;
    let accepted = rmcp::model::InputResponses::from([(
        "answer".to_string(),
        json!({"action": "accept", "content": {"q1": "Yes"}}),
    )]);
    let forged = attacker
        .peer()
        .call_tool_once(
            call(deploy())
                .with_request_state(id.clone())
                .with_input_responses(accepted),
        )
        .await
        .unwrap();
    let rmcp::model::CallToolResponse::Complete(forged) = forged else {
        panic!("a forged state is answered at once");
    };
    assert_eq!(forged.is_error, Some(true), "{}", text_of(&forged));
    assert!(
        text_of(&forged).contains("requestState"),
        "{}",
        text_of(&forged)
    );
    let question = world.question(&id).await;
    assert_eq!(question["status"], "pending", "{question}");
    // The person answers on the page; the agent that asked gets it.
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}], "via": "page"}),
        )
        .await;
    let result = asking.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Yes");
    attacker.cancel().await.unwrap();
    let victim = std::sync::Arc::into_inner(victim).unwrap();
    victim.cancel().await.unwrap();
}
