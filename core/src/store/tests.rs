//! Store behaviour: idempotent create, first answer wins, every waiter released, timeouts on a
//! paused clock, events in order, the pending cap and the bounded history.

use super::*;
use crate::model::{AskRequest, Status};
use crate::model::{QuestionOption, SubQuestion, SubQuestionAnswer};

fn open() -> Store {
    Store::open(None, CancellationToken::new()).0
}

fn yes_no() -> AskRequest {
    AskRequest {
        questions: vec![SubQuestion {
            options: vec![QuestionOption::new("Yes"), QuestionOption::new("No")],
            ..SubQuestion::text("Deploy now?")
        }],
        ..AskRequest::default()
    }
}

fn pick(label: &str) -> Vec<SubQuestionAnswer> {
    vec![SubQuestionAnswer {
        selected: vec![label.to_string()],
        free_text: None,
        images: Vec::new(),
    }]
}

async fn new_question(store: &Store, request: AskRequest) -> Question {
    match store.create(request).await.unwrap() {
        Created::New(question) => question,
        Created::Existing(_) => panic!("expected a new question"),
    }
}

#[tokio::test]
async fn create_with_a_known_id_returns_the_existing_question() {
    let store = open();
    let id = QuestionId::new_random();
    let first = new_question(
        &store,
        AskRequest {
            id: Some(id),
            ..yes_no()
        },
    )
    .await;
    assert_eq!(first.id, id);
    let again = store
        .create(AskRequest {
            id: Some(id),
            ..yes_no()
        })
        .await
        .unwrap();
    assert!(matches!(again, Created::Existing(ref q) if q == &first));
    assert_eq!(store.pending_count(), 1);
}

#[tokio::test]
async fn first_answer_wins_and_later_ones_are_refused() {
    let store = open();
    let question = new_question(&store, yes_no()).await;
    let answered = store
        .close(question.id, Outcome::Answered(pick("Yes").to_vec()), None)
        .await
        .unwrap();
    assert_eq!(answered.status, Status::Answered);
    assert!(answered.closed_at.is_some());
    let late = store
        .close(question.id, Outcome::Answered(pick("No").to_vec()), None)
        .await
        .unwrap_err();
    assert!(matches!(
        late,
        StoreError::NotPending {
            status: Status::Answered,
            ..
        }
    ));
    assert!(matches!(
        store
            .close(question.id, Outcome::Declined { note: None }, None)
            .await,
        Err(StoreError::NotPending { .. })
    ));
    assert!(matches!(
        store
            .close(question.id, Outcome::Withdrawn { note: None }, None)
            .await,
        Err(StoreError::NotPending { .. })
    ));
    assert_eq!(
        store.get(question.id).await.unwrap().answers,
        Some(pick("Yes"))
    );
}

#[tokio::test]
async fn invalid_answer_leaves_the_question_pending() {
    let store = open();
    let question = new_question(&store, yes_no()).await;
    let error = store
        .close(question.id, Outcome::Answered(Vec::new()), None)
        .await
        .unwrap_err();
    assert!(
        matches!(error, StoreError::Invalid(ref body) if body.field.as_deref() == Some("answers"))
    );
    assert!(store.get(question.id).await.unwrap().is_pending());
    assert!(
        store
            .close(question.id, Outcome::Answered(pick("No").to_vec()), None)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn unknown_ids_are_not_found() {
    let store = open();
    let id = QuestionId::new_random();
    assert!(matches!(
        store
            .close(id, Outcome::Answered(pick("Yes").to_vec()), None)
            .await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.wait(id, None).await,
        Err(StoreError::NotFound(_))
    ));
}

#[tokio::test]
async fn every_concurrent_waiter_is_released() {
    let store = open();
    let question = new_question(&store, yes_no()).await;
    let waiters: Vec<_> = (0..3)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.wait(question.id, None).await })
        })
        .collect();
    tokio::task::yield_now().await;
    store
        .close(question.id, Outcome::Answered(pick("No").to_vec()), None)
        .await
        .unwrap();
    for waiter in waiters {
        let Waited::Closed(result) = waiter.await.unwrap().unwrap() else {
            panic!("waiter not released");
        };
        assert_eq!(result.status, Status::Answered);
        assert_eq!(result.answers, Some(pick("No")));
    }
}

#[tokio::test]
async fn waiting_on_a_closed_question_returns_at_once() {
    let store = open();
    let question = new_question(&store, yes_no()).await;
    store
        .close(
            question.id,
            Outcome::Declined {
                note: Some("not now".into()),
            },
            None,
        )
        .await
        .unwrap();
    let waited = store
        .wait(question.id, Some(Duration::from_secs(1)))
        .await
        .unwrap();
    assert_eq!(
        waited,
        Waited::Closed(WaitResult {
            status: Status::Declined,
            answers: None,
            note: Some("not now".into()),
            messages: Vec::new(),
        })
    );
}

#[tokio::test(start_paused = true)]
async fn a_wait_with_a_limit_ends_still_pending() {
    let store = open();
    let question = new_question(&store, yes_no()).await;
    let waited = store
        .wait(question.id, Some(Duration::from_secs(30)))
        .await
        .unwrap();
    assert_eq!(waited, Waited::StillPending);
    assert!(store.get(question.id).await.unwrap().is_pending());
}

#[tokio::test(start_paused = true)]
async fn a_question_times_out_at_its_deadline() {
    let store = open();
    let question = new_question(
        &store,
        AskRequest {
            timeout_secs: Some(90),
            ..yes_no()
        },
    )
    .await;
    assert!(question.expires_at.is_some());
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(question.id, None).await })
    };
    tokio::time::sleep(Duration::from_secs(89)).await;
    assert!(store.get(question.id).await.unwrap().is_pending());
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        store.get(question.id).await.unwrap().status,
        Status::Timeout
    );
    let Waited::Closed(result) = waiter.await.unwrap().unwrap() else {
        panic!("waiter not released by the timeout");
    };
    assert_eq!(result.status, Status::Timeout);
}

#[tokio::test(start_paused = true)]
async fn the_config_timeout_applies_when_the_request_has_none() {
    let store = open();
    store
        .update_config(&serde_json::json!({"timeoutSecs": 10}))
        .await
        .unwrap();
    let question = new_question(&store, yes_no()).await;
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(
        store.get(question.id).await.unwrap().status,
        Status::Timeout
    );
    let answered_first = new_question(&store, yes_no()).await;
    store
        .close(
            answered_first.id,
            Outcome::Answered(pick("Yes").to_vec()),
            None,
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(
        store.get(answered_first.id).await.unwrap().status,
        Status::Answered
    );
}

#[tokio::test]
async fn shutdown_releases_waiters() {
    let shutdown = CancellationToken::new();
    let (store, _) = Store::open(None, shutdown.clone());
    let question = new_question(&store, yes_no()).await;
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(question.id, None).await })
    };
    shutdown.cancel();
    assert!(matches!(
        waiter.await.unwrap(),
        Err(StoreError::ShuttingDown)
    ));
}

#[tokio::test]
async fn one_event_per_change_in_order() {
    let store = open();
    let mut events = store.subscribe();
    let first = new_question(&store, yes_no()).await;
    let second = new_question(&store, yes_no()).await;
    let third = new_question(&store, yes_no()).await;
    store
        .close(first.id, Outcome::Answered(pick("Yes").to_vec()), None)
        .await
        .unwrap();
    store
        .close(second.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();
    store
        .close(third.id, Outcome::Withdrawn { note: None }, None)
        .await
        .unwrap();
    store
        .update_config(&serde_json::json!({"sound": false}))
        .await
        .unwrap();
    let mut names = Vec::new();
    while let Ok(event) = events.try_recv() {
        names.push(match (*event).clone() {
            Event::QuestionCreated(q) => format!(
                "created {}",
                q.id == first.id || q.id == second.id || q.id == third.id
            ),
            Event::QuestionAnswered(q) => format!("answered {}", q.status.as_str()),
            Event::QuestionClosed(q) => format!("closed {}", q.status.as_str()),
            Event::ConfigUpdated(c) => format!("config {}", c.sound),
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        names,
        [
            "created true",
            "created true",
            "created true",
            "answered answered",
            "closed declined",
            "closed cancelled",
            "config false"
        ]
    );
}

#[tokio::test]
async fn pending_is_capped() {
    let store = open();
    for _ in 0..limits::MAX_PENDING {
        new_question(&store, yes_no()).await;
    }
    assert!(matches!(
        store.create(yes_no()).await,
        Err(StoreError::TooManyPending)
    ));
    let some = store.list(Some(Status::Pending), Some(1)).await.remove(0);
    store
        .close(some.id, Outcome::Withdrawn { note: None }, None)
        .await
        .unwrap();
    assert!(store.create(yes_no()).await.is_ok());
}

#[tokio::test]
async fn closed_history_is_bounded() {
    let store = open();
    let first = new_question(&store, yes_no()).await;
    store
        .close(first.id, Outcome::Withdrawn { note: None }, None)
        .await
        .unwrap();
    for _ in 0..HISTORY_IN_MEMORY {
        let question = new_question(&store, yes_no()).await;
        store
            .close(question.id, Outcome::Withdrawn { note: None }, None)
            .await
            .unwrap();
    }
    assert!(store.get(first.id).await.is_none());
    assert_eq!(store.list(None, None).await.len(), HISTORY_IN_MEMORY);
}

#[tokio::test]
async fn list_is_newest_first_and_filters() {
    let store = open();
    let older = new_question(&store, yes_no()).await;
    let newer = new_question(&store, yes_no()).await;
    store
        .close(older.id, Outcome::Answered(pick("Yes").to_vec()), None)
        .await
        .unwrap();
    let all = store.list(None, None).await;
    assert_eq!(all[0].id, newer.id);
    assert_eq!(all[1].id, older.id);
    assert_eq!(
        store.list(Some(Status::Answered), None).await[0].id,
        older.id
    );
    assert_eq!(store.list(None, Some(1)).await.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn reminders_batch_pending_questions_per_tick() {
    let store = open();
    store
        .update_config(&serde_json::json!({"remindSecs": 30}))
        .await
        .unwrap();
    let mut events = store.subscribe();
    let question = new_question(&store, yes_no()).await;
    store.spawn_reminders();
    // Paused time advances instantly while every task waits, and chrono's wall clock does not;
    // so the question is "old enough" only through real elapsed time. Backdate it instead.
    {
        let mut state = store.state();
        let entry = state.entries.get_mut(&question.id).unwrap();
        entry.question.created_at -= chrono::Duration::seconds(60);
    }
    tokio::time::sleep(Duration::from_secs(31)).await;
    let mut reminded = None;
    while let Ok(event) = events.try_recv() {
        if let Event::QuestionRemind(data) = &*event {
            reminded = Some(data.ids.clone());
        }
    }
    assert_eq!(reminded, Some(vec![question.id]));
}

#[test]
fn browser_clients_are_counted_while_connected() {
    let store = open();
    let first = store.browser_connected();
    let second = store.browser_connected();
    assert_eq!(store.browser_clients(), 2);
    drop(first);
    drop(second);
    assert_eq!(store.browser_clients(), 0);
}

#[tokio::test(start_paused = true)]
async fn hundreds_of_questions_cost_one_timer_and_one_remind_batch_per_tick() {
    let store = open();
    store
        .update_config(&serde_json::json!({"remindSecs": 30}))
        .await
        .unwrap();
    let before = tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks();
    let mut ids = Vec::new();
    for _ in 0..300 {
        let request = AskRequest {
            timeout_secs: Some(3_600),
            ..yes_no()
        };
        ids.push(new_question(&store, request).await.id);
    }
    let mut events = store.subscribe();
    store.spawn_reminders();
    {
        let mut state = store.state();
        for id in &ids {
            state.entries.get_mut(id).unwrap().question.created_at -= chrono::Duration::seconds(60);
        }
    }
    let alive = tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
        - before;
    assert!(
        alive <= 2,
        "one deadline scheduler and one reminder ticker, not {alive} tasks"
    );
    tokio::time::sleep(Duration::from_secs(95)).await;
    let mut batches = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let Event::QuestionRemind(data) = &*event {
            batches.push(data.ids.len());
        }
    }
    assert_eq!(
        batches,
        [300, 300, 300],
        "one batch per tick, naming every question"
    );
}

/// A single or multiple choice whose options are `(label, recommended, danger)`.
fn choice(multi_select: bool, options: &[(&str, bool, bool)]) -> SubQuestion {
    SubQuestion {
        multi_select,
        options: options
            .iter()
            .map(|(label, recommended, danger)| QuestionOption {
                recommended: *recommended,
                danger: *danger,
                ..QuestionOption::new(*label)
            })
            .collect(),
        ..SubQuestion::text("Which?")
    }
}

#[tokio::test]
async fn a_time_limit_may_answer_with_the_recommended_option_but_never_a_dangerous_one() {
    use crate::model::{DaemonNote, TimeoutAction};
    let store = open();
    let ask = |questions: Vec<SubQuestion>, action: Option<TimeoutAction>| AskRequest {
        questions,
        timeout_action: action,
        ..AskRequest::default()
    };
    let recommended = Some(TimeoutAction::Recommended);
    let cases: Vec<(AskRequest, Option<Vec<Vec<&str>>>)> = vec![
        (
            ask(
                vec![choice(
                    false,
                    &[("Ship", true, false), ("Wait", false, false)],
                )],
                recommended,
            ),
            Some(vec![vec!["Ship"]]),
        ),
        (
            ask(
                vec![
                    choice(false, &[("Ship", true, false), ("Wait", false, false)]),
                    choice(
                        true,
                        &[
                            ("Docs", true, false),
                            ("Tests", true, false),
                            ("Bench", false, false),
                        ],
                    ),
                ],
                recommended,
            ),
            Some(vec![vec!["Ship"], vec!["Docs", "Tests"]]),
        ),
        // The recommended option is dangerous: never chosen for the person.
        (
            ask(
                vec![choice(
                    false,
                    &[("Drop the table", true, true), ("Keep it", false, false)],
                )],
                recommended,
            ),
            None,
        ),
        // One question without a recommendation: the whole request times out.
        (
            ask(
                vec![
                    choice(false, &[("Ship", true, false)]),
                    choice(false, &[("A", false, false), ("B", false, false)]),
                ],
                recommended,
            ),
            None,
        ),
        (ask(vec![SubQuestion::text("Name it?")], recommended), None),
        // The default is to time out.
        (
            ask(vec![choice(false, &[("Ship", true, false)])], None),
            None,
        ),
    ];
    for (request, expected) in cases {
        let question = new_question(&store, request).await;
        store.expire(question.id).await;
        let closed = store.get(question.id).await.unwrap();
        match expected {
            Some(labels) => {
                assert_eq!(closed.status, Status::Answered, "{closed:?}");
                let picked: Vec<Vec<&str>> = closed
                    .answers
                    .iter()
                    .flatten()
                    .map(|answer| answer.selected.iter().map(String::as_str).collect())
                    .collect();
                assert_eq!(picked, labels);
                assert_eq!(
                    closed.note.as_deref(),
                    Some(DaemonNote::ChosenByTimeout.text())
                );
            }
            None => {
                assert_eq!(closed.status, Status::Timeout, "{closed:?}");
                assert!(closed.answers.is_none());
            }
        }
    }
    // The config's choice applies to requests that do not say.
    store
        .update_config(&serde_json::json!({"timeoutAction": "recommended"}))
        .await
        .unwrap();
    let question = new_question(
        &store,
        ask(vec![choice(false, &[("Ship", true, false)])], None),
    )
    .await;
    store.expire(question.id).await;
    assert_eq!(
        store.get(question.id).await.unwrap().status,
        Status::Answered
    );
    let error = store
        .update_config(&serde_json::json!({"timeoutAction": "guess"}))
        .await
        .unwrap_err();
    assert!(
        matches!(error, StoreError::Invalid(body) if body.field.as_deref() == Some("timeoutAction"))
    );
}
