//! The core hub under load (SPEC §10): a slow disk delays only acknowledgements, every create
//! acknowledged before a kill -9 is there after the restart, and a live subscriber hears every
//! event of a burst of the pending cap without a resync.

use crate::api::events::{connect, next_event};
use crate::api::support::*;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Questions in a burst: the pending cap.
const BURST: usize = 1_000;
/// Clients sending the burst side by side.
const CLIENTS: usize = 50;

fn ask_with(id: &str) -> Value {
    let mut request = yes_no();
    request["id"] = json!(id);
    request
}

#[tokio::test]
async fn a_slow_disk_delays_acknowledgements_and_nothing_else() {
    const CREATES: usize = 20;
    const COMMIT_MS: u64 = 200;
    let daemon = Arc::new(Daemon::start_with(
        tempfile::tempdir().unwrap(),
        &[("HARK_TEST_COMMIT_DELAY_MS", &COMMIT_MS.to_string())],
    ));
    let origin = format!("http://127.0.0.1:{}", daemon.port);
    let mut socket = connect(&daemon, Some(&origin)).await.unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");

    let acknowledged = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let creates: Vec<_> = (0..CREATES)
        .map(|_| {
            let (daemon, acknowledged) = (daemon.clone(), acknowledged.clone());
            tokio::spawn(async move {
                let status = daemon.post("/api/questions", &yes_no()).await.status();
                acknowledged.fetch_add(1, Ordering::SeqCst);
                status
            })
        })
        .collect();
    // Every create is announced at once, while its commit is still on its way to the disk.
    for _ in 0..CREATES {
        assert_eq!(next_event(&mut socket).await["event"], "question:created");
    }
    let health = daemon.get("/api/health").await;
    assert_eq!(health.status(), 200);
    let page = daemon
        .http
        .get(daemon.url("/"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(
        acknowledged.load(Ordering::SeqCst) < CREATES,
        "health and the page answered while creates still waited for the slow disk"
    );
    for create in creates {
        assert_eq!(create.await.unwrap(), 201);
    }
    // One at a time they would need CREATES × COMMIT_MS; batched they share a few commits.
    let serial = Duration::from_millis(COMMIT_MS * CREATES as u64);
    assert!(
        started.elapsed() < serial / 2,
        "{CREATES} creates took {:?}: they were not committed together",
        started.elapsed()
    );
}

#[tokio::test]
async fn every_create_acknowledged_before_a_kill_9_is_there_after_the_restart() {
    let daemon = Daemon::start();
    let attempted: Vec<String> = (0..BURST)
        .map(|_| uuid::Uuid::new_v4().to_string())
        .collect();
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let senders: Vec<_> = attempted
        .chunks(BURST / CLIENTS)
        .map(|ids| {
            let ids = ids.to_vec();
            let acknowledged = acknowledged.clone();
            let (http, url) = (daemon.http.clone(), daemon.url("/api/questions"));
            tokio::spawn(async move {
                for id in ids {
                    match http.post(&url).json(&ask_with(&id)).send().await {
                        Ok(response) if response.status() == 201 => {
                            acknowledged.lock().unwrap().push(id);
                        }
                        _ => return,
                    }
                }
            })
        })
        .collect();
    // Kill the daemon in the middle of the burst.
    for _ in 0..5_000 {
        if acknowledged.lock().unwrap().len() >= BURST / 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let daemon = daemon.crash_and_restart();
    for sender in senders {
        let _ = sender.await;
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        !acknowledged.is_empty() && acknowledged.len() < BURST,
        "the kill came mid-burst ({} acknowledged)",
        acknowledged.len()
    );
    let listed: Value = daemon
        .get("/api/questions?status=pending")
        .await
        .json()
        .await
        .unwrap();
    let listed: HashSet<String> = listed["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|question| {
            assert_eq!(question["questions"][0]["question"], "Deploy now?");
            question["id"].as_str().unwrap().to_string()
        })
        .collect();
    let attempted: HashSet<String> = attempted.into_iter().collect();
    for id in &acknowledged {
        assert!(listed.contains(id), "acknowledged {id} was lost");
    }
    assert!(
        listed.is_subset(&attempted),
        "nothing appears that was not asked"
    );
}

#[tokio::test]
async fn a_live_subscriber_hears_every_create_of_a_burst_in_order() {
    let daemon = Arc::new(Daemon::start());
    let origin = format!("http://127.0.0.1:{}", daemon.port);
    let mut socket = connect(&daemon, Some(&origin)).await.unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");
    // The subscriber reads nothing until the whole burst is in: about 19 MB of events, far more
    // than the sockets buffer, so the daemon must hold them for it.
    let mut request = yes_no();
    request["title"] = json!("x".repeat(19_000));
    let request = Arc::new(request);
    let senders: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (daemon, request) = (daemon.clone(), request.clone());
            tokio::spawn(async move {
                for _ in 0..BURST / CLIENTS {
                    daemon.ask(&request).await;
                }
            })
        })
        .collect();
    for sender in senders {
        sender.await.unwrap();
    }
    let mut seen = HashSet::new();
    let mut last_created = chrono::DateTime::<chrono::FixedOffset>::MIN_UTC.fixed_offset();
    while seen.len() < BURST {
        let event = next_event(&mut socket).await;
        assert_eq!(
            event["event"], "question:created",
            "no resync or other event in a burst of {BURST}"
        );
        let created =
            chrono::DateTime::parse_from_rfc3339(event["data"]["createdAt"].as_str().unwrap())
                .unwrap();
        assert!(
            created >= last_created,
            "events in the order of the changes"
        );
        last_created = created;
        assert!(seen.insert(event["data"]["id"].as_str().unwrap().to_string()));
    }
    let pending: Value = daemon
        .get("/api/questions?status=pending")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        pending["questions"].as_array().unwrap().len(),
        BURST,
        "every pending question, not a page"
    );
}
