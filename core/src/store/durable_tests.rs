//! A store on a real log: what callers see while writes wait for the disk. A caller that goes
//! away mid-fsync still releases the waiters; one id asked twice at once is created once; an
//! answer's images stay out of the question and come back after a restart.

use super::restart_tests::{asked, reopen as open};
use super::*;
use crate::model::Status;
use crate::model::SubQuestionAnswer;

fn yes() -> Vec<SubQuestionAnswer> {
    vec![SubQuestionAnswer {
        selected: vec!["Yes".into()],
        free_text: None,
        images: Vec::new(),
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
    let mut answering = Box::pin(store.close(id, Outcome::Answered(answers.clone()), None));
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
        store
            .close(id, Outcome::Withdrawn { note: None }, None)
            .await
            .unwrap();
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

#[tokio::test]
async fn an_answers_images_are_kept_apart_and_survive_a_restart() {
    use crate::model::AnswerImage;
    use base64::Engine;
    let png = super::images::tests::PNG;
    let encoded = base64::engine::general_purpose::STANDARD.encode(png);
    let home = tempfile::tempdir().unwrap();
    let store = open(home.path()).await;
    let id = QuestionId::new_random();
    store.create(asked(id)).await.unwrap();
    let mut events = store.subscribe();
    let answers = vec![SubQuestionAnswer {
        selected: vec!["Yes".into()],
        images: vec![
            AnswerImage {
                media_type: "image/png".into(),
                data: Some(encoded.clone()),
                size: 0,
            };
            2
        ],
        ..SubQuestionAnswer::default()
    }];
    let answered = store
        .close(id, Outcome::Answered(answers.clone()), None)
        .await
        .unwrap();
    let kept = &answered.answers.as_ref().unwrap()[0].images;
    assert_eq!(kept.len(), 2);
    assert!(
        kept.iter()
            .all(|image| image.data.is_none() && image.size == png.len() as u64)
    );
    let Event::QuestionAnswered(announced) = &*events.recv().await.unwrap() else {
        panic!("an answer event")
    };
    assert_eq!(
        announced.answers, answered.answers,
        "the event carries no bytes"
    );
    assert_eq!(store.images(id).await.len(), 2);

    drop(store);
    let reopened = open(home.path()).await;
    let mut from_disk = reopened.get(id).await.unwrap().answers.unwrap();
    reopened.fill_image_data(id, &mut from_disk).await;
    assert_eq!(
        from_disk[0].images[1].data.as_deref(),
        Some(encoded.as_str())
    );

    let refused = reopened
        .close(id, Outcome::Answered(answers.clone()), None)
        .await
        .unwrap_err();
    assert!(matches!(refused, StoreError::NotPending { .. }));
}

#[tokio::test]
async fn a_bad_image_leaves_the_question_pending() {
    use crate::model::AnswerImage;
    let home = tempfile::tempdir().unwrap();
    let store = open(home.path()).await;
    let id = QuestionId::new_random();
    store.create(asked(id)).await.unwrap();
    let answers = vec![SubQuestionAnswer {
        selected: vec!["Yes".into()],
        images: vec![AnswerImage {
            media_type: "image/gif".into(),
            data: Some("bm90IGFuIGltYWdl".into()),
            size: 0,
        }],
        ..SubQuestionAnswer::default()
    }];
    let Err(StoreError::Invalid(body)) = store
        .close(id, Outcome::Answered(answers.clone()), None)
        .await
    else {
        panic!("refused")
    };
    assert_eq!(body.field.as_deref(), Some("answers[0].images[0].data"));
    assert!(store.get(id).await.unwrap().is_pending());
    assert!(store.images(id).await.is_empty());
}
