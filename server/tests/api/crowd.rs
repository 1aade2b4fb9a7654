//! Crowds from other machines against a daemon in LAN mode: strangers holding idle connections,
//! a low open-files limit, WebSockets that outlive their upgrade. Each test runs itself again
//! inside a network namespace of its own (`unshare`), where the loopback interface answers for
//! all of 10.77.0.0/16: the daemon listens at 10.77.0.1, and every other address stands for
//! another machine on the LAN. Nothing leaves the namespace.

use crate::api::support::*;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Set in the copy of the test binary that runs inside the namespace.
const INSIDE: &str = "HARK_TEST_IN_NETNS";
/// This machine's LAN address inside the namespace.
const DAEMON: Ipv4Addr = Ipv4Addr::new(10, 77, 0, 1);
const SETUP: &str = "ip link set lo up && ip addr add 10.77.0.1/32 dev lo && \
                     ip route add local 10.77.0.0/16 dev lo && exec \"$0\" \"$@\"";

/// True inside the namespace: run the test there. Outside, runs `test` (its full name) in a
/// new namespace, asserts that it passed, and returns false.
async fn inside_namespace(test: &str) -> bool {
    if std::env::var_os(INSIDE).is_some() {
        // Thousands of sockets on the test's side too.
        hark::security::open_files::raise();
        return true;
    }
    let exe = std::env::current_exe().unwrap();
    let run = tokio::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--net", "sh", "-c", SETUP])
        .arg(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(INSIDE, "1")
        .status();
    let status = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the test in its namespace ends within 2 minutes")
        .expect("unshare (util-linux) and ip (iproute2) run here");
    assert!(status.success(), "{test} failed in its network namespace");
    false
}

/// A connection to the daemon from `source`, one of the namespace's other machines.
async fn connect_from(source: Ipv4Addr, port: u16) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::from((source, 0))).ok()?;
    tokio::time::timeout(
        Duration::from_secs(5),
        socket.connect(SocketAddr::from((DAEMON, port))),
    )
    .await
    .ok()?
    .ok()
}

/// One request from `source` with the token (or none), on a new connection: the status line,
/// or `None` when the daemon closed the connection without an answer.
async fn request_from(source: Ipv4Addr, port: u16, token: Option<&str>) -> Option<String> {
    let mut stream = connect_from(source, port).await?;
    let authorization = token
        .map(|token| format!("Authorization: Bearer {token}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET /api/health HTTP/1.1\r\nHost: {DAEMON}:{port}\r\n{authorization}Connection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .ok()?
        .ok()?;
    let answer = String::from_utf8_lossy(&answer);
    answer.lines().next().map(str::to_string)
}

/// Whether the daemon has closed `stream` (it reads end-of-file or an error at once).
async fn closed(stream: &mut TcpStream) -> bool {
    let mut byte = [0_u8; 1];
    matches!(
        tokio::time::timeout(Duration::from_millis(20), stream.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// Polls `crowd` until at most `at_most` of its connections are still open, or `within` has
/// passed; returns how many are.
async fn still_open(crowd: &mut [TcpStream], at_most: usize, within: Duration) -> usize {
    let started = std::time::Instant::now();
    loop {
        let mut open = 0;
        for stream in crowd.iter_mut() {
            if !closed(stream).await {
                open += 1;
            }
        }
        if open <= at_most || started.elapsed() > within {
            return open;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn lan_daemon() -> (Daemon, String) {
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--lan"]);
    let token = std::fs::read_to_string(daemon.home.path().join("token")).unwrap();
    (daemon, token.trim().to_string())
}

#[tokio::test]
async fn strangers_cannot_starve_this_machine_or_paired_devices() {
    if !inside_namespace("api::crowd::strangers_cannot_starve_this_machine_or_paired_devices").await
    {
        return;
    }
    let (daemon, token) = lan_daemon();
    let phone = Ipv4Addr::new(10, 77, 2, 1);
    assert_eq!(
        request_from(phone, daemon.port, Some(&token))
            .await
            .as_deref(),
        Some("HTTP/1.1 200 OK"),
        "the phone pairs"
    );
    // 66 machines without the token, 64 idle connections each: more than the old shared pool.
    let mut crowd = Vec::new();
    for machine in 1..=66_u8 {
        for _ in 0..64 {
            if let Some(stream) = connect_from(Ipv4Addr::new(10, 77, 1, machine), daemon.port).await
            {
                crowd.push(stream);
            }
        }
    }
    assert!(crowd.len() > 4096, "the crowd connected: {}", crowd.len());
    // This machine's agents and the paired phone still get in, at once.
    let local = daemon
        .http
        .get(daemon.url("/api/health"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("a local agent gets in past the crowd");
    assert_eq!(local.status(), 200);
    assert_eq!(
        request_from(phone, daemon.port, Some(&token))
            .await
            .as_deref(),
        Some("HTTP/1.1 200 OK"),
        "the paired phone gets in past the crowd"
    );
    // The strangers hold a small share (those past it are closed as they are accepted), and
    // only briefly: idle ones are cut at `STRANGER_HEADER_TIMEOUT`. This is the listener's own
    // clock, in the real binary; the poll ends as soon as the cut is seen.
    let held = still_open(
        &mut crowd,
        hark::http::listen::MAX_STRANGERS,
        Duration::from_secs(3),
    )
    .await;
    assert!(
        held <= hark::http::listen::MAX_STRANGERS,
        "{held} stranger connections held"
    );
    let deadline = hark::http::listen::STRANGER_HEADER_TIMEOUT + Duration::from_secs(3);
    let still = still_open(&mut crowd, 0, deadline).await;
    assert_eq!(still, 0, "idle strangers are cut off");
    // A stranger that asks without the token is answered and let go.
    let stranger = Ipv4Addr::new(10, 77, 9, 9);
    assert_eq!(
        request_from(stranger, daemon.port, None).await.as_deref(),
        Some("HTTP/1.1 401 Unauthorized")
    );
}

#[tokio::test]
async fn a_low_open_files_limit_is_raised_and_never_exhausted() {
    if !inside_namespace("api::crowd::a_low_open_files_limit_is_raised_and_never_exhausted").await {
        return;
    }
    // Soft 256 as on macOS, hard 512: the daemon may raise its soft limit to 512, no further.
    let daemon = Daemon::start_wrapped(
        tempfile::tempdir().unwrap(),
        &["prlimit", "--nofile=256:512", "--"],
        &["--lan"],
    );
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", daemon.child.id())).unwrap();
    let open_files = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .unwrap();
    assert_eq!(
        open_files.split_whitespace().collect::<Vec<_>>()[3..5],
        ["512", "512"],
        "{open_files}"
    );
    // 18 machines × 64 connections: well past 512 files.
    let mut crowd = Vec::new();
    for machine in 1..=18_u8 {
        for _ in 0..64 {
            if let Some(stream) = connect_from(Ipv4Addr::new(10, 77, 1, machine), daemon.port).await
            {
                crowd.push(stream);
            }
        }
    }
    // And this machine's own crowd of waiting agents.
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap().to_string();
    let mut waits = Vec::new();
    for _ in 0..100 {
        let http = daemon.http.clone();
        let url = daemon.url(&format!("/api/questions/{id}/wait"));
        waits.push(tokio::spawn(async move { http.get(url).send().await }));
    }
    waits_open(&daemon.http, &daemon.url("/api/health"), 100).await;
    let health = reqwest::Client::new()
        .get(daemon.url("/api/health"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("the daemon still accepts a local agent");
    assert_eq!(health.status(), 200);
    let files = std::fs::read_dir(format!("/proc/{}/fd", daemon.child.id()))
        .unwrap()
        .count();
    assert!(files < 512, "{files} files open");
    // The waiting agents all get their answer.
    let answered = reqwest::Client::new()
        .post(daemon.url(&format!("/api/questions/{id}/answer")))
        .json(&pick("Yes"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), 200);
    for wait in waits {
        let response = tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("every wait ends")
            .unwrap()
            .expect("every waiting agent got in");
        assert_eq!(response.status(), 200);
    }
    drop(crowd);
}

#[tokio::test]
async fn a_websocket_keeps_its_connections_place_until_it_closes() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    if !inside_namespace("api::crowd::a_websocket_keeps_its_connections_place_until_it_closes")
        .await
    {
        return;
    }
    let (daemon, token) = lan_daemon();
    let phone = Ipv4Addr::new(10, 77, 3, 1);
    assert_eq!(
        request_from(phone, daemon.port, Some(&token))
            .await
            .as_deref(),
        Some("HTTP/1.1 200 OK")
    );
    let mut sockets = Vec::new();
    for _ in 0..hark::http::listen::PAIRED_PER_PEER {
        let stream = connect_from(phone, daemon.port).await.unwrap();
        let mut request = format!("ws://{DAEMON}:{}/api/ws", daemon.port)
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        let (socket, _) = tokio_tungstenite::client_async(request, stream)
            .await
            .expect("a WebSocket within the phone's share");
        sockets.push(socket);
    }
    // The sockets hold all of the phone's places: one more connection is refused.
    assert_eq!(
        request_from(phone, daemon.port, Some(&token)).await,
        None,
        "past its share while its WebSockets are open"
    );
    // Closing one gives its place back.
    let mut first = sockets.remove(0);
    first.close(None).await.unwrap();
    drop(first);
    let mut status = None;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        status = request_from(phone, daemon.port, Some(&token)).await;
        if status.is_some() {
            break;
        }
    }
    assert_eq!(status.as_deref(), Some("HTTP/1.1 200 OK"));
}
