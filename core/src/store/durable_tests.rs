//! A store on a real log: what callers see while writes wait for the disk. A caller that goes
//! away mid-fsync still releases the waiters; one id asked twice at once is created once.

use super::restart_tests::{asked, reopen as open};
use super::*;

fn yes() -> Vec<SubQuestionAnswer> {
    vec![SubQuestionAnswer {
        selected: vec!["Yes".into()],
        free_text: None,
    }]
}

#[tokio::test]
async fn an_answer_whose_caller_goes_away_mid_fsync_still_reaches_the_agent() {
    let home = tempfile::tempdir().unwrap();
    let store = open(home.path()).await;
    let id = QuestionId::new_random();
    store.create(asked(id)).await.unwrap();
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(id, None).await })
    };
    // Polled once (decided and queued), then dropped while its write is on its way, as when
    // the person's connection closes.
    let answers = yes();
    let mut answering = Box::pin(store.answer(id, &answers));
    let first =
        std::future::poll_fn(|cx| std::task::Poll::Ready(answering.as_mut().poll(cx))).await;
    assert!(
        first.is_pending(),
        "the answer was still waiting for the disk: {first:?}"
    );
    drop(answering);
    let waited = tokio::time::timeout(Duration::from_secs(10), waiter)
        .await
        .expect("the waiter is released")
        .unwrap()
        .unwrap();
    assert!(matches!(waited, Waited::Closed(ref result) if result.status == Status::Answered));
    drop(store);
    let reopened = open(home.path()).await;
    assert_eq!(reopened.get(id).await.unwrap().status, Status::Answered);
}

#[tokio::test]
async fn one_id_asked_twice_at_once_is_created_once() {
    let home = tempfile::tempdir().unwrap();
    let store = open(home.path()).await;
    let id = QuestionId::new_random();
    let mut events = store.subscribe();
    let (first, second) = tokio::join!(store.create(asked(id)), store.create(asked(id)));
    let created = [first.unwrap(), second.unwrap()];
    assert_eq!(
        created
            .iter()
            .filter(|created| matches!(created, Created::New(_)))
            .count(),
        1
    );
    assert_eq!(store.pending_count(), 1);
    assert!(matches!(
        &*events.try_recv().unwrap(),
        Event::QuestionCreated(_)
    ));
    assert!(events.try_recv().is_err(), "one creation announced");
}

#[tokio::test]
async fn pages_on_a_log_walk_memory_and_disk_without_gaps_or_repeats() {
    let home = tempfile::tempdir().unwrap();
    let store = open(home.path()).await;
    let mut asked_ids = Vec::new();
    for _ in 0..HISTORY_IN_MEMORY + 120 {
        let id = QuestionId::new_random();
        store.create(asked(id)).await.unwrap();
        store.cancel(id).await.unwrap();
        asked_ids.push(id);
    }
    // The newest few stay pending, in memory only until their writes land.
    for _ in 0..5 {
        let id = QuestionId::new_random();
        store.create(asked(id)).await.unwrap();
        asked_ids.push(id);
    }
    let mut seen = Vec::new();
    let mut before = None;
    for _ in 0..100 {
        let page = store.page(Filter::Any, before, 97).await.unwrap();
        let Some(last) = page.last() else { break };
        before = Some(last.id);
        seen.extend(page.into_iter().map(|question| question.id));
    }
    asked_ids.reverse();
    assert_eq!(seen, asked_ids, "newest first, each once");
}
