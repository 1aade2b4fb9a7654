//! What the channels send never comes back to drive Hark: a receiver that redirects to the
//! daemon's own API or to another service on this machine is not followed, and an address
//! that leads straight back to the daemon is refused by its own listener.

use crate::api::channels::serve;
use crate::api::support::{Daemon, yes_no};
use axum::Router;
use axum::http::{StatusCode, header};
use axum::routing::{any, post};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A webhook receiver that answers every delivery with `status` to wherever `target` says.
async fn redirecting(status: StatusCode, target: Arc<Mutex<String>>) -> String {
    let router = Router::new().route(
        "/hook",
        post(move || {
            let target = target.lock().unwrap().clone();
            async move { (status, [(header::LOCATION, target)]) }
        }),
    );
    format!("{}/hook", serve(router).await)
}

/// The webhooks' statuses once each of `count` has failed at least once (bounded).
async fn failed_webhooks(daemon: &Daemon, count: usize) -> Vec<Value> {
    let mut failing = Vec::new();
    for _ in 0..200 {
        let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
        failing = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|status| status["channel"] == "webhook" && status["lastError"].is_string())
            .cloned()
            .collect();
        if failing.len() >= count {
            return failing;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{count} webhooks did not fail: {failing:?}");
}

#[tokio::test]
async fn redirects_are_not_followed_and_the_daemon_refuses_its_own_channels() {
    // In LAN mode, where the pairing token a rotation would replace exists.
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--lan"]);
    let token_before = std::fs::read_to_string(daemon.home.path().join("token")).unwrap();
    // Another service on this machine, which must hear nothing.
    let bystander_hits = Arc::new(AtomicUsize::new(0));
    let hits = bystander_hits.clone();
    let bystander = serve(Router::new().fallback(any(move || {
        hits.fetch_add(1, Ordering::SeqCst);
        async { StatusCode::OK }
    })))
    .await;
    let to_the_daemon = Arc::new(Mutex::new(daemon.url("/api/token/rotate")));
    let to_the_bystander = Arc::new(Mutex::new(format!("{bystander}/anything")));
    let hooks = [
        redirecting(StatusCode::TEMPORARY_REDIRECT, to_the_daemon).await,
        redirecting(StatusCode::FOUND, to_the_bystander).await,
        // And an address that is the daemon's own API.
        daemon.url("/api/token/rotate"),
    ];
    let webhooks: Vec<Value> = hooks
        .iter()
        .map(|url| json!({"url": url, "events": ["question:created"]}))
        .collect();
    let saved = daemon
        .put("/api/config", &json!({"channels": {"webhooks": webhooks}}))
        .await;
    assert_eq!(saved.status(), 200);
    daemon.ask(&yes_no()).await;
    // Each delivery has been tried and refused; a followed redirect would have been made
    // before its delivery was known to fail.
    let failing = failed_webhooks(&daemon, 3).await;
    let error_of = |port: &str| {
        failing
            .iter()
            .find(|status| status["target"].as_str().unwrap().contains(port))
            .map(|status| status["lastError"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    for hook in &hooks[..2] {
        let port = hook.split(':').nth(2).unwrap().split('/').next().unwrap();
        let error = error_of(&format!(":{port}"));
        assert!(error.contains("redirect"), "{hook}: {error}");
    }
    let own = error_of(&format!(":{}", daemon.port));
    assert!(own.contains("403"), "the daemon refused itself: {own}");
    assert_eq!(
        std::fs::read_to_string(daemon.home.path().join("token")).unwrap(),
        token_before,
        "the pairing token was not rotated"
    );
    assert_eq!(
        bystander_hits.load(Ordering::SeqCst),
        0,
        "the bystander heard nothing"
    );
}
