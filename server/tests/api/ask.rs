//! `hark ask` from a shell: answer, decline, timeout, JSON and file input, exit codes.

use crate::api::world::*;
use serde_json::{Value, json};
use std::process::Stdio;
use tokio::io::AsyncWriteExt;

async fn answer_first_pending(world: &World, answer: Value, action: &str) {
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let response = world
        .post(&format!("/api/questions/{id}/{action}"), &answer)
        .await;
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn ask_prints_the_answer_and_exits_zero() {
    let world = World::new();
    let child = world
        .command(&[
            "ask",
            "Deploy now?",
            "-o",
            "Yes",
            "-o",
            "No",
            "--header",
            "Deploy",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let question = world.pending(1).await.remove(0);
    assert_eq!(question["questions"][0]["header"], "Deploy");
    assert!(
        question["source"]["client"]
            .as_str()
            .unwrap()
            .starts_with("hark-ask")
    );
    answer_first_pending(
        &world,
        json!({"answers": [{"selected": ["Yes"]}]}),
        "answer",
    )
    .await;
    let output = child.wait_with_output().await.unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "Yes");
}

#[tokio::test]
async fn decline_and_timeout_have_their_own_exit_codes() {
    let world = World::new();
    let child = world
        .command(&["ask", "Ship?", "--json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    answer_first_pending(&world, json!({"note": "not today"}), "decline").await;
    let output = child.wait_with_output().await.unwrap();
    assert_eq!(output.status.code(), Some(3));
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(outcome["status"], "declined");
    assert_eq!(outcome["note"], "not today");

    let output = world
        .command(&["ask", "Quick?", "--timeout", "1"])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(4));
}

#[tokio::test]
async fn a_whole_request_from_a_file_or_stdin() {
    let world = World::new();
    let mut child = world
        .command(&["ask", "--file", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let request = json!({"title": "Plan", "questions": [
        {"question": "Parts?", "multiSelect": true, "options": [{"label": "A"}, {"label": "B"}]},
        {"question": "Notes?"}
    ]});
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(request.to_string().as_bytes())
        .await
        .unwrap();
    drop(stdin);
    answer_first_pending(
        &world,
        json!({"answers": [{"selected": ["A", "B"]}, {"freeText": "ok"}]}),
        "answer",
    )
    .await;
    let output = child.wait_with_output().await.unwrap();
    assert_eq!(output.status.code(), Some(0));
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(outcome["answers"][0]["selected"], json!(["A", "B"]));
    assert_eq!(outcome["answers"][1]["freeText"], "ok");
}

#[tokio::test]
async fn bad_input_is_an_error_naming_the_field() {
    let world = World::new();
    let output = world
        .command(&["ask", "Pick", "-o", "A", "-o", "A"])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("questions[0].options[1].label"), "{stderr}");

    let file = world.home.path().join("bad.json");
    std::fs::write(&file, r#"{"questions": [{"question": 5}]}"#).unwrap();
    let output = world
        .command(&["ask", "--file", file.to_str().unwrap()])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("questions[0].question"));

    let output = world.command(&["ask"]).output().await.unwrap();
    assert_eq!(output.status.code(), Some(1));
}
