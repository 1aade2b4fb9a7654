//! Agent sessions in the chat (`notices`): an agent that finishes its turn is said once in the
//! paired person's chat with what it said last, updated (not posted again) when it finishes
//! again, a reply to it tells that agent, and what `notifyOn` leaves out is not said.

use super::fake::*;
use hark_core::model::{AgentRef, SessionReport, SessionState};
use serde_json::json;

fn claude() -> AgentRef {
    AgentRef {
        client: "claude-code".into(),
        cwd: Some("/w/shop".into()),
    }
}

async fn report(world: &World, state: SessionState, said: Option<&str>) {
    world
        .relay
        .store
        .report_session(SessionReport {
            agent: claude(),
            session_id: Some("s1".into()),
            state: Some(state),
            last_message: said.map(str::to_string),
        })
        .await
        .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_finished_agent_is_said_once_updated_and_a_reply_continues_it() {
    let world = World::paired(None).await;
    // Events reach the engine once its relay listens (the app's link is up by then).
    world.service.wait_listens(1).await;
    report(&world, SessionState::Working, None).await;
    report(
        &world,
        SessionState::Finished,
        Some("The cart is refactored."),
    )
    .await;
    let (_, message) = world
        .service
        .posted("claude-code · shop finished its turn")
        .await;
    let notice = world.service.calls();
    assert!(
        notice
            .iter()
            .any(|call| matches!(call, Call::Post { view, .. }
            if view.contains("The cart is refactored.") && view.contains("Reply to this message"))),
        "{notice:#?}"
    );
    // Another turn, another end: the same message, updated.
    report(&world, SessionState::Working, None).await;
    report(
        &world,
        SessionState::Finished,
        Some("Now the wishlist too."),
    )
    .await;
    world
        .service
        .wait("the update", |call| {
            matches!(call, Call::Update { id, view } if *id == message && view.contains("wishlist"))
        })
        .await;
    assert_eq!(world.service.posts_of("finished its turn"), 1);
    // A reply to it is a message for that agent.
    world.say(ME, "Ship it.", Some(&message)).await;
    world.service.posted("Sent to claude-code · shop").await;
    let messages = world.relay.store.messages();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].to, claude());
    assert_eq!(messages[0].text, "Ship it.");
}

#[tokio::test(start_paused = true)]
async fn what_notify_on_leaves_out_is_not_said() {
    let world = World::start(
        None,
        json!({"channels": {"slack": {"enabled": true, "userId": ME}}, "remindSecs": 0,
               "notifyOn": ["waiting"]}),
    )
    .await;
    world.service.wait_listens(1).await;
    report(&world, SessionState::Finished, Some("Done.")).await;
    report(
        &world,
        SessionState::Waiting,
        Some("Claude needs your permission to use Bash"),
    )
    .await;
    world.service.posted("is waiting for you").await;
    assert_eq!(world.service.posts_of("finished its turn"), 0);
}
