//! Words that answer, as in Telegram (`ChatApp::WORDS_ANSWER`): "Other…" sends a prompt, a
//! reply to it answers while it is current, words go to the question waiting for them, a reply
//! to a closed question reaches its agent, and only `/tell` tells.

use super::fake::*;
use crate::channels::walk::Tap;
use hark_core::model::Status;
use serde_json::json;

async fn world() -> World {
    World::with_words(
        json!({"channels": {"slack": {"enabled": true, "userId": ME}}, "remindSecs": 0}),
    )
    .await
}

#[tokio::test(start_paused = true)]
async fn a_reply_to_the_prompt_answers_while_it_is_current() {
    let world = world().await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    world.service.posted("pending Deploy now?").await;
    world.deliver(tap(ME, &question, 0, Tap::OwnWords, 1)).await;
    world
        .service
        .wait(
            "the prompt",
            |call| matches!(call, Call::Respond { to: 1, response } if response == "ask OwnWords"),
        )
        .await;
    // Back to the buttons: the prompt is out of date, and its reply is refused.
    world.deliver(tap(ME, &question, 0, Tap::Back, 2)).await;
    world
        .service
        .wait("Back taken", |call| {
            matches!(call, Call::Respond { to: 2, .. })
        })
        .await;
    world.say(ME, "after the backup", Some("prompt-0")).await;
    world.service.posted("out of date").await;
    assert_eq!(world.status_of(question.id).await, Status::Pending);

    world.deliver(tap(ME, &question, 0, Tap::OwnWords, 3)).await;
    world
        .service
        .wait("the prompt again", |call| {
            matches!(call, Call::Respond { to: 3, .. })
        })
        .await;
    world.say(ME, "after the backup", Some("prompt-0")).await;
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { view, .. } if view.starts_with("closed Deploy now?"))
        })
        .await;
    let answered = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(
        answered.answers.unwrap()[0].free_text.as_deref(),
        Some("after the backup")
    );
}

#[tokio::test(start_paused = true)]
async fn words_go_to_the_waiting_question_and_a_reply_to_a_closed_one_reaches_its_agent() {
    let world = world().await;
    let question = world.ask("Rotate the keys?", &["Yes"]).await;
    let (_, message) = world.service.posted("pending Rotate the keys?").await;
    world.deliver(tap(ME, &question, 0, Tap::Skip, 1)).await;
    world
        .service
        .wait("the prompt", |call| {
            matches!(call, Call::Respond { to: 1, .. })
        })
        .await;
    // Without replying to anything: the words go to the question that asked for them.
    world.say(ME, "not today", None).await;
    world
        .service
        .wait(
            "the outcome",
            |call| matches!(call, Call::Update { view, .. } if view.contains("Declined")),
        )
        .await;
    let declined = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(declined.note.as_deref(), Some("not today"));

    // A bare "tell" is words like any other (nothing waits for them now); `/tell` tells.
    world.say(ME, "tell them hi", None).await;
    world.service.posted("Use the buttons").await;
    assert!(world.relay.store.messages().is_empty());
    world.say(ME, "thanks, leave them", Some(&message)).await;
    world.service.posted("Sent to claude-code").await;
    world.say(ME, "/tell use staging", None).await;
    world
        .service
        .wait("the second confirmation", |_| {
            world.service.posts_of("Sent to") == 2
        })
        .await;
    assert_eq!(world.relay.store.messages().len(), 2);
}
