//! A stop closes the history whole: the WAL folded into `hark.db` and removed, every time, and
//! everything acknowledged is in the database itself when the daemon comes back.

use crate::api::support::*;

/// The files the daemon left in `home`, by name.
fn files_in(home: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(home)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn twenty_stops_each_leave_only_the_database() {
    let mut home = tempfile::tempdir().unwrap();
    let mut asked = Vec::new();
    for round in 0..20 {
        let mut daemon = Daemon::start_in(home);
        let question = daemon.ask(&yes_no()).await;
        asked.push(question["id"].as_str().unwrap().to_string());
        // Answer every other one, so closes are in the WAL too when the stop comes.
        if round % 2 == 0 {
            let id = question["id"].as_str().unwrap();
            let answered = daemon
                .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
                .await;
            assert_eq!(answered.status(), 200);
        }
        let status = daemon.terminate().expect("the daemon stops");
        assert!(status.success(), "round {round}: {status}");
        home = std::mem::replace(&mut daemon.home, tempfile::tempdir().unwrap());
        drop(daemon);
        let left = files_in(home.path());
        assert!(
            !left
                .iter()
                .any(|name| name.ends_with("-wal") || name.ends_with("-shm")),
            "round {round} left {left:?}"
        );
        assert!(left.contains(&"hark.db".to_string()), "{left:?}");
    }
    // All twenty are in the database file alone.
    let daemon = Daemon::start_in(home);
    for (round, id) in asked.iter().enumerate() {
        let question: serde_json::Value = daemon
            .get(&format!("/api/questions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        let expected = if round % 2 == 0 {
            "answered"
        } else {
            "pending"
        };
        assert_eq!(question["status"], expected, "round {round}");
    }
}

/// Each kind of damage to the file a clean stop left: the header, the end cut off, a page in
/// the middle zeroed, the second half overwritten.
fn damaged(clean: &[u8], kind: usize) -> Vec<u8> {
    let mut bytes = clean.to_vec();
    let page = 4096;
    match kind {
        0 => bytes[..100].fill(0x42),
        1 => bytes.truncate(bytes.len() / 2),
        2 => {
            let middle = (bytes.len() / page / 2) * page;
            bytes[middle..middle + page].fill(0);
        }
        _ => {
            let half = bytes.len() / 2;
            for (at, byte) in bytes[half..].iter_mut().enumerate() {
                *byte = (at * 7 + 13) as u8;
            }
        }
    }
    bytes
}

#[tokio::test]
async fn every_kind_of_damage_to_a_stopped_database_is_moved_aside() {
    // A history of a few hundred questions, stopped cleanly.
    let mut daemon = Daemon::start();
    for _ in 0..300 {
        daemon.ask(&yes_no()).await;
    }
    assert!(daemon.terminate().expect("stops").success());
    let clean = std::fs::read(daemon.home.path().join("hark.db")).unwrap();
    assert!(clean.len() > 8 * 4096, "several pages: {}", clean.len());
    for kind in 0..4 {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("hark.db"), damaged(&clean, kind)).unwrap();
        let daemon = Daemon::start_in(home);
        assert_eq!(daemon.get("/api/health").await.status(), 200, "kind {kind}");
        let left = files_in(daemon.home.path());
        assert!(
            left.iter().any(|name| name.starts_with("hark.db.damaged-")),
            "damage of kind {kind} was moved aside: {left:?}"
        );
        // And the fresh database takes questions.
        assert_eq!(daemon.ask(&yes_no()).await["status"], "pending");
    }
}
