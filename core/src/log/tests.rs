//! The log: pages without gaps, pruning in steps, damage moved aside, answers surviving a
//! reopen, writes queued together committed together, and images kept and pruned with their
//! question.

use super::*;
use crate::model::{Status, SubQuestion};

fn question(minutes_ago: i64, status: Status) -> Question {
    let created_at = chrono::Utc::now() - chrono::Duration::minutes(minutes_ago);
    Question {
        id: QuestionId::new_random(),
        questions: vec![SubQuestion::text("q")],
        title: None,
        source: None,
        status,
        answers: None,
        note: None,
        created_at,
        closed_at: (status != Status::Pending).then_some(created_at),
        expires_at: None,
        timeout_action: Default::default(),
        answered_via: None,
        permission: None,
        abandoned_at: None,
        shown: None,
    }
}

/// Saves each question as the store would: created pending first, then as it is.
async fn save_all(log: &Log, questions: &[Question]) {
    let mut acks = Vec::new();
    for question in questions {
        if !question.is_pending() {
            let mut asked = question.clone();
            asked.status = Status::Pending;
            asked.closed_at = None;
            acks.push(log.append(asked));
        }
        acks.push(log.append(question.clone()));
    }
    for ack in acks {
        ack.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn pages_walk_the_history_newest_first_without_gaps_or_repeats() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let mut all: Vec<Question> = (0..25).map(|age| question(age, Status::Answered)).collect();
    all.push(question(3, Status::Pending));
    save_all(&log, &all).await;
    let mut seen = Vec::new();
    let mut before = None;
    for _ in 0..10 {
        let page = log.page(Filter::Closed, before, 10).await;
        if page.is_empty() {
            break;
        }
        before = page
            .last()
            .map(|question| (question.created_at, question.id));
        seen.extend(page);
    }
    assert_eq!(seen.len(), 25);
    assert!(
        seen.windows(2)
            .all(|pair| pair[0].created_at >= pair[1].created_at)
    );
    assert_eq!(log.page(Filter::Any, None, 100).await.len(), 26);
    assert_eq!(
        log.page(Filter::Status(Status::Pending), None, 100)
            .await
            .len(),
        1
    );
    assert_eq!(log.read_now(Reader::pending).len(), 1);
    let (sender, mut streamed) = tokio::sync::mpsc::channel(4);
    log.stream_all(sender);
    let mut count = 0;
    while streamed.recv().await.is_some() {
        count += 1;
    }
    assert_eq!(count, 26);
}

#[tokio::test]
async fn pruning_keeps_pending_and_the_newest_closed() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let closed: Vec<Question> = (0..10)
        .map(|age| question(age * 60 * 24, Status::Answered))
        .collect();
    save_all(&log, &closed).await;
    save_all(&log, &[question(60 * 24 * 30, Status::Pending)]).await;
    let week_ago = (chrono::Utc::now() - chrono::Duration::days(7)).timestamp_micros();
    log.prune(week_ago, 100);
    log.sync().await;
    // Pruning runs when the queue is empty; a barrier after it waits for the next idle turn.
    wait_for_count(&log, 8).await;
    log.prune(0, 5);
    wait_for_count(&log, 6).await;
}

async fn wait_for_count(log: &Log, expected: usize) {
    for _ in 0..200 {
        if log.read_now(Reader::count) == expected {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!(
        "expected {expected} rows, found {}",
        log.read_now(Reader::count)
    );
}

#[tokio::test]
async fn a_prune_larger_than_a_step_finishes_in_steps() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let closed: Vec<Question> = (0..1_200)
        .map(|_| question(60 * 24 * 40, Status::Cancelled))
        .collect();
    save_all(&log, &closed).await;
    let week_ago = (chrono::Utc::now() - chrono::Duration::days(7)).timestamp_micros();
    log.prune(week_ago, 10_000);
    wait_for_count(&log, 0).await;
}

#[test]
fn a_damaged_file_is_moved_aside_and_a_fresh_database_started() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(DB_FILE),
        b"this is not a database at all, not even close",
    )
    .unwrap();
    let log = Log::open(home.path()).unwrap();
    assert_eq!(log.read_now(Reader::count), 0);
    let aside: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().contains("damaged"))
        .collect();
    assert_eq!(aside.len(), 1);
}

#[tokio::test]
async fn answers_survive_reopening() {
    let home = tempfile::tempdir().unwrap();
    let mut asked = question(1, Status::Pending);
    {
        let log = Log::open(home.path()).unwrap();
        save_all(&log, std::slice::from_ref(&asked)).await;
        asked.status = Status::Answered;
        asked.closed_at = Some(chrono::Utc::now());
        save_all(&log, std::slice::from_ref(&asked)).await;
    }
    let log = Log::open(home.path()).unwrap();
    assert_eq!(log.get(asked.id).await, Some(asked));
}

#[tokio::test]
async fn writes_queued_together_share_one_commit_and_keep_their_order() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let mut asked = question(1, Status::Pending);
    // Queued back to back: the create and the close of one question, then 500 more.
    let first = log.append(asked.clone());
    asked.status = Status::Declined;
    asked.closed_at = Some(chrono::Utc::now());
    let second = log.append(asked.clone());
    let more: Vec<Ack> = (0..500)
        .map(|_| log.append(question(2, Status::Pending)))
        .collect();
    first.await.unwrap().unwrap();
    second.await.unwrap().unwrap();
    for ack in more {
        ack.await.unwrap().unwrap();
    }
    assert_eq!(log.get(asked.id).await.unwrap().status, Status::Declined);
    assert_eq!(log.read_now(Reader::count), 501);
}

#[tokio::test]
async fn a_close_whose_creation_was_never_recorded_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let closed = question(1, Status::Answered);
    let refused = log.append(closed.clone()).await.unwrap();
    assert!(refused.is_err(), "a close with no create behind it");
    assert!(!log.holds(closed.id));
    assert_eq!(log.get(closed.id).await, None);
    // Created in the same batch, it is rooted.
    save_all(&log, std::slice::from_ref(&closed)).await;
    assert_eq!(log.get(closed.id).await.unwrap().status, Status::Answered);
}

#[tokio::test]
async fn images_are_kept_beside_their_question_and_pruned_with_it() {
    let home = tempfile::tempdir().unwrap();
    let log = Log::open(home.path()).unwrap();
    let old = question(60 * 24 * 30, Status::Answered);
    let image = |answer, place, byte| StoredImage {
        answer,
        place,
        media_type: "image/png".into(),
        bytes: vec![byte; 1_000].into(),
    };
    let images = vec![image(0, 0, 1), image(0, 1, 2), image(1, 0, 3)];
    let asked = Question {
        status: Status::Pending,
        closed_at: None,
        ..old.clone()
    };
    save_all(&log, &[asked]).await;
    log.append_with_images(old.clone(), images.clone(), None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.images(old.id, None).await, images);
    assert_eq!(
        log.images(old.id, Some((0, 1))).await,
        vec![images[1].clone()]
    );
    let other = question(0, Status::Answered);
    save_all(&log, std::slice::from_ref(&other)).await;
    assert!(log.images(other.id, None).await.is_empty());

    let week_ago = (chrono::Utc::now() - chrono::Duration::days(7)).timestamp_micros();
    log.prune(week_ago, 100);
    wait_for_count(&log, 1).await;
    assert!(log.images(old.id, None).await.is_empty());
    let left: i64 = log.read_now(|reader| reader.image_rows());
    assert_eq!(left, 0, "the pruned question's images left with it");
}
