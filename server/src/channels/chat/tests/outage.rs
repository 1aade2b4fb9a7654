//! A service that goes away: the pause schedule, and what goes out once it is back.

use super::fake::*;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[tokio::test(start_paused = true)]
async fn an_outage_is_tried_again_on_the_pause_schedule_then_everything_goes_out_in_order() {
    let world = World::paired(None).await;
    world.service.down.store(true, Ordering::SeqCst);
    world.ask("First?", &["Yes"]).await;
    world.ask("Second?", &["Yes"]).await;
    // Let a few pauses pass (the paused clock jumps), then the service comes back.
    tokio::time::sleep(Duration::from_secs(20)).await;
    world.service.down.store(false, Ordering::SeqCst);
    world.service.posted("Second?").await;
    let posts: Vec<String> = world
        .service
        .calls()
        .into_iter()
        .filter_map(|call| match call {
            Call::Post { view, .. } => Some(view),
            _ => None,
        })
        .collect();
    assert!(
        posts[0].contains("First?") && posts[1].contains("Second?"),
        "{posts:?}"
    );
    // The engine opens the conversation before it posts: its tries while down failed there,
    // so the posting attempts are the ones after the service came back.
    let status = &world.relay.report().channels[0];
    assert!(status.failures >= 4, "{status:?}");
    assert_eq!(
        status.last_error.as_deref(),
        Some("Slack could not be reached: the fake service is down")
    );
    assert!(status.sent >= 1);
}

#[tokio::test(start_paused = true)]
async fn the_pauses_between_tries_double_up_to_thirty_seconds() {
    let world = World::paired(None).await;
    world.ask("First?", &["Yes"]).await;
    world.service.posted("First?").await;
    world.service.down.store(true, Ordering::SeqCst);
    world.service.attempts.lock().unwrap().clear();
    // A reply to post while down.
    world.say(ME, "hello", None).await;
    tokio::time::sleep(Duration::from_secs(120)).await;
    let attempts = world.service.attempts.lock().unwrap().clone();
    let pauses: Vec<u64> = attempts
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).as_secs())
        .collect();
    assert_eq!(pauses[..6], [1, 2, 4, 8, 16, 30], "{pauses:?}");
    world.service.down.store(false, Ordering::SeqCst);
    world.service.posted("Use the buttons").await;
}

#[tokio::test(start_paused = true)]
async fn reminders_during_an_outage_do_not_pile_up() {
    let world = World::paired(None).await;
    let question = world.ask("Deploy now?", &["Yes"]).await;
    world.service.posted("pending Deploy now?").await;
    world.service.down.store(true, Ordering::SeqCst);
    let remind = std::sync::Arc::new(hark_core::model::Event::QuestionRemind(
        hark_core::model::RemindData {
            ids: vec![question.id],
        },
    ));
    for _ in 0..5 {
        world
            .channel
            .handle(&world.relay, &remind, &world.relay.store.config());
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
    // A reminder that could not go out is not kept: the next one, once it is back, goes out.
    world.service.down.store(false, Ordering::SeqCst);
    world
        .channel
        .handle(&world.relay, &remind, &world.relay.store.config());
    world.service.posted("reminder of 1").await;
    world.say(ME, "hello", None).await;
    world.service.posted("Use the buttons").await;
    assert_eq!(world.service.posts_of("reminder"), 1);
}
