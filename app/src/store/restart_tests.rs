//! A store reopened on the same database, as after a restart or a crash: pending questions come
//! back pending, an agent that re-attaches keeps its question, one that does not loses it after
//! `orphanSecs`, and an answer nobody collected yet is still there to collect.

use super::*;
use crate::model::{QuestionOption, SubQuestion};

fn asked(id: QuestionId) -> AskRequest {
    AskRequest {
        id: Some(id),
        questions: vec![SubQuestion {
            options: vec![QuestionOption::new("Yes"), QuestionOption::new("No")],
            ..SubQuestion::text("Deploy now?")
        }],
        ..AskRequest::default()
    }
}

fn reopen(home: &Path) -> Store {
    Store::open_persistent(home, CancellationToken::new())
        .unwrap()
        .0
}

#[tokio::test(start_paused = true)]
async fn pending_questions_wait_for_their_agents_then_are_withdrawn() {
    let home = tempfile::tempdir().unwrap();
    let (kept, dropped) = (QuestionId::new_random(), QuestionId::new_random());
    {
        let store = reopen(home.path());
        store.create(asked(kept)).unwrap();
        store.create(asked(dropped)).unwrap();
    }
    let store = reopen(home.path());
    assert_eq!(store.pending_count(), 2, "both come back pending");
    assert!(store.get(kept).unwrap().is_pending());
    // The agent of `kept` re-submits it; nobody comes back for `dropped`.
    assert!(matches!(
        store.create(asked(kept)).unwrap(),
        Created::Existing(_)
    ));
    tokio::time::sleep(Duration::from_secs(store.config().orphan_secs + 1)).await;
    tokio::task::yield_now().await;
    assert!(store.get(kept).unwrap().is_pending());
    let gone = store.get(dropped).unwrap();
    assert_eq!(gone.status, Status::Cancelled);
    assert_eq!(gone.note.as_deref(), Some(ORPHAN_NOTE));
    // The withdrawal is on record too.
    drop(store);
    let again = reopen(home.path());
    assert_eq!(again.get(dropped).unwrap().status, Status::Cancelled);
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_waits_again_also_counts_as_back() {
    let home = tempfile::tempdir().unwrap();
    let id = QuestionId::new_random();
    reopen(home.path()).create(asked(id)).unwrap();
    let store = reopen(home.path());
    let waiting = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(id, None).await })
    };
    tokio::time::sleep(Duration::from_secs(store.config().orphan_secs * 2)).await;
    assert!(store.get(id).unwrap().is_pending());
    store
        .answer(
            id,
            &[SubQuestionAnswer {
                selected: vec!["No".into()],
                free_text: None,
            }],
        )
        .unwrap();
    let Ok(Ok(Waited::Closed(result))) = waiting.await else {
        panic!("the waiter gets the answer");
    };
    assert_eq!(result.status, Status::Answered);
}

#[tokio::test]
async fn an_answer_not_yet_collected_survives_a_restart() {
    let home = tempfile::tempdir().unwrap();
    let id = QuestionId::new_random();
    {
        let store = reopen(home.path());
        store.create(asked(id)).unwrap();
        store
            .answer(
                id,
                &[SubQuestionAnswer {
                    selected: vec!["Yes".into()],
                    free_text: None,
                }],
            )
            .unwrap();
    }
    let store = reopen(home.path());
    let Created::Existing(again) = store.create(asked(id)).unwrap() else {
        panic!("the re-submitted id finds the answered question");
    };
    assert_eq!(again.status, Status::Answered);
    let waited = store.wait(id, Some(Duration::from_secs(1))).await.unwrap();
    assert!(
        matches!(waited, Waited::Closed(ref result) if result.answers.as_ref().unwrap()[0].selected == ["Yes"])
    );
}

#[tokio::test]
async fn history_beyond_memory_is_read_from_the_record() {
    let home = tempfile::tempdir().unwrap();
    let store = reopen(home.path());
    let first = QuestionId::new_random();
    store.create(asked(first)).unwrap();
    store.cancel(first).unwrap();
    for _ in 0..HISTORY_IN_MEMORY {
        let question = store.create(asked(QuestionId::new_random())).unwrap();
        store.cancel(question.question().id).unwrap();
    }
    assert!(
        !store.state().entries.contains_key(&first),
        "evicted from memory"
    );
    assert_eq!(store.get(first).unwrap().status, Status::Cancelled);
    let everything = store.export();
    assert_eq!(everything.len(), HISTORY_IN_MEMORY + 1);
    assert_eq!(everything.last().unwrap().id, first);
    // Re-submitting an evicted id finds it rather than asking again.
    assert!(matches!(
        store.create(asked(first)).unwrap(),
        Created::Existing(_)
    ));
}
