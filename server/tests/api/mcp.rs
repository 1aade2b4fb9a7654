//! `hark mcp` end to end: an rmcp client spawns the real binary, which starts its own daemon
//! (temporary HARK_HOME, free port), and the person's side is played over REST.

use crate::api::world::*;
use serde_json::{Value, json};

pub(super) fn deploy() -> Value {
    json!({"questions": [{"question": "Deploy now?", "options": [{"label": "Yes"}, {"label": "No"}]}]})
}

#[tokio::test]
async fn a_four_question_round_trip_returns_everything_verbatim() {
    let world = World::new();
    let shim = world.shim().await;
    let free_text = format!("naïve café 🚀\t\u{7}ctl {}", "z".repeat(10_000));
    let call = start_call(
        &shim,
        "ask_user",
        json!({"title": "Release **2.3**", "questions": [
            {"question": "Which regions?", "header": "Regions", "multiSelect": true,
             "options": [{"label": "EU"}, {"label": "US 🇺🇸"}, {"label": "Asia"}]},
            {"question": "Database?", "options": [{"label": "Postgres", "recommended": true}, {"label": "Drop it", "danger": true}]},
            {"question": "Anything else?"},
            {"question": "Window?", "options": [{"label": "Now"}, {"label": "Tonight"}]}
        ]}),
    )
    .await;
    let question = world.pending(1).await.remove(0);
    assert_eq!(question["source"]["client"], "hark-test 9.9");
    assert!(
        question["source"]["cwd"]
            .as_str()
            .is_some_and(|cwd| !cwd.is_empty())
    );
    assert!(question["source"]["pid"].as_u64().is_some());
    let id = question["id"].as_str().unwrap().to_string();
    let answers = json!({"answers": [
        {"selected": ["EU", "US 🇺🇸"]},
        {"selected": ["Postgres"]},
        {"freeText": free_text},
        {"selected": ["Tonight"], "freeText": "after 22:00 ✓"}
    ]});
    assert_eq!(
        world
            .post(&format!("/api/questions/{id}/answer"), &answers)
            .await
            .status(),
        200
    );
    let result = finish(call).await;
    assert_eq!(result.is_error, Some(false));
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    assert_eq!(structured["status"], "answered");
    assert_eq!(structured["id"], id.as_str());
    assert_eq!(
        structured["answers"],
        json!([
            {"question": "Which regions?", "selected": ["EU", "US 🇺🇸"]},
            {"question": "Database?", "selected": ["Postgres"]},
            {"question": "Anything else?", "selected": [], "freeText": free_text},
            {"question": "Window?", "selected": ["Tonight"], "freeText": "after 22:00 ✓"}
        ])
    );
    let text: Value = serde_json::from_str(&text_of(&result)).expect("several answers are JSON");
    assert_eq!(text, structured["answers"]);
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn a_single_simple_answer_is_plain_text() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(&shim, "ask_user", deploy()).await;
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
    let result = finish(call).await;
    assert_eq!(text_of(&result), "No");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn timeout_and_decline_are_normal_results() {
    let world = World::new();
    let shim = world.shim().await;
    let mut timed = deploy();
    timed["timeoutSecs"] = json!(1);
    let result = finish(start_call(&shim, "ask_user", timed).await).await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        result.structured_content.as_ref().unwrap()["status"],
        "timeout"
    );
    assert!(text_of(&result).contains("Nobody answered"));

    let call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    world
        .post(
            &format!("/api/questions/{id}/decline"),
            &json!({"note": "ask Sam"}),
        )
        .await;
    let result = finish(call).await;
    assert_eq!(result.is_error, Some(false));
    let structured = result.structured_content.as_ref().unwrap();
    assert_eq!(structured["status"], "declined");
    assert_eq!(structured["note"], "ask Sam");
    assert!(text_of(&result).contains("ask Sam"));
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_id_is_a_tool_error_and_the_shim_keeps_working() {
    let world = World::new();
    let shim = world.shim().await;
    let unknown = finish(
        start_call(
            &shim,
            "get_answer",
            json!({"id": "00000000-0000-4000-8000-000000000000"}),
        )
        .await,
    )
    .await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(text_of(&unknown).contains("id"));
    // Nothing was created, and the same shim still works.
    let call = start_call(&shim, "ask_user", deploy()).await;
    let pending = world.pending(1).await;
    assert_eq!(pending.len(), 1);
    let id = pending[0]["id"].as_str().unwrap().to_string();
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    assert_eq!(text_of(&finish(call).await), "Yes");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn a_port_held_by_another_program_is_a_clear_tool_error() {
    let world = World::new();
    let holder = tokio::net::TcpListener::bind(("127.0.0.1", world.port))
        .await
        .unwrap();
    // Answer every connection with something that is not Hark.
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        while let Ok((mut stream, _)) = holder.accept().await {
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nhi")
                .await;
        }
    });
    let shim = world.shim().await;
    let result = finish(start_call(&shim, "ask_user", deploy()).await).await;
    assert_eq!(result.is_error, Some(true));
    let text = text_of(&result);
    assert!(
        text.contains(&world.port.to_string()) && text.contains("HARK_PORT"),
        "{text}"
    );
    shim.cancel().await.unwrap();
}
