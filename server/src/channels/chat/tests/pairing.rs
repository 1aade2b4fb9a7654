//! Pairing, re-pairing and strangers.

use super::fake::*;
use crate::channels::walk::Tap;
use hark_core::model::Status;
use serde_json::json;

#[tokio::test(start_paused = true)]
async fn pairing_takes_the_right_code_once_and_strangers_hear_only_a_few_refusals() {
    let world = World::start(
        None,
        json!({"channels": {"slack": {"enabled": true}}, "remindSecs": 0}),
    )
    .await;
    let code = world.pairing_code().await;
    world.say(ME, "pair WRONGCODE", None).await;
    world.service.posted("That code is not right").await;
    world.say(ME, &format!("pair {code}"), None).await;
    let (to, _) = world.service.posted("Paired").await;
    assert_eq!(to, format!("D-{ME}"));
    let person = world
        .relay
        .store
        .read_config(|config| config.channels.slack.user_id.clone());
    assert_eq!(person.as_deref(), Some(ME));
    // Used once: the same code again is wrong.
    world.say(OTHER, &format!("pair {code}"), None).await;
    world
        .service
        .wait("the refusal of a used code", |call| {
            matches!(call, Call::Post { to, view, .. }
                if *to == format!("D-{OTHER}") && view.contains("That code is not right"))
        })
        .await;

    world.say(STRANGER, "hello?", None).await;
    world.service.posted("Sorry, this Slack bot").await;
    for _ in 0..7 {
        world.say(STRANGER, "hello?", None).await;
    }
    // The person's hint comes after every reply to the strangers was posted, in order.
    world.say(ME, "hello", None).await;
    world.service.posted("Use the buttons").await;
    let to_stranger = world
        .service
        .calls()
        .iter()
        .filter(|call| matches!(call, Call::Post { to, .. } if *to == format!("D-{STRANGER}")))
        .count();
    assert_eq!(to_stranger, 5, "at most five replies to a stranger");
    assert_eq!(world.relay.report().channels[0].failures, 0);
}

#[tokio::test(start_paused = true)]
async fn someone_else_pairing_tells_the_one_before_and_moves_the_questions() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes", "No"]).await;
    let (to, _) = world.service.posted("pending Deploy now?").await;
    assert_eq!(to, format!("D-{ME}"));
    let code = world.pairing_code().await;
    world.say(OTHER, &format!("pair {code}"), None).await;
    let (told, _) = world.service.posted("no longer paired").await;
    assert_eq!(told, format!("D-{ME}"));
    world.service.posted("Paired").await;
    world
        .service
        .wait("the question in the new chat", |call| {
            matches!(call, Call::Post { to, view, .. }
                if *to == format!("D-{OTHER}") && view.contains("Deploy now?"))
        })
        .await;
    // The one before can no longer answer; the new person can.
    world.deliver(tap(ME, &question, 0, Tap::Pick(1), 7)).await;
    world
        .service
        .wait("the stranger's refusal", |call| {
            matches!(call, Call::Respond { to: 7, response } if response.starts_with("stranger"))
        })
        .await;
    world
        .deliver(tap(OTHER, &question, 0, Tap::Pick(0), 8))
        .await;
    world
        .service
        .wait("the outcome", |call| {
            matches!(call, Call::Update { view, .. } if view.starts_with("closed Deploy now?"))
        })
        .await;
    assert_eq!(world.status_of(question.id).await, Status::Answered);
    let answered = world.relay.store.get(question.id).await.unwrap();
    assert_eq!(answered.answers.unwrap()[0].selected, ["Yes"]);
}
