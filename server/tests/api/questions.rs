//! The question routes, used the way an agent's client and a person's page use them.

use crate::api::support::*;
use serde_json::{Value, json};

#[tokio::test]
async fn health_identifies_hark() {
    let daemon = Daemon::start();
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["service"], "hark");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(health["pending"], 0);
    assert_eq!(health["browserClients"], 0);
    assert!(health["timestamp"].is_string());
}

#[tokio::test]
async fn ask_list_read_answer_and_wait() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    assert_eq!(question["status"], "pending");
    assert_eq!(question["questions"][0]["multiSelect"], false);
    assert_eq!(question["questions"][0]["allowFreeText"], true);
    assert!(question["createdAt"].is_string());

    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read, question);
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["pending"], 1);

    let answered = daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"], "freeText": "after lunch"}]}),
        )
        .await;
    assert_eq!(answered.status(), 200);
    let answered: Value = answered.json().await.unwrap();
    assert_eq!(answered["status"], "answered");
    assert!(answered["closedAt"].is_string());

    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=5"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        waited,
        json!({"status": "answered", "answers": [{"selected": ["Yes"], "freeText": "after lunch"}]})
    );
    let list: Value = daemon
        .get("/api/questions?status=answered")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["questions"][0]["id"], id);
    let none: Value = daemon
        .get("/api/questions?status=pending")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(none["questions"], json!([]));
}

#[tokio::test]
async fn list_is_newest_first_with_a_limit() {
    let daemon = Daemon::start();
    let first = daemon.ask(&yes_no()).await;
    let second = daemon.ask(&yes_no()).await;
    let list: Value = daemon.get("/api/questions").await.json().await.unwrap();
    assert_eq!(list["questions"][0]["id"], second["id"]);
    assert_eq!(list["questions"][1]["id"], first["id"]);
    let limited: Value = daemon
        .get("/api/questions?limit=1")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(limited["questions"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn resubmitting_a_client_id_returns_the_same_question() {
    let daemon = Daemon::start();
    let id = "7b0c9f52-3a8e-4a49-9d0e-3c1f6a2b8e11";
    let mut body = yes_no();
    body["id"] = json!(id);
    body["source"] = json!({"client": "claude-code 2.0", "cwd": "/work/site", "pid": 42});
    let first = daemon.post("/api/questions", &body).await;
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["id"], id);
    assert_eq!(first["source"]["client"], "claude-code 2.0");
    let again = daemon.post("/api/questions", &body).await;
    assert_eq!(again.status(), 200);
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["pending"], 1);
}

#[tokio::test]
async fn two_concurrent_waits_on_one_question_are_both_released() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap().to_string();
    let wait = |daemon: &Daemon| {
        daemon
            .http
            .get(daemon.url(&format!("/api/questions/{id}/wait")))
            .send()
    };
    let (first, second) = (wait(&daemon), wait(&daemon));
    let answer = async {
        // The waits are in flight once the daemon counts them as connections; answering a bit
        // later is not needed for correctness, since a closed question answers waits at once.
        daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("No"))
            .await
    };
    let (first, second, answered) = tokio::join!(first, second, answer);
    assert_eq!(answered.status(), 200);
    for response in [first.unwrap(), second.unwrap()] {
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["status"], "answered");
        assert_eq!(body["answers"][0]["selected"][0], "No");
    }
}

#[tokio::test]
async fn a_wait_that_runs_out_answers_204_and_the_question_stays_pending() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let response = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=1"))
        .await;
    assert_eq!(response.status(), 204);
    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["status"], "pending");
}

#[tokio::test]
async fn a_question_times_out_with_status_timeout() {
    let daemon = Daemon::start();
    let mut body = yes_no();
    body["timeoutSecs"] = json!(1);
    let question = daemon.ask(&body).await;
    assert!(question["expiresAt"].is_string());
    let id = question["id"].as_str().unwrap();
    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=30"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waited, json!({"status": "timeout"}));
    let late = daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    assert_error(late, 409, None).await;
}

#[tokio::test]
async fn decline_with_a_note_and_cancel() {
    let daemon = Daemon::start();
    let declined = daemon.ask(&yes_no()).await;
    let id = declined["id"].as_str().unwrap();
    let response = daemon
        .post(
            &format!("/api/questions/{id}/decline"),
            &json!({"note": "ask me tomorrow"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "declined");
    assert_eq!(body["note"], "ask me tomorrow");

    let cancelled = daemon.ask(&yes_no()).await;
    let id = cancelled["id"].as_str().unwrap();
    let response = daemon
        .http
        .post(daemon.url(&format!("/api/questions/{id}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waited["status"], "cancelled");

    let bare = daemon.ask(&yes_no()).await;
    let id = bare["id"].as_str().unwrap();
    let response = daemon
        .http
        .post(daemon.url(&format!("/api/questions/{id}/decline")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "a decline needs no body");
}

#[tokio::test]
async fn text_comes_back_verbatim() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(&json!({"title": "Über 🚀 <b>bold</b>", "questions": [{"question": "Anything?"}]}))
        .await;
    let id = question["id"].as_str().unwrap();
    let text = format!("héllo 👋\ttab\u{1}ctl {}", "x".repeat(10_000));
    let response = daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"freeText": text}]}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=1"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waited["answers"][0]["freeText"], text);
    assert_eq!(waited["answers"][0]["selected"], json!([]));
}

#[tokio::test(flavor = "multi_thread")]
async fn graceful_shutdown_releases_waiters_and_exits_cleanly() {
    let mut daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap().to_string();
    let waiter = daemon
        .http
        .get(daemon.url(&format!("/api/questions/{id}/wait")))
        .send();
    let health = daemon.url("/api/health");
    let http = daemon.http.clone();
    let terminate = async {
        // The wait reaches the daemon first, so the stop releases it.
        waits_open(&http, &health, 1).await;
        tokio::task::block_in_place(|| daemon_exit(&mut daemon))
    };
    let (waited, status) = tokio::join!(waiter, terminate);
    if let Ok(response) = waited {
        assert_eq!(response.status(), 503);
    }
    assert!(
        status.is_some_and(|status| status.success()),
        "exit status {status:?}"
    );
}

fn daemon_exit(daemon: &mut Daemon) -> Option<std::process::ExitStatus> {
    daemon.terminate()
}
