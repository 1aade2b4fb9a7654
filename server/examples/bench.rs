//! MCP and live-update figures for `cargo xtask bench` (prints, asserts nothing): the first
//! `ask_user` with no daemon running (the shim starts one), shim start to `tools/list`
//! answered, idle shim and daemon memory, `ask_user` call to `question:created` on the
//! WebSocket, answer POST to tool result, where each leg's time goes (the daemon's create and
//! its event; the close and its durable write, the waiter's wake-up; the shim's own part), and
//! what finding a new connection's owner costs (SPEC §16, paid once per connection). Drives the
//! release binary given as argument.

#[path = "support/mod.rs"]
mod support;

use futures::StreamExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::{Shim, memory, start_daemon};

const STARTS: usize = 20;
const CALLS: usize = 200;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Fresh homes for the cold-start figure.
const COLD_STARTS: usize = 10;

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Shim start, with no daemon running, to the first `ask_user` answered: the shim starts the
/// daemon, the question is answered as soon as it appears.
async fn cold_start(binary: &str) -> Duration {
    let home = tempfile::tempdir().unwrap();
    let port = free_port();
    let http = reqwest::Client::new();
    let started = Instant::now();
    let mut shim = Shim::spawn(binary, home.path(), port);
    shim.handshake().await;
    shim.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "ask_user",
        "arguments": {"questions": [{"question": "Cold?", "options": [{"label": "Yes"}]}]}}}),
    )
    .await;
    let pending = format!("http://127.0.0.1:{port}/api/questions?status=pending");
    let id = loop {
        if let Ok(response) = http.get(&pending).send().await
            && let Ok(list) = response.json::<Value>().await
            && let Some(id) = list["questions"][0]["id"].as_str()
        {
            break id.to_string();
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    http.post(format!("http://127.0.0.1:{port}/api/questions/{id}/answer"))
        .json(&json!({"answers": [{"selected": ["Yes"]}]}))
        .send()
        .await
        .unwrap();
    shim.response(1).await;
    let took = started.elapsed();
    drop(shim);
    let _ = std::process::Command::new(binary)
        .args(["stop", "--port", &port.to_string()])
        .env("HARK_HOME", home.path())
        .output();
    took
}

#[tokio::main]
async fn main() {
    let binary = std::env::args()
        .nth(1)
        .expect("usage: bench <path to hark>");
    let mut colds = Vec::new();
    for _ in 0..COLD_STARTS {
        colds.push(cold_start(&binary).await);
    }
    println!(
        "no daemon: shim start → ask_user answered median {:?}",
        median(colds)
    );
    let home = tempfile::tempdir().unwrap();
    let (daemon, port) = start_daemon(&binary, home.path()).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!(
        "daemon idle                              {}",
        memory(daemon.id().unwrap())
    );

    let mut starts = Vec::new();
    for _ in 0..STARTS {
        let started = Instant::now();
        let mut shim = Shim::spawn(&binary, home.path(), port);
        shim.handshake().await;
        shim.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .await;
        shim.response(1).await;
        starts.push(started.elapsed());
    }
    println!(
        "shim start → tools/list answered         median {:?}",
        median(starts)
    );

    let mut shim = Shim::spawn(&binary, home.path(), port);
    shim.handshake().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!(
        "idle shim                                {}",
        memory(shim.child.id().unwrap())
    );

    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/api/ws"))
        .await
        .unwrap();
    socket.next().await; // init
    let http = reqwest::Client::new();
    let (mut to_created, mut to_result) = (Vec::new(), Vec::new());
    for call in 0..CALLS as u64 {
        let id = 100 + call;
        let started = Instant::now();
        shim.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "ask_user",
            "arguments": {"questions": [{"question": "Bench?", "options": [{"label": "Yes"}]}]}}}),
        )
        .await;
        let question_id = loop {
            let message = socket.next().await.unwrap().unwrap();
            let event: Value =
                serde_json::from_str(message.to_text().unwrap_or("{}")).unwrap_or_default();
            if event["event"] == "question:created" {
                break event["data"]["id"].as_str().unwrap().to_string();
            }
        };
        to_created.push(started.elapsed());
        let answered = Instant::now();
        http.post(format!(
            "http://127.0.0.1:{port}/api/questions/{question_id}/answer"
        ))
        .json(&json!({"answers": [{"selected": ["Yes"]}]}))
        .send()
        .await
        .unwrap();
        shim.response(id).await;
        to_result.push(answered.elapsed());
    }
    let to_created = median(to_created);
    println!("ask_user call → question:created on ws   median {to_created:?}");
    let to_result = median(to_result);
    println!("answer POST → tool result                median {to_result:?}");
    println!(
        "daemon after the calls                   {}",
        memory(daemon.id().unwrap())
    );
    legs_taken_apart(port, &http, &mut socket, to_created, to_result).await;
    owner_lookup();
}

/// Both legs taken apart over plain HTTP, as the shim sees the daemon, without the shim: create
/// POST → `question:created` on the WebSocket (the daemon's part of the created leg) and → its
/// 201; answer POST → its acknowledgement (the close and its durable write) and → a waiting
/// `/wait` answered (the waiter's wake-up and response). What the MCP figures take beyond these
/// is the shim's own part (reading the call, its request; reading the wait, formatting, writing
/// to stdout).
async fn legs_taken_apart<S>(
    port: u16,
    http: &reqwest::Client,
    socket: &mut S,
    to_created: Duration,
    to_result: Duration,
) where
    S: futures::Stream<
            Item = Result<
                tokio_tungstenite::tungstenite::Message,
                tokio_tungstenite::tungstenite::Error,
            >,
        > + Unpin,
{
    let base = format!("http://127.0.0.1:{port}");
    let (mut created, mut announced) = (Vec::new(), Vec::new());
    let (mut acknowledged, mut woken) = (Vec::new(), Vec::new());
    for _ in 0..CALLS {
        let asked = Instant::now();
        let create = async {
            let question: Value = http
                .post(format!("{base}/api/questions"))
                .json(
                    &json!({"questions": [{"question": "Parts?", "options": [{"label": "Yes"}]}],
                            "source": {"client": "bench", "cwd": "/bench"}}),
                )
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            (asked.elapsed(), question)
        };
        // One question is asked at a time: the next `question:created` is this one's.
        let heard = async {
            loop {
                let message = socket.next().await.unwrap().unwrap();
                let event: Value =
                    serde_json::from_str(message.to_text().unwrap_or("{}")).unwrap_or_default();
                if event["event"] == "question:created" {
                    return asked.elapsed();
                }
            }
        };
        let ((acknowledged_in, question), heard_in) = tokio::join!(create, heard);
        created.push(acknowledged_in);
        announced.push(heard_in);
        let id = question["id"].as_str().unwrap().to_string();
        let waiter = {
            let (http, url) = (
                http.clone(),
                format!("{base}/api/questions/{id}/wait?timeout=30&messages=true"),
            );
            tokio::spawn(async move {
                http.get(url).send().await.unwrap().bytes().await.unwrap();
                Instant::now()
            })
        };
        waits_registered(http, &base).await;
        let answered = Instant::now();
        http.post(format!("{base}/api/questions/{id}/answer"))
            .json(&json!({"answers": [{"selected": ["Yes"]}]}))
            .send()
            .await
            .unwrap();
        acknowledged.push(answered.elapsed());
        woken.push(waiter.await.unwrap() - answered);
    }
    let announced = median(announced);
    println!(
        "  create POST → 201                         median {:?}",
        median(created)
    );
    println!("  create POST → question:created on ws    median {announced:?}");
    println!(
        "  the shim's own part of the created leg ≈ {:?}",
        to_created.saturating_sub(announced)
    );
    let woken = median(woken);
    println!(
        "  answer POST → acknowledged (close, durable write) median {:?}",
        median(acknowledged)
    );
    println!("  answer POST → a waiting /wait answered   median {woken:?}");
    println!(
        "  the shim's own part (tool result − /wait) ≈ {:?}",
        to_result.saturating_sub(woken)
    );
}

/// Until the daemon counts one open wait (bounded: a second at most).
async fn waits_registered(http: &reqwest::Client, base: &str) {
    for _ in 0..1000 {
        let health: Value = http
            .get(format!("{base}/api/health"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if health["waits"].as_u64() >= Some(1) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// What the daemon pays per new loopback connection to learn whose it is, on this machine as
/// it is (its other sockets, `TIME_WAIT` ones included, cost a table walk nothing here).
fn owner_lookup() {
    use hark::security::peer_owner::PeerOwner;
    const LOOKUPS: usize = 2000;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let _client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    let (accepted, peer) = listener.accept().unwrap();
    let ours = accepted.local_addr().unwrap();
    let mut samples = Vec::with_capacity(LOOKUPS);
    let mut found = PeerOwner::Same;
    for _ in 0..LOOKUPS {
        let started = Instant::now();
        let owner = PeerOwner::of(peer, ours);
        samples.push(started.elapsed());
        if owner != PeerOwner::Same {
            found = owner;
        }
    }
    let sockets = std::fs::read_to_string("/proc/net/tcp")
        .map(|table| table.lines().count().saturating_sub(1))
        .unwrap_or_default();
    println!(
        "new connection's owner looked up         median {:?} ({sockets} IPv4 sockets here; \
         found {found:?})",
        median(samples)
    );
}
