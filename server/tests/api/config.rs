//! `GET`/`PUT /api/config`: validated, saved atomically, unknown keys kept.

use crate::api::support::*;
use serde_json::{Value, json};

#[tokio::test]
async fn config_round_trip_is_saved_to_disk() {
    let daemon = Daemon::start();
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["timeoutSecs"], 0);
    assert_eq!(config["remindSecs"], 60);
    let response = daemon
        .put(
            "/api/config",
            &json!({"sound": false, "remindSecs": 120, "myKey": "kept"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let updated: Value = response.json().await.unwrap();
    assert_eq!(updated["sound"], false);
    assert_eq!(updated["remindSecs"], 120);
    let saved: Value =
        serde_json::from_slice(&std::fs::read(daemon.home.path().join("config.json")).unwrap())
            .unwrap();
    assert_eq!(saved["sound"], false);
    assert_eq!(saved["myKey"], "kept");
}

#[tokio::test]
async fn invalid_config_values_name_the_key_and_change_nothing() {
    let daemon = Daemon::start();
    for (body, field) in [
        (json!({"timeoutSecs": "never"}), "timeoutSecs"),
        (json!({"remindSecs": -1}), "remindSecs"),
        (json!({"port": 70000}), "port"),
        (json!({"notification": "yes"}), "notification"),
        (json!({"sound": false, "lan": 1}), "lan"),
    ] {
        assert_error(daemon.put("/api/config", &body).await, 400, Some(field)).await;
    }
    assert_error(daemon.put("/api/config", &json!([1, 2])).await, 400, None).await;
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["sound"], true, "a rejected PUT changes nothing");
}

#[tokio::test]
async fn a_broken_config_file_falls_back_to_defaults() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        r#"{"remindSecs": "often", "sound": false}"#,
    )
    .unwrap();
    let daemon = Daemon::start_in(home);
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["remindSecs"], 60);
    assert_eq!(config["sound"], false);
}

#[tokio::test]
async fn the_config_default_timeout_applies_to_new_questions() {
    let daemon = Daemon::start();
    assert_eq!(
        daemon
            .put("/api/config", &json!({"timeoutSecs": 1}))
            .await
            .status(),
        200
    );
    let question = daemon.ask(&yes_no()).await;
    assert!(question["expiresAt"].is_string());
    let id = question["id"].as_str().unwrap();
    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=30"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waited["status"], "timeout");
}
