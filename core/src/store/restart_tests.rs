//! A store reopened on the same database, as after a restart or a crash: pending questions come
//! back pending, an agent that re-attaches keeps its question, one that does not loses it after
//! `orphanSecs`, and an answer nobody collected yet is still there to collect.

use super::*;
use crate::model::{AskRequest, Status};
use crate::model::{DaemonNote, QuestionOption, Source, SubQuestion, SubQuestionAnswer};

/// A yes/no question with a client-chosen id.
pub(super) fn asked(id: QuestionId) -> AskRequest {
    AskRequest {
        id: Some(id),
        questions: vec![SubQuestion {
            options: vec![QuestionOption::new("Yes"), QuestionOption::new("No")],
            ..SubQuestion::text("Deploy now?")
        }],
        ..AskRequest::default()
    }
}

/// A store on the log in `home`, as after a (re)start.
pub(super) async fn reopen(home: &Path) -> Store {
    Store::open_persistent(home, CancellationToken::new())
        .await
        .unwrap()
        .0
}

/// A home whose agents get one second to come back after a restart. Real time: the log's
/// writer is a thread of its own, and a paused clock would jump ahead while a test waits for it.
fn home_with_short_orphan_secs() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.json"), r#"{"orphanSecs": 1}"#).unwrap();
    home
}

#[tokio::test]
async fn pending_questions_wait_for_their_agents_then_are_withdrawn() {
    let home = home_with_short_orphan_secs();
    let (kept, dropped) = (QuestionId::new_random(), QuestionId::new_random());
    {
        let store = reopen(home.path()).await;
        store.create(asked(kept)).await.unwrap();
        store.create(asked(dropped)).await.unwrap();
    }
    let store = reopen(home.path()).await;
    assert_eq!(store.pending_count(), 2, "both come back pending");
    assert!(store.get(kept).await.unwrap().is_pending());
    // The agent of `kept` re-submits it; nobody comes back for `dropped`.
    assert!(matches!(
        store.create(asked(kept)).await.unwrap(),
        Created::Existing(_)
    ));
    let mut gone = store.get(dropped).await.unwrap();
    for _ in 0..100 {
        if !gone.is_pending() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        gone = store.get(dropped).await.unwrap();
    }
    assert!(store.get(kept).await.unwrap().is_pending());
    assert_eq!(gone.status, Status::Cancelled);
    assert_eq!(gone.note.as_deref(), Some(DaemonNote::AgentWentAway.text()));
    // The withdrawal is on record too.
    drop(store);
    let again = reopen(home.path()).await;
    assert_eq!(again.get(dropped).await.unwrap().status, Status::Cancelled);
}

#[tokio::test]
async fn an_agent_that_waits_again_also_counts_as_back() {
    let home = home_with_short_orphan_secs();
    let id = QuestionId::new_random();
    reopen(home.path()).await.create(asked(id)).await.unwrap();
    let store = reopen(home.path()).await;
    let waiting = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(id, None).await })
    };
    tokio::time::sleep(Duration::from_secs(store.config().orphan_secs * 2)).await;
    assert_eq!(store.config().orphan_secs, 1);
    assert!(store.get(id).await.unwrap().is_pending());
    store
        .close(
            id,
            Outcome::Answered(
                [SubQuestionAnswer {
                    selected: vec!["No".into()],
                    free_text: None,
                    images: Vec::new(),
                }]
                .to_vec(),
            ),
            None,
        )
        .await
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
        let store = reopen(home.path()).await;
        store.create(asked(id)).await.unwrap();
        store
            .close(
                id,
                Outcome::Answered(
                    [SubQuestionAnswer {
                        selected: vec!["Yes".into()],
                        free_text: None,
                        images: Vec::new(),
                    }]
                    .to_vec(),
                ),
                None,
            )
            .await
            .unwrap();
    }
    let store = reopen(home.path()).await;
    let Created::Existing(again) = store.create(asked(id)).await.unwrap() else {
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
    let store = reopen(home.path()).await;
    let first = QuestionId::new_random();
    store.create(asked(first)).await.unwrap();
    store
        .close(first, Outcome::Withdrawn { note: None }, None)
        .await
        .unwrap();
    for _ in 0..HISTORY_IN_MEMORY {
        let question = store.create(asked(QuestionId::new_random())).await.unwrap();
        store
            .close(
                question.question().id,
                Outcome::Withdrawn { note: None },
                None,
            )
            .await
            .unwrap();
    }
    assert!(
        !store.state().entries.contains_key(&first),
        "evicted from memory"
    );
    assert_eq!(store.get(first).await.unwrap().status, Status::Cancelled);
    let mut exported = store.export().await;
    let mut everything = Vec::new();
    while let Some(question) = exported.recv().await {
        everything.push(question);
    }
    assert_eq!(everything.len(), HISTORY_IN_MEMORY + 1);
    assert_eq!(everything.last().unwrap().id, first);
    // Re-submitting an evicted id finds it rather than asking again.
    assert!(matches!(
        store.create(asked(first)).await.unwrap(),
        Created::Existing(_)
    ));
}

/// A log sink that stalls the thread writing to it for a moment on every event: it stands for
/// a thread preempted between two steps, so a decision split across them shows.
struct StallingLog;

impl tracing::Subscriber for StallingLog {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {
        std::thread::sleep(Duration::from_millis(30));
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_back_at_the_last_moment_keeps_its_question() {
    use tracing::instrument::WithSubscriber;
    // Each agent re-attaches while its question's orphan deadline is being handled. Whichever
    // comes first wins, but an agent told its question is still pending must keep it.
    let home = tempfile::tempdir().unwrap();
    let ids: Vec<QuestionId> = (0..20).map(|_| QuestionId::new_random()).collect();
    {
        let store = reopen(home.path()).await;
        for id in &ids {
            store.create(asked(*id)).await.unwrap();
        }
    }
    let store = reopen(home.path()).await;
    let races: Vec<_> = ids
        .iter()
        .map(|&id| {
            let (deadline, agent) = (store.clone(), store.clone());
            tokio::spawn(async move {
                let withdrawal = tokio::spawn(
                    async move { deadline.withdraw_orphan(id).await }.with_subscriber(StallingLog),
                );
                tokio::time::sleep(Duration::from_millis(10)).await;
                let back = agent.create(asked(id)).await.unwrap();
                withdrawal.await.unwrap();
                back
            })
        })
        .collect();
    for (race, id) in races.into_iter().zip(&ids) {
        let Created::Existing(seen) = race.await.unwrap() else {
            panic!("the question was known");
        };
        let now = store.get(*id).await.unwrap();
        if seen.is_pending() {
            assert!(
                now.is_pending(),
                "{id}: the agent was told it was pending, then it was withdrawn"
            );
        } else {
            assert_eq!(now.note.as_deref(), Some(DaemonNote::AgentWentAway.text()));
        }
    }
}

#[tokio::test]
async fn a_limit_moved_by_typing_survives_a_restart() {
    let home = tempfile::tempdir().unwrap();
    let id = QuestionId::new_random();
    let moved = {
        let store = reopen(home.path()).await;
        let request = AskRequest {
            timeout_secs: Some(5),
            ..asked(id)
        };
        store.create(request).await.unwrap();
        let moved = store.typing(id).expect("the question has a limit");
        store.close_log().await;
        moved
    };
    let store = reopen(home.path()).await;
    let question = store.get(id).await.unwrap();
    assert!(question.is_pending());
    assert_eq!(question.expires_at, Some(moved));
    assert!(
        moved - question.created_at >= chrono::Duration::seconds(50),
        "{moved}"
    );
}

#[tokio::test]
async fn an_agent_that_left_before_a_restart_takes_its_question_up_by_asking_again() {
    let home = tempfile::tempdir().unwrap();
    // No id: only the questions, their title and the asking agent's place tell them apart.
    let from = |client: &str, text: &str| AskRequest {
        id: None,
        source: Some(Source {
            client: Some(client.to_string()),
            cwd: Some("/home/me/shop".to_string()),
            pid: None,
        }),
        questions: vec![SubQuestion::text(text)],
        ..AskRequest::default()
    };
    let (left_open, left_answered) = {
        let store = reopen(home.path()).await;
        let Created::New(open) = store.create(from("codex", "Deploy now?")).await.unwrap() else {
            panic!("a new question");
        };
        let Created::New(answered) = store.create(from("codex", "Which branch?")).await.unwrap()
        else {
            panic!("a new question");
        };
        for id in [open.id, answered.id] {
            store.abandon(id).await.unwrap();
        }
        let late = vec![SubQuestionAnswer {
            free_text: Some("main".to_string()),
            ..SubQuestionAnswer::default()
        }];
        store
            .close(answered.id, Outcome::Answered(late), None)
            .await
            .unwrap();
        (open.id, answered.id)
    };
    let store = reopen(home.path()).await;
    // Another agent asking the same is asked anew.
    let other = store
        .create(from("claude-code", "Deploy now?"))
        .await
        .unwrap();
    assert!(matches!(other, Created::New(ref question) if question.id != left_open));
    let again = store.create(from("codex", "Deploy now?")).await.unwrap();
    let Created::Existing(taken_up) = again else {
        panic!("the question left before the restart is taken up: {again:?}");
    };
    assert_eq!(taken_up.id, left_open);
    assert!(taken_up.is_pending() && taken_up.abandoned_at.is_none());
    let again = store.create(from("codex", "Which branch?")).await.unwrap();
    let Created::Existing(answered) = again else {
        panic!("the question answered after its agent left is found: {again:?}");
    };
    assert_eq!(answered.id, left_answered);
    assert_eq!(answered.status, Status::Answered);
}
