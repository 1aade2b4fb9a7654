//! Every error path: a clear JSON error naming the field, nothing lost, the daemon still up.

use crate::api::support::*;
use serde_json::{Value, json};

#[tokio::test]
async fn bad_ask_requests_name_the_field() {
    let daemon = Daemon::start();
    let cases = [
        (json!({}), "questions"),
        (json!({"questions": []}), "questions"),
        (
            json!({"questions": [{"question": "q"}, {"question": "q"}, {"question": "q"}, {"question": "q"}, {"question": "q"}]}),
            "questions",
        ),
        (
            json!({"questions": [{"question": ""}]}),
            "questions[0].question",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "A"}, {"label": ""}]}]}),
            "questions[0].options[1].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "A"}, {"label": "A"}]}]}),
            "questions[0].options[1].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": 3}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "x".repeat(201)}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": "q", "multiSelect": "yes"}]}),
            "questions[0].multiSelect",
        ),
        (
            json!({"questions": [{"question": "q"}], "title": "t".repeat(20_001)}),
            "title",
        ),
        (
            json!({"questions": [{"question": "q"}], "timeoutSecs": -5}),
            "timeoutSecs",
        ),
        (
            json!({"questions": [{"question": "q"}], "id": "not-a-uuid"}),
            "id",
        ),
    ];
    for (body, field) in cases {
        assert_error(daemon.post("/api/questions", &body).await, 400, Some(field)).await;
    }
    let options: Vec<Value> = (0..27).map(|i| json!({"label": format!("o{i}")})).collect();
    let too_many = json!({"questions": [{"question": "q", "options": options}]});
    assert_error(
        daemon.post("/api/questions", &too_many).await,
        400,
        Some("questions[0].options"),
    )
    .await;
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["pending"], 0, "nothing was created by bad requests");
}

#[tokio::test]
async fn broken_json_and_oversized_bodies() {
    let daemon = Daemon::start();
    let broken = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("content-type", "application/json")
        .body("{\"questions\": [")
        .send()
        .await
        .unwrap();
    assert_error(broken, 400, None).await;
    // Raw connections: the daemon answers 413 without reading the rest of the body and closes,
    // and an HTTP client still busy sending would see a reset instead of the answer.
    let declared = raw_post(
        daemon.port,
        "/api/questions",
        &format!("Content-Length: {}\r\n", 300 * 1024),
        &[],
    );
    assert!(declared.starts_with("HTTP/1.1 413"), "{declared}");
    assert!(declared.contains("\"error\""), "a JSON error: {declared}");
    // Without a declared length the limit still holds, as the body streams in.
    let chunk = format!("400\r\n{}\r\n", " ".repeat(1024));
    // Just past the limit, so the daemon has read everything sent when it answers.
    let chunks: Vec<&[u8]> = (0..260).map(|_| chunk.as_bytes()).collect();
    let streamed = raw_post(
        daemon.port,
        "/api/questions",
        "Transfer-Encoding: chunked\r\n",
        &chunks,
    );
    assert!(streamed.starts_with("HTTP/1.1 413"), "{streamed}");
    // Still up.
    let fresh = reqwest::Client::new();
    let health = fresh.get(daemon.url("/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200, "still up");
}

#[tokio::test]
async fn short_or_long_answers_are_rejected_and_the_question_stays_answerable() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(&json!({"questions": [
            {"question": "One?", "options": [{"label": "A"}, {"label": "B"}]},
            {"question": "Two?"}
        ]}))
        .await;
    let id = question["id"].as_str().unwrap();
    let path = format!("/api/questions/{id}/answer");
    let short = json!({"answers": [{"selected": ["A"]}]});
    let long = json!({"answers": [{"selected": ["A"]}, {"freeText": "x"}, {"freeText": "y"}]});
    assert_error(daemon.post(&path, &short).await, 400, Some("answers")).await;
    assert_error(daemon.post(&path, &long).await, 400, Some("answers")).await;
    let wrong_label = json!({"answers": [{"selected": ["C"]}, {"freeText": "x"}]});
    assert_error(
        daemon.post(&path, &wrong_label).await,
        400,
        Some("answers[0].selected"),
    )
    .await;
    let two_in_single = json!({"answers": [{"selected": ["A", "B"]}, {"freeText": "x"}]});
    assert_error(
        daemon.post(&path, &two_in_single).await,
        400,
        Some("answers[0].selected"),
    )
    .await;
    let empty = json!({"answers": [{"selected": ["A"]}, {"freeText": "  "}]});
    assert_error(daemon.post(&path, &empty).await, 400, Some("answers[1]")).await;
    assert_error(daemon.post(&path, &json!({})).await, 400, Some("answers")).await;

    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["status"], "pending");
    let good = json!({"answers": [{"selected": ["B"]}, {"freeText": "fine"}]});
    assert_eq!(daemon.post(&path, &good).await.status(), 200);
    let again = daemon.post(&path, &good).await;
    assert_error(again, 409, None).await;
}

#[tokio::test]
async fn unknown_and_malformed_ids() {
    let daemon = Daemon::start();
    let unknown = "00000000-0000-4000-8000-000000000000";
    assert_error(
        daemon.get(&format!("/api/questions/{unknown}")).await,
        404,
        None,
    )
    .await;
    assert_error(
        daemon
            .get(&format!("/api/questions/{unknown}/wait?timeout=1"))
            .await,
        404,
        None,
    )
    .await;
    for action in ["answer", "decline", "cancel"] {
        let response = daemon
            .post(&format!("/api/questions/{unknown}/{action}"), &pick("Yes"))
            .await;
        assert_error(response, 404, None).await;
        let response = daemon
            .post(&format!("/api/questions/nope/{action}"), &pick("Yes"))
            .await;
        assert_error(response, 400, Some("id")).await;
    }
    assert_error(daemon.get("/api/questions/nope").await, 400, Some("id")).await;
    assert_error(daemon.get("/api/no-such-route").await, 404, None).await;
}

#[tokio::test]
async fn closed_questions_refuse_every_change_with_409() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    assert_eq!(
        daemon
            .post(&format!("/api/questions/{id}/cancel"), &json!({}))
            .await
            .status(),
        200
    );
    for action in ["answer", "decline", "cancel"] {
        let response = daemon
            .post(&format!("/api/questions/{id}/{action}"), &pick("Yes"))
            .await;
        assert_error(response, 409, None).await;
    }
}

#[tokio::test]
async fn bad_query_parameters_name_the_parameter() {
    let daemon = Daemon::start();
    assert_error(
        daemon.get("/api/questions?status=maybe").await,
        400,
        Some("status"),
    )
    .await;
    assert_error(
        daemon.get("/api/questions?limit=ten").await,
        400,
        Some("limit"),
    )
    .await;
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    assert_error(
        daemon
            .get(&format!("/api/questions/{id}/wait?timeout=soon"))
            .await,
        400,
        Some("timeout"),
    )
    .await;
    let long_note = json!({"note": "n".repeat(50_001)});
    assert_error(
        daemon
            .post(&format!("/api/questions/{id}/decline"), &long_note)
            .await,
        400,
        Some("note"),
    )
    .await;
    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["status"], "pending");
}

#[tokio::test]
async fn the_thousand_and_first_pending_question_gets_429() {
    let daemon = Daemon::start();
    let mut created = Vec::new();
    for _ in 0..1000 {
        created.push(daemon.ask(&yes_no()).await);
    }
    assert_error(daemon.post("/api/questions", &yes_no()).await, 429, None).await;
    let id = created[0]["id"].as_str().unwrap();
    assert_eq!(
        daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
            .await
            .status(),
        200
    );
    assert_eq!(daemon.post("/api/questions", &yes_no()).await.status(), 201);
}
