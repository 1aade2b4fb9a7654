//! The record of posted messages across a restart: a second engine over the same store and
//! `HARK_HOME` (the first one's service gone for good, so it changes nothing more).

use super::fake::*;
use hark_core::model::Status;
use hark_core::store::Outcome;
use std::sync::atomic::Ordering;

#[tokio::test(start_paused = true)]
async fn after_a_restart_messages_are_updated_not_posted_again_unless_they_are_gone() {
    let home = tempfile::tempdir().unwrap();
    let first = World::paired(Some(home.path())).await;
    let kept = first.ask("Kept?", &["Yes"]).await;
    let deleted = first.ask("Deleted?", &["Yes"]).await;
    let (_, kept_message) = first.service.posted("pending Kept?").await;
    let (_, deleted_message) = first.service.posted("pending Deleted?").await;
    // The record is written after the posts.
    first.say(ME, "hello", None).await;
    first.service.posted("Use the buttons").await;
    first.service.down.store(true, Ordering::SeqCst);

    let second = World::restarted(first.relay.store.clone(), home.path()).await;
    second
        .service
        .gone
        .lock()
        .unwrap()
        .insert(deleted_message.clone());
    second
        .service
        .wait(
            "the kept message updated",
            |call| matches!(call, Call::Update { id, .. } if *id == kept_message),
        )
        .await;
    second.service.posted("pending Deleted?").await;
    assert_eq!(
        second.service.posts_of("Kept?"),
        0,
        "{:#?}",
        second.service.calls()
    );
    assert_eq!(first.status_of(kept.id).await, Status::Pending);
    assert_eq!(first.status_of(deleted.id).await, Status::Pending);
}

#[tokio::test(start_paused = true)]
async fn a_question_closed_while_the_daemon_was_down_shows_its_outcome_after_the_restart() {
    let home = tempfile::tempdir().unwrap();
    let first = World::paired(Some(home.path())).await;
    let question = first.ask("Deploy now?", &["Yes", "No"]).await;
    let (_, message) = first.service.posted("pending Deploy now?").await;
    // The record is written after the post.
    first.say(ME, "hello", None).await;
    first.service.posted("Use the buttons").await;
    first.service.down.store(true, Ordering::SeqCst);
    first
        .relay
        .store
        .close(question.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();

    let second = World::restarted(first.relay.store.clone(), home.path()).await;
    second
        .service
        .wait("the outcome on the old message", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.contains("Declined"))
        })
        .await;
    assert_eq!(second.service.posts_of("Deploy now?"), 0);
}
