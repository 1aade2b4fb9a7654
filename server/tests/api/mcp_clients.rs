//! The shim with real MCP clients, as their own rules shape it: deadlines known per client,
//! a time limit's recommended option, and Hark's form shown in a client that can show forms
//! (elicitation), racing the page.

use super::mcp::deploy;
use crate::api::world::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_client_known_to_cut_calls_gets_pending_in_time_and_others_keep_waiting() {
    let world = World::new();
    let codex = Recorder {
        name: Some("codex-mcp-client"),
        ..Recorder::default()
    };
    // Codex as its person configured it: calls cut at 6 s (Codex's own default, 60 s, is in the
    // table the unit tests read). The hand-off then comes at half of that.
    let (codex, _) = world.shim_as(codex, &["--client-limit", "codex=6"]).await;
    let patient = world.shim().await;
    let started = std::time::Instant::now();
    let cut = start_call(&codex, "ask_user", deploy()).await;
    let waiting = start_call(&patient, "ask_user", deploy()).await;
    world.pending(2).await;
    // The result comes before Codex would cut the call, and says what to call next.
    let handed_off = tokio::time::timeout(Duration::from_secs(6), cut.await_response())
        .await
        .expect("the hand-off comes before Codex's 6 s")
        .expect("a response");
    let rmcp::model::ServerResult::CallToolResult(handed_off) = handed_off else {
        panic!("a tool result");
    };
    assert!(
        started.elapsed() >= Duration::from_millis(2_500),
        "not much sooner than needed"
    );
    assert_eq!(
        handed_off.structured_content.as_ref().unwrap()["status"],
        "pending"
    );
    assert!(text_of(&handed_off).contains("get_answer"));
    // The other client (unknown: it waits) is still waiting, and gets the answer.
    let pending = world.pending(2).await;
    for question in &pending {
        world
            .post(
                &format!("/api/questions/{}/answer", question["id"].as_str().unwrap()),
                &json!({"answers": [{"selected": ["Yes"]}]}),
            )
            .await;
    }
    assert_eq!(text_of(&finish(waiting).await), "Yes");
    codex.cancel().await.unwrap();
    patient.cancel().await.unwrap();
}

#[tokio::test]
async fn a_time_limit_can_answer_with_the_recommended_option() {
    let world = World::new();
    let shim = world.shim().await;
    let result = finish(
        start_call(
            &shim,
            "ask_user",
            json!({"questions": [{"question": "Format the disk?", "options": [
                {"label": "Keep it", "recommended": true},
                {"label": "Format", "danger": true}
            ]}], "timeoutSecs": 1, "timeoutAction": "recommended"}),
        )
        .await,
    )
    .await;
    let structured = result.structured_content.as_ref().unwrap();
    assert_eq!(structured["status"], "answered");
    assert_eq!(
        structured["note"],
        hark_core::model::DaemonNote::ChosenByTimeout.text()
    );
    let text = text_of(&result);
    assert!(
        text.starts_with("Keep it") && text.contains("chosen automatically"),
        "{text}"
    );
    shim.cancel().await.unwrap();
}

/// A client that answers forms with `reply`.
fn with_forms(reply: FormReply) -> Recorder {
    Recorder {
        form: Some(reply),
        ..Recorder::default()
    }
}

#[tokio::test]
async fn a_client_that_shows_forms_is_asked_there_too_and_its_answer_wins() {
    let world = World::new();
    let client = with_forms(FormReply::Accept(json!({"q1": "No"})));
    let (shim, _) = world.shim_as(client.clone(), &[]).await;
    let result = finish(start_call(&shim, "ask_user", deploy()).await).await;
    assert_eq!(text_of(&result), "No");
    let form = client.forms.lock().unwrap()[0].clone();
    assert_eq!(form["mode"], "form");
    assert_eq!(
        form["requestedSchema"]["properties"]["q1"]["oneOf"][1]["const"],
        "No"
    );
    // The page shows it answered.
    let id = result.structured_content.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let question = world.question(&id).await;
    assert_eq!(question["status"], "answered");
    assert_eq!(
        question["answeredVia"], "client",
        "answered in the agent's window"
    );
    let page = world
        .http
        .get(world.url(&format!("/q/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("in the agent&#39;s own window")
            || page.contains("in the agent's own window"),
        "the page says where"
    );
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn an_answer_on_the_page_withdraws_the_clients_form() {
    let world = World::new();
    let client = with_forms(FormReply::Hold);
    let (shim, _) = world.shim_as(client.clone(), &[]).await;
    let call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for _ in 0..100 {
        if !client.forms.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(client.forms.lock().unwrap().len(), 1, "the form was shown");
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    assert_eq!(text_of(&finish(call).await), "Yes");
    let mut withdrawn = 0;
    for _ in 0..100 {
        withdrawn = client.withdrawn.load(std::sync::atomic::Ordering::SeqCst);
        if withdrawn > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(withdrawn, 1, "notifications/cancelled reached the client");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn declining_the_form_declines_and_dismissing_it_leaves_the_page() {
    let world = World::new();
    let (decliner, _) = world.shim_as(with_forms(FormReply::Decline), &[]).await;
    let declined = finish(start_call(&decliner, "ask_user", deploy()).await).await;
    assert_eq!(
        declined.structured_content.as_ref().unwrap()["status"],
        "declined"
    );
    let declined_id = declined.structured_content.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(world.question(&declined_id).await["answeredVia"], "client");
    let dismissing = with_forms(FormReply::Dismiss);
    let (dismisser, _) = world.shim_as(dismissing.clone(), &[]).await;
    let call = start_call(&dismisser, "ask_user", deploy()).await;
    let pending = world.pending(1).await;
    let id = pending[0]["id"].as_str().unwrap().to_string();
    for _ in 0..200 {
        if !dismissing.forms.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        dismissing.forms.lock().unwrap().len(),
        1,
        "the form was shown"
    );
    // Dismissed, the form leaves the question to the page: the page's answer is taken there
    // and becomes the call's result.
    let answered = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    assert_eq!(answered.status(), 200, "still open on the page");
    assert_eq!(text_of(&finish(call).await), "Yes");
    // A client without forms gets none; with `elicitation: "off"`, no client does.
    let plain = Recorder::default();
    let (plain_shim, _) = world.shim_as(plain.clone(), &[]).await;
    let call = start_call(&plain_shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["No"]}]}),
        )
        .await;
    assert_eq!(text_of(&finish(call).await), "No");
    assert!(plain.forms.lock().unwrap().is_empty());
    let off = world
        .http
        .put(world.url("/api/config"))
        .json(&json!({"elicitation": "off"}))
        .send()
        .await
        .unwrap();
    assert_eq!(off.status(), 200);
    let quiet = with_forms(FormReply::Accept(json!({"q1": "No"})));
    let (quiet_shim, _) = world.shim_as(quiet.clone(), &[]).await;
    let call = start_call(&quiet_shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    assert_eq!(text_of(&finish(call).await), "Yes");
    assert!(quiet.forms.lock().unwrap().is_empty(), "elicitation is off");
    for shim in [decliner, dismisser, plain_shim, quiet_shim] {
        shim.cancel().await.unwrap();
    }
}
