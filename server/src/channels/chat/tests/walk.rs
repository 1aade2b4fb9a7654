//! Steps of the walk into the store, a question closed elsewhere, reminders and `tell`.

use super::fake::*;
use crate::channels::chat::Inbound;
use crate::channels::walk::{Awaiting, Tap};
use hark_core::model::Status;
use hark_core::store::Outcome;
use std::sync::Arc;

#[tokio::test(start_paused = true)]
async fn a_walk_goes_into_the_store_and_a_question_closed_elsewhere_refuses_later_taps() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Deploy now?").await;
    // "Other…" opens a window for the person's words, which answer.
    world.deliver(tap(ME, &question, 0, Tap::OwnWords, 1)).await;
    world
        .service
        .wait(
            "the window",
            |call| matches!(call, Call::Respond { to: 1, response } if response == "ask OwnWords"),
        )
        .await;
    world
        .deliver(Inbound::Words {
            from: ME.into(),
            id: question.id,
            step: 0,
            awaiting: Awaiting::OwnWords,
            text: "tomorrow".into(),
            responder: 2,
        })
        .await;
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.starts_with("closed"))
        })
        .await;
    let answered = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(
        answered.answers.unwrap()[0].free_text.as_deref(),
        Some("tomorrow")
    );

    // Closed on the page: the message shows it, and a tap says it is closed.
    let second = world.ask("Ship it?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Ship it?").await;
    world
        .relay
        .store
        .close(second.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.contains("Declined"))
        })
        .await;
    world.deliver(tap(ME, &second, 0, Tap::Pick(0), 0)).await;
    world.service.posted("already answered or closed").await;
    assert_eq!(world.status_of(second.id).await, Status::Declined);
}

#[tokio::test(start_paused = true)]
async fn reminders_and_tell_reach_the_person_and_the_agent() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (_, message) = world.service.posted("pending Deploy now?").await;
    // The store's reminder, as the relay hands it on.
    let remind = Arc::new(hark_core::model::Event::QuestionRemind(
        hark_core::model::RemindData {
            ids: vec![question.id],
        },
    ));
    world
        .channel
        .handle(&world.relay, &remind, &world.relay.store.config());
    world.service.posted("reminder of 1").await;

    world.say(ME, "tell use the staging database", None).await;
    world.service.posted("Sent to claude-code").await;
    world.say(ME, "and be quick", Some(&message)).await;
    world
        .service
        .wait("the second confirmation", |call| {
            matches!(call, Call::Post { view, .. } if view.contains("Sent to"))
                && world.service.posts_of("Sent to") == 2
        })
        .await;
    let mut texts: Vec<String> = world
        .relay
        .store
        .messages()
        .into_iter()
        .map(|message| message.text)
        .collect();
    texts.sort();
    assert_eq!(texts, ["and be quick", "use the staging database"]);
    // A reply to a closed question's message still reaches its agent.
    world
        .relay
        .store
        .close(question.id, Outcome::Declined { note: None }, None)
        .await
        .unwrap();
    world
        .service
        .wait(
            "the outcome",
            |call| matches!(call, Call::Update { view, .. } if view.contains("Declined")),
        )
        .await;
    world.say(ME, "never mind", Some(&message)).await;
    world
        .service
        .wait("the third confirmation", |_| {
            world.service.posts_of("Sent to") == 3
        })
        .await;
}

#[tokio::test(start_paused = true)]
async fn a_reply_reaches_the_agent_of_the_question_replied_to_not_the_last_asker() {
    let world = World::paired(None).await;
    world.ask_from("claude-code", "Deploy now?", &["Yes"]).await;
    let (_, first) = world.service.posted("pending Deploy now?").await;
    world.ask_from("codex", "Merge?", &["Yes"]).await;
    world.service.posted("pending Merge?").await;
    world
        .say(ME, "use the staging database", Some(&first))
        .await;
    world.service.posted("Sent to claude-code").await;
    world.say(ME, "tell stop after the tests", None).await;
    world.service.posted("Sent to codex").await;
    let mut to: Vec<String> = world
        .relay
        .store
        .messages()
        .into_iter()
        .map(|message| message.to.client)
        .collect();
    to.sort();
    assert_eq!(to, ["claude-code", "codex"]);
}

#[tokio::test(start_paused = true)]
async fn a_message_delivered_twice_is_taken_once() {
    let world = World::paired(None).await;
    world.ask("Deploy now?", &["Yes"]).await;
    world.service.posted("pending Deploy now?").await;
    for _ in 0..2 {
        world
            .deliver(Inbound::Said(crate::channels::chat::Said {
                id: Some("delivered-twice".into()),
                from: ME.into(),
                at: format!("D-{ME}"),
                text: "tell once".into(),
                replying_to: None,
                private: true,
                written: None,
            }))
            .await;
    }
    // A later message's hint comes after whatever the two deliveries did.
    world.say(ME, "hello", None).await;
    world.service.posted("Use the buttons").await;
    assert_eq!(world.relay.store.messages().len(), 1);
    assert_eq!(world.service.posts_of("Sent to"), 1);
}
