//! `ask_user` as a task (the tasks extension of MCP 2026-07-28) through the real shim, with
//! rmcp's client declaring the extension: the handle comes back at once, `tasks/get` reports the
//! question working (or waiting on Hark's form in the client), the result is the answer given on
//! the page or in the form, and cancelling the task leaves the question answerable for a while.

use crate::api::world::*;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, TaskPayload,
    TaskStatus, UpdateTaskParams,
};
use serde_json::{Value, json};
use std::time::Duration;

fn deploy() -> CallToolRequestParams {
    let arguments = json!({"questions": [{"question": "Deploy now?", "options": [
        {"label": "Yes", "recommended": true}, {"label": "No"}
    ]}]});
    CallToolRequestParams::new("ask_user").with_arguments(arguments.as_object().cloned().unwrap())
}

fn tasks_client(form: bool) -> Recorder {
    Recorder {
        tasks: true,
        // Forms are declared, but a task's form is answered through tasks/update below.
        form: form.then_some(FormReply::Dismiss),
        ..Recorder::default()
    }
}

/// The task's state, polled until `done` holds (bounded).
async fn task_until(shim: &Shim, id: &str, done: impl Fn(&TaskPayload) -> bool) -> TaskPayload {
    for _ in 0..200 {
        let got = shim.peer().get_task(GetTaskParams::new(id)).await.unwrap();
        if done(&got.task.payload) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the task never got there");
}

fn text_in(result: &serde_json::Map<String, Value>) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn the_handle_comes_at_once_and_the_result_is_the_answer_given_on_the_page() {
    let world = World::new();
    let shim = world.shim_2026(tasks_client(false)).await;
    let started = tokio::time::Instant::now();
    let CallToolResponse::Task(created) = shim.peer().call_tool_once(deploy()).await.unwrap()
    else {
        panic!("ask_user runs as a task for a client that declares tasks");
    };
    assert!(started.elapsed() < Duration::from_secs(10));
    let id = created.task.task_id.clone();
    assert_eq!(created.task.status, TaskStatus::Working);
    let working = shim.peer().get_task(GetTaskParams::new(&id)).await.unwrap();
    assert_eq!(working.task.task.status, TaskStatus::Working);

    let question = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    world
        .post(
            &format!("/api/questions/{question}/answer"),
            &json!({"answers": [{"selected": ["No"]}]}),
        )
        .await;
    let TaskPayload::Completed { result } = task_until(&shim, &id, |payload| {
        matches!(payload, TaskPayload::Completed { .. })
    })
    .await
    else {
        unreachable!()
    };
    assert_eq!(text_in(&result), "No");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn the_form_waits_in_the_task_and_its_answer_completes_it() {
    let world = World::new();
    let shim = world.shim_2026(tasks_client(true)).await;
    let CallToolResponse::Task(created) = shim.peer().call_tool_once(deploy()).await.unwrap()
    else {
        panic!("a task");
    };
    let id = created.task.task_id.clone();
    let TaskPayload::InputRequired { input_requests } = task_until(&shim, &id, |payload| {
        matches!(payload, TaskPayload::InputRequired { .. })
    })
    .await
    else {
        unreachable!()
    };
    let form = serde_json::to_value(&input_requests["answer"]).unwrap();
    assert_eq!(
        form["params"]["requestedSchema"]["properties"]["q1"]["oneOf"][0]["const"], "Yes",
        "{form}"
    );
    let responses = [(
        "answer".to_string(),
        json!({"action": "accept", "content": {"q1": "Yes"}}),
    )]
    .into_iter()
    .collect();
    shim.peer()
        .update_task(UpdateTaskParams::new(&id, responses))
        .await
        .unwrap();
    let TaskPayload::Completed { result } = task_until(&shim, &id, |payload| {
        matches!(payload, TaskPayload::Completed { .. })
    })
    .await
    else {
        unreachable!()
    };
    assert_eq!(text_in(&result), "Yes");
    let question = result["structuredContent"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(world.question(&question).await["answeredVia"], "client");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_the_task_leaves_the_question_answerable_for_a_late_answer() {
    let world = World::new();
    let shim = world.shim_2026(tasks_client(false)).await;
    let CallToolResponse::Task(created) = shim.peer().call_tool_once(deploy()).await.unwrap()
    else {
        panic!("a task");
    };
    let id = created.task.task_id.clone();
    let question = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    shim.peer()
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .unwrap();
    task_until(&shim, &id, |payload| {
        matches!(payload, TaskPayload::Cancelled)
    })
    .await;
    // Abandoned, not withdrawn: still pending, marked as no longer awaited.
    for _ in 0..200 {
        let now = world.question(&question).await;
        if now["abandonedAt"].is_string() {
            assert_eq!(now["status"], "pending");
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(world.question(&question).await["abandonedAt"].is_string());
    shim.cancel().await.unwrap();
}
