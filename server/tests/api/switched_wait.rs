//! The wait that switches protocols (`Upgrade: hark-wait`), spoken byte by byte over a raw
//! connection: the one line it ends with, its time running out, an unknown id refused before
//! the switch, and a client that leaves mid-wait.

use crate::api::support::*;
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends a wait asking to switch; returns the connection once the daemon has answered its head
/// (the head included, as text).
async fn switch(port: u16, path: &str) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Connection: upgrade\r\nUpgrade: hark-wait\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut byte))
            .await
            .expect("the daemon answers the head in time")
            .unwrap();
        assert_eq!(read, 1, "the connection closed within the head: {head:?}");
        head.push(byte[0]);
        assert!(head.len() < 4096, "a head this long is not the daemon's");
    }
    (stream, String::from_utf8(head).unwrap())
}

/// Everything the daemon writes until it closes.
async fn rest(stream: &mut TcpStream) -> String {
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest))
        .await
        .expect("the daemon closes the connection after its line")
        .unwrap();
    String::from_utf8(rest).unwrap()
}

#[tokio::test]
async fn a_switched_wait_ends_with_the_status_and_the_result_in_one_line() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let (mut stream, head) = switch(
        daemon.port,
        &format!("/api/questions/{id}/wait?messages=true"),
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let head = head.to_ascii_lowercase();
    assert!(head.contains("upgrade: hark-wait"), "{head}");
    waits_open(&daemon.http, &daemon.url("/api/health"), 1).await;
    let answered = daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    assert_eq!(answered.status(), 200);
    let line = rest(&mut stream).await;
    let body = line
        .strip_prefix("200 ")
        .and_then(|line| line.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("not one line with status 200: {line:?}"));
    let result: Value = serde_json::from_str(body).unwrap();
    assert_eq!(result["status"], "answered");
    assert_eq!(result["answers"][0]["selected"][0], "Yes");
}

#[tokio::test]
async fn a_switched_wait_that_runs_out_says_204_and_the_question_stays_pending() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let (mut stream, head) = switch(
        daemon.port,
        &format!("/api/questions/{id}/wait?timeout=1&cancelOnDisconnect=true"),
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    assert_eq!(rest(&mut stream).await, "204\n");
    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["status"], "pending");
    assert!(
        read["abandonedAt"].is_null(),
        "a wait that ran out is no leaving"
    );
}

#[tokio::test]
async fn an_unknown_id_is_refused_over_http_before_any_switch() {
    let daemon = Daemon::start();
    let id = "00000000-0000-4000-8000-000000000000";
    let (mut stream, head) = switch(daemon.port, &format!("/api/questions/{id}/wait")).await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    assert!(
        !head.to_ascii_lowercase().contains("upgrade: hark-wait"),
        "{head}"
    );
    // The body is the usual JSON error, after the head.
    let mut body = vec![0u8; 512];
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut body))
        .await
        .unwrap()
        .unwrap();
    let body: Value = serde_json::from_slice(&body[..read]).unwrap();
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|error| error.contains(id)),
        "{body}"
    );
}

#[tokio::test]
async fn a_client_that_leaves_a_switched_wait_leaves_its_question() {
    let daemon = Daemon::start();
    // Closing the connection, and breaking the protocol by sending after the switch.
    for leave in ["close", "send"] {
        // Another question each time: the same one again would take up the one left.
        let asked = serde_json::json!({"questions": [{"question": format!("Leave by {leave}?")}]});
        let question = daemon.ask(&asked).await;
        let id = question["id"].as_str().unwrap();
        let (mut stream, head) = switch(
            daemon.port,
            &format!("/api/questions/{id}/wait?cancelOnDisconnect=true"),
        )
        .await;
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        waits_open(&daemon.http, &daemon.url("/api/health"), 1).await;
        // Kept open while sending: the question is left for what was sent, not for a close.
        let _open = if leave == "send" {
            stream.write_all(b"more").await.unwrap();
            Some(stream)
        } else {
            drop(stream);
            None
        };
        let mut abandoned = Value::Null;
        for _ in 0..200 {
            let read: Value = daemon
                .get(&format!("/api/questions/{id}"))
                .await
                .json()
                .await
                .unwrap();
            abandoned = read["abandonedAt"].clone();
            if !abandoned.is_null() {
                assert_eq!(read["status"], "pending", "still answerable late");
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(!abandoned.is_null(), "{leave}: the question was not left");
        let health: Value = daemon.get("/api/health").await.json().await.unwrap();
        assert_eq!(health["waits"], 0, "{leave}: the wait is over");
    }
}

#[tokio::test]
async fn a_stopping_daemon_ends_a_switched_wait_with_its_503_before_it_exits() {
    let mut daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let (mut stream, head) = switch(daemon.port, &format!("/api/questions/{id}/wait")).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    waits_open(&daemon.http, &daemon.url("/api/health"), 1).await;
    let status = daemon.terminate();
    assert!(
        status.is_some_and(|status| status.success()),
        "exit status {status:?}"
    );
    let line = rest(&mut stream).await;
    let body = line
        .strip_prefix("503 ")
        .and_then(|line| line.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("not one line with status 503: {line:?}"));
    let error: Value = serde_json::from_str(body).unwrap();
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|error| !error.is_empty()),
        "{error}"
    );
}
