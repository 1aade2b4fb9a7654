//! The link supervisor's schedule.

use super::fake::*;
use crate::channels::chat::LinkEnded;
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

#[tokio::test(start_paused = true)]
async fn the_link_reconnects_on_one_schedule_and_refused_credentials_wait_for_new_settings() {
    let world = World::paired(None).await;
    let failed = || LinkEnded::Failed {
        reason: "unreachable".into(),
        retry_after: None,
    };
    // The first connection stays open; the test's scripted endings start with the second.
    world.service.wait_listens(1).await;
    world.service.endings.lock().unwrap().extend([
        failed(),
        failed(),
        failed(),
        LinkEnded::Again(Duration::ZERO),
        failed(),
        LinkEnded::Failed {
            reason: "slow down".into(),
            retry_after: Some(Duration::from_secs(7)),
        },
        LinkEnded::Refused("wrong token".into()),
    ]);
    // The open connection ends: the scripted ones follow.
    world.service.endings.lock().unwrap().push_front(failed());
    world
        .relay
        .store
        .update_config(&json!({"remindSecs": 1}))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(100)).await;
    let listens = world.service.listens.lock().unwrap().clone();
    let gaps: Vec<u64> = listens
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).as_secs())
        .collect();
    // Settings woke the open one; then 1, 2, 4 s of pauses; a real connection ends and the next
    // opens at once; 1 s again, then the 7 s asked for; then the refusal waits.
    assert_eq!(gaps.get(1..8), Some(&[1, 2, 4, 8, 0, 1, 7][..]), "{gaps:?}");
    let before = listens.len();
    // New settings end the wait for them.
    let changed = Instant::now();
    world
        .relay
        .store
        .update_config(&json!({"remindSecs": 2}))
        .await
        .unwrap();
    world.service.wait_listens(before + 1).await;
    let woken = *world.service.listens.lock().unwrap().last().unwrap();
    assert!(
        woken - changed < Duration::from_secs(1),
        "{:?}",
        woken - changed
    );
}
