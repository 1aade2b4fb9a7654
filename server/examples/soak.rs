//! `cargo xtask soak`: proof that no answer is lost or misrouted under load. Against the release
//! binary given as argument, with a persistent history capped at 1,000 closed questions:
//! 50 shims keep 10 `ask_user` calls each in flight, answered in random order, each answer
//! naming its call; then 10,000 questions are created and answered through the API. Prints the
//! daemon's memory before and after; fails (exit 1) on any lost or misrouted answer.

#[path = "support/mod.rs"]
mod support;

use rand::seq::SliceRandom;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use support::{Shim, memory, start_daemon};

const SHIMS: usize = 50;
const CALLS_PER_SHIM: usize = 10;
const API_QUESTIONS: usize = 10_000;
const API_WORKERS: usize = 8;
const HISTORY_MAX: u64 = 1_000;

async fn get_json(http: &reqwest::Client, url: String) -> Value {
    http.get(url).send().await.unwrap().json().await.unwrap()
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let binary = std::env::args().nth(1).expect("usage: soak <path to hark>");
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        json!({"historyMax": HISTORY_MAX, "remindSecs": 0, "notification": false,
               "autoOpenBrowser": false})
        .to_string(),
    )
    .unwrap();
    let (daemon, port) = start_daemon(&binary, home.path()).await;
    let pid = daemon.id().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!("daemon at start                    {}", memory(pid));

    // Phase 1: 500 calls in flight from 50 shims, answered in random order.
    let started = Instant::now();
    let mut shims = Vec::new();
    for _ in 0..SHIMS {
        let mut shim = Shim::spawn(&binary, home.path(), port);
        shim.handshake().await;
        shims.push(shim);
    }
    for (shim_index, shim) in shims.iter_mut().enumerate() {
        for call in 0..CALLS_PER_SHIM {
            shim.send(
                json!({"jsonrpc": "2.0", "id": 1000 + call, "method": "tools/call",
                "params": {"name": "ask_user", "arguments": {"questions": [{
                    "question": format!("shim {shim_index} call {call}"),
                    "options": [{"label": "Go"}]}]}}}),
            )
            .await;
        }
    }
    let expected = SHIMS * CALLS_PER_SHIM;
    let mut pending: Vec<Value> = Vec::new();
    for _ in 0..600 {
        let list: Value = get_json(
            &http,
            format!("{base}/api/questions?status=pending&limit=1000"),
        )
        .await;
        pending = list["questions"].as_array().cloned().unwrap_or_default();
        if pending.len() >= expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "{} of {expected} calls pending after {:?}; {}",
        pending.len(),
        started.elapsed(),
        memory(pid)
    );
    pending.shuffle(&mut rand::rng());
    for question in &pending {
        let text = question["questions"][0]["question"]
            .as_str()
            .unwrap_or_default();
        http.post(format!(
            "{base}/api/questions/{}/answer",
            question["id"].as_str().unwrap()
        ))
        .json(&json!({"answers": [{"selected": ["Go"], "freeText": format!("for {text}")}]}))
        .send()
        .await
        .unwrap();
    }
    let (mut delivered, mut misrouted) = (0, 0);
    for (shim_index, shim) in shims.iter_mut().enumerate() {
        let mut got: HashMap<u64, String> = HashMap::new();
        while got.len() < CALLS_PER_SHIM {
            let message = tokio::time::timeout(Duration::from_secs(60), shim.next_message()).await;
            let Ok(Some(message)) = message else { break };
            let Some(id) = message["id"].as_u64() else {
                continue;
            };
            let text = message["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            got.insert(id, text);
        }
        for (id, text) in got {
            let call = id - 1000;
            delivered += 1;
            if !text.contains(&format!("for shim {shim_index} call {call}")) {
                misrouted += 1;
                eprintln!("shim {shim_index} call {call} got {text:?}");
            }
        }
    }
    let lost = expected - delivered;
    println!(
        "shims: {delivered} delivered, {lost} lost, {misrouted} misrouted in {:?}; {}",
        started.elapsed(),
        memory(pid)
    );
    drop(shims);

    // Phase 2: 10,000 questions through the API, eight at a time.
    let started = Instant::now();
    let mut workers = Vec::new();
    for worker in 0..API_WORKERS {
        let (http, base) = (http.clone(), base.clone());
        workers.push(tokio::spawn(async move {
            let mut wrong = 0;
            for index in (worker..API_QUESTIONS).step_by(API_WORKERS) {
                let question: Value = http
                    .post(format!("{base}/api/questions"))
                    .json(&json!({"questions": [{"question": format!("api {index}")}]}))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let id = question["id"].as_str().unwrap().to_string();
                http.post(format!("{base}/api/questions/{id}/answer"))
                    .json(&json!({"answers": [{"selected": [], "freeText": format!("answer {index}")}]}))
                    .send()
                    .await
                    .unwrap();
                let result: Value = get_json(&http, format!("{base}/api/questions/{id}/wait?timeout=5")).await;
                if result["answers"][0]["freeText"] != format!("answer {index}") {
                    wrong += 1;
                }
            }
            wrong
        }));
    }
    let mut api_wrong = 0;
    for worker in workers {
        api_wrong += worker.await.unwrap();
    }
    let elapsed = started.elapsed();
    println!(
        "api: {API_QUESTIONS} asked and answered in {elapsed:?} ({:.0}/s), {api_wrong} wrong; {}",
        API_QUESTIONS as f64 / elapsed.as_secs_f64(),
        memory(pid)
    );
    let kept: Value = get_json(&http, format!("{base}/api/export?format=json")).await;
    let database = std::fs::metadata(home.path().join("hark.db")).map_or(0, |meta| meta.len());
    println!(
        "history kept: {} questions (historyMax {HISTORY_MAX}, pruned every hundred closes); \
         database {} KiB",
        kept.as_array().map_or(0, Vec::len),
        database / 1024
    );
    if lost + misrouted + api_wrong > 0 {
        eprintln!("soak FAILED: {lost} lost, {misrouted} misrouted, {api_wrong} wrong");
        return std::process::ExitCode::FAILURE;
    }
    println!("soak passed: 0 lost, 0 misrouted");
    std::process::ExitCode::SUCCESS
}
