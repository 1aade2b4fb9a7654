//! The shim waiting on the person: calls cancelled and shims killed while a question waits,
//! a daemon killed mid-wait, shims started together, progress, deadlines handed off to
//! `get_answer`, and many calls at once, each getting its own answer.

use super::mcp::deploy;
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

/// Polls until the question's agent is marked as gone (bounded), and returns the question.
async fn abandoned(world: &World, id: &str) -> Value {
    for _ in 0..100 {
        let question = world.question(id).await;
        if question["abandonedAt"].is_string() {
            return question;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{id} was not marked as abandoned");
}

#[tokio::test]
async fn a_cancelled_call_leaves_the_question_answerable_and_get_answer_collects_it() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    call.cancel(Some("the user pressed Esc".into()))
        .await
        .unwrap();
    // The person may be typing: the question stays, marked.
    let question = abandoned(&world, &id).await;
    assert_eq!(question["status"], "pending");
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["No"]}]}),
        )
        .await;
    let late = finish(start_call(&shim, "get_answer", json!({"id": id})).await).await;
    assert_eq!(text_of(&late), "No");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn questions_left_behind_are_withdrawn_after_late_secs() {
    let world = World::new();
    std::fs::write(world.home.path().join("config.json"), r#"{"lateSecs": 1}"#).unwrap();
    let shim = world.shim().await;
    let _call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The client goes away (stdin closes): the question waits a second for it, then goes.
    shim.cancel().await.unwrap();
    assert_eq!(abandoned(&world, &id).await["status"], "pending");
    world
        .expect_status(&id, "cancelled", Duration::from_secs(5))
        .await;
    assert_eq!(
        world.question(&id).await["note"],
        hark_core::model::DaemonNote::NobodyAnsweredInTime.text()
    );
}

#[tokio::test]
async fn a_killed_shim_leaves_its_question_for_the_same_question_asked_again() {
    let world = World::new();
    let (shim, pid) = world.shim_with(&[]).await;
    let _call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The kill must land while the shim's wait is open: the question is listed as soon as the
    // store decides it, a moment before the shim hears its 201 and opens the wait, and a shim
    // killed in between leaves no connection to drop.
    world.waits_open(1).await;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    // Its wait's connection drops: the daemon marks the question within a moment.
    assert_eq!(abandoned(&world, &id).await["status"], "pending");
    // The agent, restarted, asks the same again from the same place: it gets that question.
    let again = world.shim().await;
    let call = start_call(&again, "ask_user", deploy()).await;
    let mut taken_up = Value::Null;
    for _ in 0..100 {
        taken_up = world.question(&id).await;
        if taken_up["abandonedAt"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(taken_up["abandonedAt"].is_null(), "taken up again");
    assert_eq!(taken_up["status"], "pending");
    assert_eq!(world.pending(1).await.len(), 1, "no second question");
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    assert_eq!(text_of(&finish(call).await), "Yes");
    again.cancel().await.unwrap();
}

#[tokio::test]
async fn an_answer_given_after_the_agent_left_reaches_it_when_it_asks_again() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    call.cancel(None).await.unwrap();
    abandoned(&world, &id).await;
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["No"]}]}),
        )
        .await;
    // Asked again: the answer comes back at once, and nothing new is asked.
    let again = finish(start_call(&shim, "ask_user", deploy()).await).await;
    assert_eq!(text_of(&again), "No");
    assert_eq!(
        again.structured_content.as_ref().unwrap()["id"],
        id.as_str()
    );
    let pending: Value = world
        .http
        .get(world.url("/api/questions?status=pending"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(pending["questions"], json!([]));
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn the_answer_arrives_even_after_the_daemon_is_killed_mid_wait() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(&shim, "ask_user", deploy()).await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let first = world.daemon_pid().expect("the shim started a daemon");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(first),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    // The shim starts a new daemon and re-submits the same id.
    let mut restarted = None;
    for _ in 0..200 {
        let pid = world.daemon_pid();
        let question_url = world.url(&format!("/api/questions/{id}"));
        if pid.is_some()
            && pid != Some(first)
            && let Ok(response) = world.http.get(question_url).send().await
            && response.status() == 200
        {
            restarted = pid;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        restarted.is_some(),
        "a new daemon holds the same question id"
    );
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    let result = finish(call).await;
    assert_eq!(
        result.structured_content.as_ref().unwrap()["status"],
        "answered"
    );
    assert_eq!(text_of(&result), "Yes");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn eight_shims_started_at_once_share_one_daemon() {
    let world = World::new();
    let shims = futures::future::join_all((0..8).map(|_| world.shim())).await;
    let calls = futures::future::join_all(shims.iter().enumerate().map(|(i, shim)| {
        start_call(
            shim,
            "ask_user",
            json!({"questions": [{"question": format!("Shim {i}?")}]}),
        )
    }))
    .await;
    let pending = world.pending(8).await;
    assert_eq!(pending.len(), 8, "all 8 questions reached the one daemon");
    let pids: Vec<i32> = {
        let output = std::process::Command::new("pgrep")
            .args(["-f", &format!("hark serve --port {}", world.port)])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    assert_eq!(pids.len(), 1, "exactly one daemon runs: {pids:?}");
    // The losers of the race never touched the history: nothing was taken for damage.
    let files: Vec<String> = std::fs::read_dir(world.home.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.contains(&"hark.db".to_string()), "{files:?}");
    assert!(
        !files.iter().any(|name| name.contains("damaged")),
        "{files:?}"
    );
    for question in &pending {
        let id = question["id"].as_str().unwrap();
        let text = question["questions"][0]["question"]
            .as_str()
            .unwrap()
            .to_string();
        world
            .post(
                &format!("/api/questions/{id}/answer"),
                &json!({"answers": [{"freeText": text}]}),
            )
            .await;
    }
    for (i, call) in calls.into_iter().enumerate() {
        assert_eq!(text_of(&finish(call).await), format!("Shim {i}?"));
    }
    for shim in shims {
        shim.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn progress_is_reported_while_waiting() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(&shim, "ask_user", deploy()).await;
    let token = call.progress_token.clone();
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut received = Vec::new();
    for _ in 0..300 {
        received = shim.service().progress.lock().unwrap().clone();
        if !received.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!received.is_empty(), "a progress notification within 15 s");
    assert_eq!(received[0].progress_token, token);
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
async fn a_deadline_hands_off_to_get_answer_without_losing_the_answer() {
    let world = World::new();
    let (shim, _) = world.shim_with(&["--max-wait", "1"]).await;
    let result = finish(start_call(&shim, "ask_user", deploy()).await).await;
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["status"], "pending");
    let id = structured["id"].as_str().unwrap().to_string();
    assert!(text_of(&result).contains("get_answer"));
    assert_eq!(
        world.question(&id).await["status"],
        "pending",
        "still open in the UI"
    );

    let again = finish(start_call(&shim, "get_answer", json!({"id": id})).await).await;
    assert_eq!(
        again.structured_content.as_ref().unwrap()["status"],
        "pending"
    );

    let call = start_call(&shim, "get_answer", json!({"id": id, "waitSecs": 30})).await;
    world.waits_open(1).await;
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    let answered = finish(call).await;
    // The shim's own limit (1 s) caps waitSecs, so the answer may land in a later call.
    let answered = if answered.structured_content.as_ref().unwrap()["status"] == "pending" {
        finish(start_call(&shim, "get_answer", json!({"id": id})).await).await
    } else {
        answered
    };
    assert_eq!(
        answered.structured_content.as_ref().unwrap()["status"],
        "answered"
    );
    assert_eq!(text_of(&answered), "Yes");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn fifty_calls_from_ten_shims_each_get_their_own_answer() {
    use rand::seq::SliceRandom;
    let world = World::new();
    let shims = futures::future::join_all((0..10).map(|_| world.shim())).await;
    let mut calls = Vec::new();
    for (s, shim) in shims.iter().enumerate() {
        for c in 0..5 {
            let label = format!("shim {s} call {c}");
            let call = start_call(
                shim,
                "ask_user",
                json!({"questions": [{"question": label.clone()}]}),
            )
            .await;
            calls.push((label, call));
        }
    }
    let mut pending = world.pending(50).await;
    pending.shuffle(&mut rand::rng());
    for question in &pending {
        let id = question["id"].as_str().unwrap();
        let label = question["questions"][0]["question"].as_str().unwrap();
        let response = world
            .post(
                &format!("/api/questions/{id}/answer"),
                &json!({"answers": [{"freeText": format!("answer to {label}")}]}),
            )
            .await;
        assert_eq!(response.status(), 200);
    }
    for (label, call) in calls {
        assert_eq!(text_of(&finish(call).await), format!("answer to {label}"));
    }
    for shim in shims {
        shim.cancel().await.unwrap();
    }
}
