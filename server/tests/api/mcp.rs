//! `hark mcp` end to end: an rmcp client spawns the real binary, which starts its own daemon
//! (temporary HARK_HOME, free port), and the person's side is played over REST.

use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

fn deploy() -> Value {
    json!({"questions": [{"question": "Deploy now?", "options": [{"label": "Yes"}, {"label": "No"}]}]})
}

#[tokio::test]
async fn identity_instructions_and_tools() {
    let world = World::new();
    let shim = world.shim().await;
    let info = shim.peer_info().expect("server info");
    let server = info.server_info.clone().expect("server identity");
    assert_eq!(server.name, "hark");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("ask_user")
    );
    let tools = shim.list_all_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|tool| tool.name.to_string()).collect();
    assert_eq!(names, ["ask_user", "get_answer"]);
    let ask = &tools[0];
    let schema = serde_json::to_value(&*ask.input_schema).unwrap();
    assert_eq!(schema["properties"]["questions"]["maxItems"], 4);
    assert_eq!(schema["properties"]["questions"]["minItems"], 1);
    assert!(
        schema["properties"].get("id").is_none(),
        "the shim fills id itself"
    );
    assert!(
        schema["properties"].get("source").is_none(),
        "the shim fills source itself"
    );
    // Self-contained: several clients cannot follow references.
    for tool in &tools {
        let text = serde_json::to_string(&*tool.input_schema).unwrap();
        assert!(
            !text.contains("$ref") && !text.contains("$defs"),
            "{}: {text}",
            tool.name
        );
    }
    let option =
        &schema["properties"]["questions"]["items"]["properties"]["options"]["items"]["properties"];
    for key in ["label", "description", "recommended", "danger"] {
        assert!(option.get(key).is_some(), "option.{key} in the schema");
    }
    assert_eq!(
        tools[1].input_schema["properties"]["id"]["format"], "uuid",
        "get_answer's id"
    );
    let output = serde_json::to_value(ask.output_schema.as_deref().unwrap()).unwrap();
    assert!(output["properties"].get("status").is_some());
    shim.cancel().await.unwrap();
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
    // killed in between leaves no connection to drop. Nothing the API shows tells that the
    // wait is open, so the test gives it this long.
    tokio::time::sleep(Duration::from_millis(300)).await;
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
    tokio::time::sleep(Duration::from_millis(200)).await;
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
async fn bad_arguments_are_tool_errors_naming_the_field() {
    let world = World::new();
    let shim = world.shim().await;
    let many: Vec<Value> = (0..5)
        .map(|i| json!({"question": format!("q{i}")}))
        .collect();
    let options: Vec<Value> = (0..27).map(|i| json!({"label": format!("o{i}")})).collect();
    let cases = [
        (json!({"questions": []}), "questions"),
        (json!({"questions": many}), "questions"),
        (json!({}), "questions"),
        (
            json!({"questions": [{"question": "q", "options": [{"label": ""}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "A"}, {"label": "A"}]}]}),
            "questions[0].options[1].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": options}]}),
            "questions[0].options",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "x".repeat(201)}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": ""}]}),
            "questions[0].question",
        ),
        (
            json!({"questions": [{"question": "q", "multiSelect": "yes"}]}),
            "questions[0].multiSelect",
        ),
        (
            json!({"questions": [{"question": "q"}], "title": "t".repeat(20_001)}),
            "title",
        ),
    ];
    for (args, field) in cases {
        let result = finish(start_call(&shim, "ask_user", args.clone()).await).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        let text = text_of(&result);
        assert!(text.contains(field), "{field} named in {text:?}");
    }
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
    // A malformed id or wait is the model's mistake: a tool error naming the field, not a
    // protocol error.
    for (args, field) in [
        (json!({"id": "not-a-uuid"}), "id"),
        (json!({}), "id"),
        (
            json!({"id": "00000000-0000-4000-8000-000000000000", "waitSecs": "soon"}),
            "waitSecs",
        ),
    ] {
        let result = finish(start_call(&shim, "get_answer", args.clone()).await).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        let text = text_of(&result);
        assert!(
            text.starts_with(&format!("{field}:")),
            "{field} named in {text:?}"
        );
    }
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

#[tokio::test]
async fn a_client_known_to_cut_calls_gets_pending_in_time_and_others_keep_waiting() {
    let world = World::new();
    let codex = Recorder {
        name: Some("codex-mcp-client"),
        ..Recorder::default()
    };
    let (codex, _) = world.shim_as(codex, &[]).await;
    let patient = world.shim().await;
    let started = std::time::Instant::now();
    let cut = start_call(&codex, "ask_user", deploy()).await;
    let waiting = start_call(&patient, "ask_user", deploy()).await;
    world.pending(2).await;
    // Codex cuts a call at 60 s: the result comes before, and says what to call next.
    let handed_off = tokio::time::timeout(Duration::from_secs(58), cut.await_response())
        .await
        .expect("the hand-off comes before Codex's 60 s")
        .expect("a response");
    let rmcp::model::ServerResult::CallToolResult(handed_off) = handed_off else {
        panic!("a tool result");
    };
    assert!(
        started.elapsed() >= Duration::from_secs(45),
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
    let (dismisser, _) = world.shim_as(with_forms(FormReply::Dismiss), &[]).await;
    let call = start_call(&dismisser, "ask_user", deploy()).await;
    let pending = world.pending(1).await;
    let id = pending[0]["id"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        world.question(&id).await["status"],
        "pending",
        "still open on the page"
    );
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
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
