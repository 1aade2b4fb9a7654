//! Channels against stand-ins that speak their real protocols on 127.0.0.1: an ntfy server
//! that records what it is sent (the test then plays the phone and runs its buttons), and a
//! webhook receiver that is down for a while.

use crate::api::support::{Daemon, yes_no};
use crate::api::world::*;
use axum::Router;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use hmac::Mac;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a stand-in server received: each request's headers and JSON body.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<(HeaderMap, Value)>>>);

impl Received {
    /// Waits (bounded) until `count` requests arrived, and returns them.
    async fn at_least(&self, count: usize) -> Vec<(HeaderMap, Value)> {
        for _ in 0..200 {
            let received = self.0.lock().unwrap().clone();
            if received.len() >= count {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "{count} requests did not arrive: {:?}",
            self.0.lock().unwrap()
        );
    }
}

/// Serves `router` on a free port of 127.0.0.1 for the test's lifetime; returns its base URL.
pub async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// An ntfy server: JSON publishing at its root, answering as ntfy does.
async fn ntfy_server() -> (String, Received) {
    let received = Received::default();
    let recorder = received.clone();
    let router = Router::new().route(
        "/",
        post(move |headers: HeaderMap, body: String| {
            let recorder = recorder.clone();
            async move {
                let json: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                recorder.0.lock().unwrap().push((headers, json));
                axum::Json(json!({"id": "abc123", "event": "message"}))
            }
        }),
    );
    (serve(router).await, received)
}

fn write(home: &std::path::Path, name: &str, value: &Value) {
    std::fs::write(home.join(name), serde_json::to_vec(value).unwrap()).unwrap();
}

/// The `http` actions of a push: label and URL.
fn buttons(push: &Value) -> Vec<(String, String)> {
    push["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|action| action["action"] == "http")
        .map(|action| {
            assert_eq!(action["method"], "POST");
            (
                action["label"].as_str().unwrap().to_string(),
                action["url"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_push_answers_with_one_tap_once_and_is_replaced_when_the_question_closes() {
    let (ntfy, pushes) = ntfy_server().await;
    let world = World::new();
    let public = format!("http://127.0.0.1:{}", world.port);
    write(
        world.home.path(),
        "config.json",
        &json!({"channels": {"publicUrl": public, "ntfy": {"enabled": true, "server": ntfy, "topic": "hark-test-7f3a"}}}),
    );
    write(
        world.home.path(),
        "secrets.json",
        &json!({"ntfyToken": "tk_never_shown", "ntfyServer": ntfy}),
    );
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"questions": [{"question": "Deploy <b>now</b>?", "header": "Deploy", "options": [{"label": "Yes"}, {"label": "No"}]}]}),
    )
    .await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    let (headers, push) = pushes.at_least(1).await[0].clone();
    assert_eq!(push["topic"], "hark-test-7f3a");
    assert_eq!(push["title"], "Deploy");
    assert_eq!(push["message"], "Deploy <b>now</b>?");
    assert_eq!(push["priority"], 4);
    assert_eq!(push["click"], format!("{public}/q/{id}"));
    assert_eq!(push["actions"][0]["action"], "view");
    assert_eq!(push["actions"][0]["url"], format!("{public}/q/{id}"));
    assert_eq!(headers["authorization"], "Bearer tk_never_shown");
    let sequence = push["sequence_id"].as_str().unwrap().to_string();
    assert_eq!(headers["x-sequence-id"], sequence.as_str());
    let first_buttons = buttons(&push);
    assert_eq!(
        first_buttons
            .iter()
            .map(|(label, _)| label.as_str())
            .collect::<Vec<_>>(),
        ["Yes", "No"]
    );

    // A second question, so a capability can be tried on the wrong one.
    let other = world.post("/api/questions", &yes_no()).await;
    let other: Value = other.json().await.unwrap();
    let other_id = other["id"].as_str().unwrap();
    let second_push = pushes.at_least(2).await[1].1.clone();
    let second_buttons = buttons(&second_push);
    assert_eq!(second_buttons.len(), 2);

    // A stranger: no token, no cookie, only URLs.
    let phone = reqwest::Client::new();
    let capability_of = |url: &str| url.rsplit('/').next().unwrap().to_string();
    for (url, expected) in [
        (format!("{public}/a/{other_id}/{}", "0".repeat(32)), 404),
        (
            format!(
                "{public}/a/{other_id}/{}",
                capability_of(&first_buttons[0].1)
            ),
            404,
        ),
        (format!("{public}/a/not-an-id/x"), 404),
    ] {
        let response = phone.post(&url).send().await.unwrap();
        assert_eq!(response.status(), expected, "{url}");
    }
    // The phone taps "No" on the first push, as ntfy runs an http action.
    let tapped = phone.post(&first_buttons[1].1).send().await.unwrap();
    assert_eq!(tapped.status(), 200);
    let tapped: Value = tapped.json().await.unwrap();
    assert_eq!(
        tapped,
        json!({"status": "answered"}),
        "it tells nothing more"
    );
    let result = finish(call).await;
    assert_eq!(text_of(&result), "No");
    // Spent: a replay and the other button are dead.
    for url in [&first_buttons[1].1, &first_buttons[0].1] {
        assert_eq!(phone.post(url).send().await.unwrap().status(), 410);
    }
    assert_eq!(
        world.question(&id).await["answers"][0]["selected"],
        json!(["No"])
    );
    assert_eq!(world.question(other_id).await["status"], "pending");

    // The push is replaced by one saying how it ended.
    let replaced = pushes.at_least(3).await[2].1.clone();
    assert_eq!(replaced["sequence_id"], sequence.as_str());
    assert_eq!(replaced["message"], "Answered: No");
    assert!(buttons(&replaced).is_empty());

    // The other question still answers with its own button.
    let tapped = phone.post(&second_buttons[0].1).send().await.unwrap();
    assert_eq!(tapped.status(), 200);
    assert_eq!(world.question(other_id).await["status"], "answered");

    // Text too long for a push is cut within ntfy's 4,096 bytes, on a character boundary.
    let long = "确认部署吗？🚀 ".repeat(400);
    world
        .post(
            "/api/questions",
            &json!({"questions": [{"question": long}]}),
        )
        .await;
    let cut = pushes.at_least(5).await[4].1["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cut.len() <= 4096 && cut.ends_with('…'), "{}", cut.len());
    assert!(
        buttons(&pushes.at_least(5).await[4].1).is_empty(),
        "free text gets no buttons"
    );

    // The token stays a secret.
    let config = world
        .http
        .get(world.url("/api/config"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let export = world
        .http
        .get(world.url("/api/export"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let channels = world
        .http
        .get(world.url("/api/channels"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let on_disk = std::fs::read_to_string(world.home.path().join("config.json")).unwrap();
    for text in [&config, &export, &channels, &on_disk] {
        assert!(!text.contains("tk_never_shown"));
    }
    assert!(channels.contains("\"ntfyToken\":true"), "{channels}");
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn a_webhook_is_signed_and_retried_while_its_receiver_is_down() {
    let attempts = Arc::new(AtomicUsize::new(0));
    let received = Received::default();
    let (counter, recorder) = (attempts.clone(), received.clone());
    let receiver = serve(Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, body: String| {
            let (counter, recorder) = (counter.clone(), recorder.clone());
            async move {
                // Down for the first two attempts.
                if counter.fetch_add(1, Ordering::SeqCst) < 2 {
                    return StatusCode::SERVICE_UNAVAILABLE;
                }
                // The body as sent: the signature covers these very bytes.
                recorder
                    .0
                    .lock()
                    .unwrap()
                    .push((headers, Value::String(body)));
                StatusCode::NO_CONTENT
            }
        }),
    ))
    .await;
    let hook = format!("{receiver}/hook");
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "config.json",
        &json!({"channels": {"webhooks": [{"url": hook, "events": ["question:created", "question:closed"]}]}}),
    );
    write(
        home.path(),
        "secrets.json",
        &json!({"webhooks": {hook.clone(): "whsec_known_to_the_receiver"}}),
    );
    let log = tempfile::NamedTempFile::new().unwrap();
    let daemon = Daemon::start_logging(home, &[], log.path());
    let question = daemon.ask(&yes_no()).await;
    // While the receiver is down the API answers as ever.
    for _ in 0..20 {
        let health = daemon
            .http
            .get(daemon.url("/api/health"))
            .timeout(Duration::from_secs(2))
            .send()
            .await
            .unwrap();
        assert_eq!(health.status(), 200);
    }
    let (headers, raw) = received.at_least(1).await[0].clone();
    let raw = raw.as_str().unwrap().as_bytes().to_vec();
    let body: Value = serde_json::from_slice(&raw).unwrap();
    assert!(attempts.load(Ordering::SeqCst) >= 3, "retried");
    assert_eq!(headers["x-hark-event"], "question:created");
    assert!(headers.contains_key("x-hark-delivery"));
    assert_eq!(body["event"], "question:created");
    assert_eq!(body["question"]["id"], question["id"]);
    // `t=<unix seconds>,v1=<HMAC of "<t>.<delivery id>.<body>">`, as the README verifies it.
    let signature = headers["x-hark-signature"].to_str().unwrap();
    let (t, v1) = signature
        .strip_prefix("t=")
        .and_then(|rest| rest.split_once(",v1="))
        .unwrap_or_else(|| panic!("{signature}"));
    let at: i64 = t.parse().unwrap();
    let age = chrono::Utc::now().timestamp() - at;
    assert!((0..300).contains(&age), "signed just now: {age} s");
    let delivery = headers["x-hark-delivery"].to_str().unwrap();
    let sign = |secret: &str, delivery: &str| {
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.{delivery}.").as_bytes());
        mac.update(&raw);
        hex::encode(mac.finalize().into_bytes())
    };
    assert_eq!(v1, sign("whsec_known_to_the_receiver", delivery));
    assert_ne!(v1, sign("another_secret", delivery));
    assert_ne!(
        v1,
        sign("whsec_known_to_the_receiver", "another-delivery"),
        "the delivery id is signed"
    );

    // The close follows, in order; the failures are on record without the secret.
    let id = question["id"].as_str().unwrap();
    daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &crate::api::support::pick("Yes"),
        )
        .await;
    let closed = received.at_least(2).await[1].clone();
    assert_eq!(closed.0["x-hark-event"], "question:closed");
    let closed: Value = serde_json::from_str(closed.1.as_str().unwrap()).unwrap();
    assert_eq!(closed["question"]["status"], "answered");
    // The receiver has it a moment before the daemon hears back.
    let mut report = Value::Null;
    for _ in 0..100 {
        report = daemon.get("/api/channels").await.json().await.unwrap();
        if report["channels"][0]["sent"].as_u64() >= Some(2) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = &report["channels"][0];
    assert_eq!(status["channel"], "webhook");
    assert_eq!(
        status["target"],
        format!("{receiver}/…"),
        "shown without its path"
    );
    assert!(status["failures"].as_u64().unwrap() >= 2, "{report}");
    assert!(status["sent"].as_u64().unwrap() >= 2, "{report}");
    assert!(
        status["lastError"].as_str().unwrap().contains("503"),
        "{report}"
    );
    // `hark status` says how the webhook fares.
    let status_output = tokio::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["status", "--port", &daemon.port.to_string()])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .await
        .unwrap();
    let printed = String::from_utf8_lossy(&status_output.stdout).into_owned();
    assert!(
        printed.contains(&format!("webhook {receiver}/…: ")) && printed.contains("sent"),
        "{printed}"
    );
    assert!(!printed.contains("/hook"), "the path stays out: {printed}");
    for text in [
        printed.clone(),
        daemon.get("/api/config").await.text().await.unwrap(),
        daemon.get("/api/export").await.text().await.unwrap(),
        report.to_string(),
        std::fs::read_to_string(log.path()).unwrap(),
        std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap(),
    ] {
        assert!(!text.contains("whsec_known_to_the_receiver"));
    }
}

#[tokio::test]
async fn a_channel_test_reports_what_happened() {
    let (ntfy, pushes) = ntfy_server().await;
    let daemon = Daemon::start();
    let untested = daemon
        .post("/api/channels/test", &json!({"channel": "ntfy"}))
        .await;
    let body = crate::api::support::assert_error(untested, 409, Some("channel")).await;
    assert!(body["error"].as_str().unwrap().contains("topic"), "{body}");
    let saved = daemon
        .put(
            "/api/config",
            &json!({"channels": {"ntfy": {"enabled": true, "server": ntfy, "topic": "hark-test"}}}),
        )
        .await;
    assert_eq!(saved.status(), 200);
    let tested = daemon
        .post("/api/channels/test", &json!({"channel": "ntfy"}))
        .await;
    assert_eq!(tested.status(), 200);
    let push = pushes.at_least(1).await[0].1.clone();
    assert_eq!(push["topic"], "hark-test");
    // The same from the shell.
    let tested = tokio::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args([
            "channel",
            "test",
            "ntfy",
            "--port",
            &daemon.port.to_string(),
        ])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .await
        .unwrap();
    assert!(tested.status.success());
    assert!(String::from_utf8_lossy(&tested.stdout).contains("sent a test push"));
    pushes.at_least(2).await;
    let refused = tokio::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args([
            "channel",
            "test",
            "webhook",
            "--port",
            &daemon.port.to_string(),
        ])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .await
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no webhook"));
    let unknown = daemon
        .post("/api/channels/test", &json!({"channel": "pigeon"}))
        .await;
    crate::api::support::assert_error(unknown, 400, Some("channel")).await;
    // Bad channel settings name their field, and change nothing.
    let bad = daemon
        .put(
            "/api/config",
            &json!({"channels": {"webhooks": [{"url": "ftp://nope"}]}}),
        )
        .await;
    crate::api::support::assert_error(bad, 400, Some("channels.webhooks[0].url")).await;
}

#[tokio::test]
async fn an_agent_that_finishes_is_one_push_per_session_opening_the_agents() {
    let (ntfy, pushes) = ntfy_server().await;
    let world = World::new();
    let public = format!("http://127.0.0.1:{}", world.port);
    write(
        world.home.path(),
        "config.json",
        &json!({"channels": {"publicUrl": public, "ntfy": {"enabled": true, "server": ntfy, "topic": "hark-test-7f3a"}}}),
    );
    world.start_daemon().await;
    let agent = json!({"client": "claude-code", "cwd": "/home/me/shop"});
    let report = |state: &str, said: Option<&str>| json!({"agent": agent, "sessionId": "s1", "state": state, "lastMessage": said});
    for (state, said) in [
        ("working", None),
        ("finished", Some("Refactored the cart.")),
        ("working", None),
        ("waiting", Some("Claude needs your permission to use Bash")),
    ] {
        let reported = world.post("/api/sessions", &report(state, said)).await;
        assert_eq!(reported.status(), 200);
    }
    let received = pushes.at_least(2).await;
    let (first, second) = (&received[0].1, &received[1].1);
    assert_eq!(first["title"], "claude-code · shop finished its turn");
    assert_eq!(first["message"], "Refactored the cart.");
    assert_eq!(first["click"], format!("{public}/agents"));
    assert_eq!(first["actions"][0]["label"], "Reply");
    assert_eq!(first["actions"][0]["url"], format!("{public}/agents"));
    assert_eq!(
        second["title"],
        "claude-code · shop is waiting for you in its own window"
    );
    // One session, one push on the phone: the second replaces the first.
    assert_eq!(first["sequence_id"], second["sequence_id"]);
    assert_eq!(received.len(), 2, "working says nothing");
}

#[tokio::test]
async fn a_webhook_that_asks_for_sessions_gets_each_change_of_an_agent() {
    let received = Received::default();
    let recorder = received.clone();
    let receiver = serve(Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, body: String| {
            let recorder = recorder.clone();
            async move {
                let json: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                recorder.0.lock().unwrap().push((headers, json));
                StatusCode::NO_CONTENT
            }
        }),
    ))
    .await;
    let hook = format!("{receiver}/hook");
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "config.json",
        &json!({"channels": {"webhooks": [{"url": hook, "events": ["session:updated"]}]}}),
    );
    let daemon = Daemon::start_in(home);
    // A question is not asked for; the session's changes are.
    daemon.ask(&yes_no()).await;
    let agent = json!({"client": "claude-code", "cwd": "/home/me/shop"});
    for (state, said) in [("working", None), ("finished", Some("Done."))] {
        let reported = daemon
            .post(
                "/api/sessions",
                &json!({"agent": agent, "state": state, "lastMessage": said}),
            )
            .await;
        assert_eq!(reported.status(), 200);
    }
    let deliveries = received.at_least(2).await;
    let events: Vec<&Value> = deliveries.iter().map(|(_, body)| &body["event"]).collect();
    assert_eq!(events, ["session:updated", "session:updated"]);
    let (headers, finished) = &deliveries[1];
    assert_eq!(headers["x-hark-event"], "session:updated");
    assert!(headers.contains_key("x-hark-signature"));
    assert_eq!(finished["session"]["state"], "finished");
    assert_eq!(finished["session"]["lastMessage"], "Done.");
    assert!(finished.get("question").is_none());
}
