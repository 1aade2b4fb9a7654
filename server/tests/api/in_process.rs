//! `router()` driven in process with `tower::ServiceExt::oneshot`: what needs no daemon process
//! (the channels' actions and their refusals, the body deadline on a paused clock) is checked
//! without one.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use hark::http::state::AppState;
use hark::security::access::Access;
use hark::security::peer_owner::PeerOwner;
use hark::security::token::Tokens;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

const PORT: u16 = 13_390;

/// The router of a daemon on `PORT`, its store in memory, seen from this machine.
fn router() -> (axum::Router, tokio_util::sync::DropGuard) {
    let shutdown = CancellationToken::new();
    let (store, _) = hark_core::store::Store::open(None, shutdown.clone());
    let access = Arc::new(Access::new(Tokens::new(None), false, false, &[]));
    let router = hark::router(AppState::new(store, access, PORT));
    (router, shutdown.drop_guard())
}

/// POSTs `body` (as written) to `path`, and reads the status and the JSON answer.
async fn post(router: &axum::Router, path: &str, body: &str) -> (StatusCode, Value) {
    let mut request = Request::post(path)
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    // What the listener records of a connection from this machine, by the daemon's own user.
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 50_000))));
    request.extensions_mut().insert(PeerOwner::Same);
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("{path} answered {status} without JSON"));
    (status, json)
}

#[tokio::test]
async fn a_channel_action_refuses_bad_input_naming_its_field() {
    let (router, _stop) = router();
    let (status, body) = post(&router, "/api/telegram/setup", r#"{"botToken": 5}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "botToken", "{body}");
    let (status, body) = post(&router, "/api/telegram/setup", "[1]").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("JSON object"),
        "{body}"
    );
    let (status, body) = post(&router, "/api/telegram/setup", "{").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("not valid JSON"),
        "{body}"
    );
    // No token given, none saved: the refusal names the field and says what to do.
    let (status, body) = post(&router, "/api/telegram/setup", "{}").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "botToken");
    assert!(
        body["error"].as_str().unwrap().contains("BotFather"),
        "{body}"
    );
    let (status, body) = post(&router, "/api/telegram/setup", r#"{"botToken": "nope"}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("does not look like"),
        "{body}"
    );
}

#[tokio::test]
async fn an_action_a_channel_does_not_have_is_a_json_404() {
    let (router, _stop) = router();
    for path in ["/api/telegram/nope", "/api/ntfy/setup", "/api/pigeon/setup"] {
        let (status, body) = post(&router, path, "{}").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
}

#[tokio::test]
async fn unpairing_and_forgetting_need_no_body_and_answer_the_bots_state() {
    let (router, _stop) = router();
    for path in ["/api/telegram/unpair", "/api/telegram/forget"] {
        let (status, body) = post(&router, path, "").await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        assert_eq!(body["paired"], false, "{path}: {body}");
        assert_eq!(body["token"], false, "{path}: {body}");
    }
}

#[tokio::test]
async fn a_test_of_a_channel_not_set_up_is_a_conflict_saying_what_to_set() {
    let (router, _stop) = router();
    for (channel, words) in [
        ("ntfy", "topic"),
        ("webhook", "no webhook"),
        ("telegram", "not set up"),
        ("wechat", "not set up"),
    ] {
        let (status, body) = post(
            &router,
            "/api/channels/test",
            &json!({ "channel": channel }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{channel}: {body}");
        assert_eq!(body["field"], "channel");
        assert!(
            body["error"].as_str().unwrap().contains(words),
            "{channel}: {body}"
        );
    }
    let (status, body) = post(&router, "/api/channels/test", r#"{"channel": "pigeon"}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "channel", "{body}");
}

#[tokio::test]
async fn an_answer_is_marked_as_given_only_where_a_person_can_give_one() {
    let (router, _stop) = router();
    let ask = json!({"questions": [{"question": "Deploy?", "options": [{"label": "Yes"}]}]});
    let (status, asked) = post(&router, "/api/questions", &ask.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{asked}");
    let id = asked["id"].as_str().unwrap();
    for via in ["webhook", "ntfy", "pigeon"] {
        let answer = json!({"answers": [{"selected": ["Yes"]}], "via": via});
        let path = format!("/api/questions/{id}/answer");
        let (status, body) = post(&router, &path, &answer.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{via}: {body}");
        assert_eq!(body["field"], "via", "{via}: {body}");
    }
    let answer = json!({"answers": [{"selected": ["Yes"]}], "via": "telegram"});
    let path = format!("/api/questions/{id}/answer");
    let (status, body) = post(&router, &path, &answer.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["answeredVia"], "telegram");
}

#[tokio::test(start_paused = true)]
async fn a_body_trickled_in_is_cut_at_its_deadline() {
    let (router, _stop) = router();
    // A byte a second, on the test's paused clock, of a body that claims 200 KB.
    let trickle = futures::stream::unfold(0_u32, |sent| async move {
        (sent < 1_000).then_some(())?;
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        Some((
            Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b" ")),
            sent + 1,
        ))
    });
    let mut request = Request::post("/api/questions")
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("content-type", "application/json")
        .header("content-length", "200000")
        .body(Body::from_stream(trickle))
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 50_000))));
    request.extensions_mut().insert(PeerOwner::Same);
    let started = tokio::time::Instant::now();
    let response = router.oneshot(request).await.unwrap();
    let took = started.elapsed();
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&bytes).expect("a JSON error");
    assert!(body["error"].is_string(), "{body}");
    let deadline = hark::security::body_limits::BODY_TIMEOUT;
    assert!(
        took >= deadline && took < deadline + std::time::Duration::from_secs(2),
        "cut at the {deadline:?} deadline, not before or later: {took:?}"
    );
}
