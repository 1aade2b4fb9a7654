//! Load figures for `cargo xtask bench` (prints, asserts nothing): `CONNECTIONS` HTTP/1.1
//! keep-alive clients, each alternating "create a question" and "answer it" (so few stay
//! pending) for `SECONDS`, against a durable daemon and a `--memory` one: requests per second,
//! p50 and p99. Then a fresh durable daemon's private memory with `WAITS` long polls waiting,
//! as plain HTTP and as the shims of that many MCP calls hold them (switched to `hark-wait`).
//! Drives the release binary given as argument; the generator shares the machine's cores with
//! the daemon, so the figures are a floor.

#[path = "support/mod.rs"]
mod support;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use std::time::{Duration, Instant};
use support::{start_daemon_with, status_kib};

const CONNECTIONS: usize = 32;
const SECONDS: u64 = 10;
const WAITS: usize = 500;
const ASK: &str =
    r#"{"questions":[{"question":"Deploy now?","options":[{"label":"Yes"},{"label":"No"}]}]}"#;
const ANSWER: &str = r#"{"answers":[{"selected":["Yes"]}]}"#;

#[tokio::main]
async fn main() {
    let binary = std::env::args().nth(1).expect("usage: load <path to hark>");
    for (name, flags) in [("durable", &[][..]), ("--memory", &["--memory"][..])] {
        let home = tempfile::tempdir().unwrap();
        let (daemon, port) = start_daemon_with(&binary, home.path(), flags).await;
        let (requests, mut latencies, elapsed) = load(port).await;
        latencies.sort();
        let percentile = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
        println!(
            "load {name:<9} {CONNECTIONS} connections, create/answer: {:>7.0} req/s  p50 {:?}  p99 {:?}",
            requests as f64 / elapsed.as_secs_f64(),
            percentile(50),
            percentile(99),
        );
        drop(daemon);
    }
    // On a fresh daemon each, as after a start: what the waiting calls themselves cost.
    for way in [Way::Plain, Way::Switched] {
        let home = tempfile::tempdir().unwrap();
        let (daemon, port) = start_daemon_with(&binary, home.path(), &[]).await;
        waiting_memory(port, daemon.id().unwrap(), way).await;
    }
}

/// How a long poll waits: as plain HTTP, or on the bare connection after switching protocols
/// (`Upgrade: hark-wait`), as the shim's and the CLI's waits do.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Plain,
    Switched,
}

type Sender = http1::SendRequest<Full<Bytes>>;

async fn connect(port: u16) -> Sender {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    stream.set_nodelay(true).unwrap();
    let (sender, connection) = http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(connection.with_upgrades());
    sender
}

async fn request(
    sender: &mut Sender,
    port: u16,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, Bytes) {
    sender.ready().await.unwrap();
    let request = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", format!("127.0.0.1:{port}"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::copy_from_slice(body.as_bytes())))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, body)
}

fn question_id(body: &[u8]) -> String {
    let text = std::str::from_utf8(body).unwrap();
    let start = text.find("\"id\":\"").expect("an id") + 6;
    text[start..start + 36].to_string()
}

/// Runs the create/answer mix; returns the requests made, each one's latency, and the time.
async fn load(port: u16) -> (usize, Vec<Duration>, Duration) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(SECONDS);
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            tokio::spawn(async move {
                let mut sender = connect(port).await;
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let asked = Instant::now();
                    let (status, body) =
                        request(&mut sender, port, "POST", "/api/questions", ASK).await;
                    assert_eq!(status, 201, "create: {}", String::from_utf8_lossy(&body));
                    latencies.push(asked.elapsed());
                    let path = format!("/api/questions/{}/answer", question_id(&body));
                    let answered = Instant::now();
                    let (status, _) = request(&mut sender, port, "POST", &path, ANSWER).await;
                    assert_eq!(status, 200, "answer");
                    latencies.push(answered.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for client in clients {
        latencies.extend(client.await.unwrap());
    }
    (latencies.len(), latencies, started.elapsed())
}

/// `WAITS` questions, each with a long poll waiting on it, then the daemon's private memory.
async fn waiting_memory(port: u16, pid: u32, way: Way) {
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = status_kib(pid, "RssAnon:");
    let mut waiting = Vec::new();
    for _ in 0..WAITS {
        let mut sender = connect(port).await;
        let (_, body) = request(&mut sender, port, "POST", "/api/questions", ASK).await;
        let path = format!("/api/questions/{}/wait", question_id(&body));
        waiting.push(tokio::spawn(async move {
            match way {
                Way::Plain => drop(request(&mut sender, port, "GET", &path, "").await),
                Way::Switched => switched_wait(&mut sender, port, &path).await,
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let kind = match way {
        Way::Plain => "plain HTTP long polls",
        Way::Switched => "waits switched to hark-wait (the shim's)",
    };
    println!(
        "daemon private memory (RssAnon): {before} KiB idle, {} KiB with {WAITS} {kind} waiting",
        status_kib(pid, "RssAnon:")
    );
    for wait in waiting {
        wait.abort();
    }
}

/// A wait that switches protocols, held until the daemon's line and its close.
async fn switched_wait(sender: &mut Sender, port: u16, path: &str) {
    use tokio::io::AsyncReadExt;
    sender.ready().await.unwrap();
    let request = hyper::Request::builder()
        .uri(path)
        .header("host", format!("127.0.0.1:{port}"))
        .header("connection", "upgrade")
        .header("upgrade", "hark-wait")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    if response.status() != 101 {
        // A daemon that does not switch (an earlier build, measured beside this one) answers
        // as a plain wait does.
        let _ = response.into_body().collect().await;
        return;
    }
    let connection = hyper::upgrade::on(response).await.unwrap();
    let mut line = Vec::new();
    let _ = TokioIo::new(connection).read_to_end(&mut line).await;
}
