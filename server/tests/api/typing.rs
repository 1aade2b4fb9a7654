//! Typing keeps a question open (SPEC §18), through the real daemon: the page says it is typing
//! over `/api/ws`, the question outlives its time limit, and every page hears the new limit;
//! what the page says that is not understood changes nothing. (When a limit ends a question
//! whose typing stopped, and the `typingGraceSecs` cap, are timed on a paused clock in
//! `hark-core`'s store tests.)

use crate::api::events::{connect, next_event};
use crate::api::support::*;
use futures::SinkExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_question_stays_open_past_its_limit_while_the_page_says_it_is_typing() {
    let daemon = Daemon::start();
    let mut page = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut page).await["event"], "init");
    let question = daemon
        .ask(&json!({"questions": [{"question": "Why?"}], "timeoutSecs": 3}))
        .await;
    let id = question["id"].as_str().unwrap().to_string();
    let first: chrono::DateTime<chrono::Utc> =
        question["expiresAt"].as_str().unwrap().parse().unwrap();
    assert_eq!(next_event(&mut page).await["event"], "question:created");

    // Junk is ignored and keeps the stream open.
    for junk in [
        json!({"say": "shouting"}),
        json!({"say": "typing", "id": "nope"}),
    ] {
        page.send(Message::Text(junk.to_string().into()))
            .await
            .unwrap();
    }
    page.send(Message::Text(
        json!({"say": "typing", "id": id}).to_string().into(),
    ))
    .await
    .unwrap();
    let updated: Value = next_event(&mut page).await;
    assert_eq!(updated["event"], "question:updated");
    let moved: chrono::DateTime<chrono::Utc> = updated["data"]["expiresAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        moved >= first + chrono::Duration::seconds(50),
        "{moved} after {first}"
    );

    // Past the first limit it still waits, and its answer still counts.
    let past = (first - chrono::Utc::now()).to_std().unwrap_or_default() + Duration::from_secs(1);
    tokio::time::sleep(past).await;
    let now: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["status"], "pending");
    let response = daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"freeText": "because"}]}),
        )
        .await;
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn typing_without_a_grace_leaves_the_limit_where_it_was() {
    let daemon = Daemon::start();
    let response = daemon
        .put("/api/config", &json!({"typingGraceSecs": 0}))
        .await;
    assert_eq!(response.status(), 200);
    let refused = daemon
        .put("/api/config", &json!({"typingGraceSecs": -1}))
        .await;
    assert_error(refused, 400, Some("typingGraceSecs")).await;
    let mut page = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut page).await["event"], "init");
    let question = daemon
        .ask(&json!({"questions": [{"question": "Why?"}], "timeoutSecs": 2}))
        .await;
    let id = question["id"].as_str().unwrap().to_string();
    assert_eq!(next_event(&mut page).await["event"], "question:created");
    page.send(Message::Text(
        json!({"say": "typing", "id": id}).to_string().into(),
    ))
    .await
    .unwrap();
    // The next event is the timeout itself: no update moved the limit.
    let closed = next_event(&mut page).await;
    assert_eq!(closed["event"], "question:closed", "{closed}");
    assert_eq!(closed["data"]["status"], "timeout");
}
