//! The Telegram bot over time and against others, with the stand-in Bot API (`fake_telegram`):
//! its token kept out of every output, messages edited when a question closes elsewhere and
//! reminders, `hark telegram setup` from a shell, restarts, a stranger's guesses, and setting
//! up again to pair another chat.

use super::telegram::*;
use crate::api::fake_telegram::{ME, TOKEN, button};
use crate::api::support::{pick, yes_no};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn the_token_never_shows_in_the_config_api_export_log_or_errors() {
    let (fake, daemon, logs) = start(true).await;
    let log = logs.path().join("daemon.log");
    let asked = daemon.ask(&yes_no()).await;
    message_for(&fake, "Deploy now?").await;
    let id = asked["id"].as_str().unwrap();
    daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    fake.set_down(true);
    daemon.ask(&yes_no()).await;
    let test = daemon
        .post("/api/channels/test", &json!({"channel": "telegram"}))
        .await;
    assert_eq!(test.status(), 502);
    let failed_test = test.text().await.unwrap();
    let setup = daemon.post("/api/telegram/setup", &json!({})).await;
    assert_eq!(setup.status(), 502);
    let failed_setup = setup.text().await.unwrap();
    fake.set_down(false);
    let test = daemon
        .post("/api/channels/test", &json!({"channel": "telegram"}))
        .await;
    assert_eq!(test.status(), 200);
    fake.wait_for("sendMessage", |call| {
        text(call).contains("Hark can reach this chat")
    })
    .await;

    let config = daemon.get("/api/config").await.text().await.unwrap();
    let export = daemon.get("/api/export").await.text().await.unwrap();
    let markdown = daemon
        .get("/api/export?format=markdown")
        .await
        .text()
        .await
        .unwrap();
    let channels = daemon.get("/api/channels").await.text().await.unwrap();
    let settings = daemon.get("/settings").await.text().await.unwrap();
    let file = std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap();
    let log = std::fs::read_to_string(&log).unwrap();
    let secret = TOKEN.split_once(':').unwrap().1;
    for (name, text) in [
        ("config", &config),
        ("export", &export),
        ("markdown export", &markdown),
        ("channels", &channels),
        ("settings page", &settings),
        ("config file", &file),
        ("log", &log),
        ("failed test", &failed_test),
        ("failed setup", &failed_setup),
    ] {
        assert!(!text.contains(secret), "the token is in the {name}: {text}");
    }
    assert!(channels.contains("hark_test_bot"), "{channels}");
    assert!(
        settings.contains("@hark_test_bot"),
        "the settings name the bot"
    );
}

#[tokio::test]
async fn a_question_closed_elsewhere_is_edited_and_reminders_come_as_one_message() {
    let (fake, daemon, _logs) = start(true).await;
    let timing_out = daemon
        .ask(&json!({"questions": [{"question": "Times out soon?"}], "timeoutSecs": 1}))
        .await;
    let withdrawn = daemon
        .ask(&json!({"title": "Withdrawn one", "questions": [{"question": "Withdrawn by the agent?"}]}))
        .await;
    let timing_out_message = message_for(&fake, "Times out soon?").await;
    let withdrawn_message = message_for(&fake, "Withdrawn by the agent?").await;
    let id = withdrawn["id"].as_str().unwrap();
    let response = daemon
        .post(&format!("/api/questions/{id}/cancel"), &json!({}))
        .await;
    assert!(response.status().is_success());
    edit_of(&fake, &withdrawn_message, |call| {
        text(call).contains("Withdrawn by the agent") && call.get("reply_markup").is_none()
    })
    .await;
    edit_of(&fake, &timing_out_message, |call| {
        text(call).contains("Timed out") && call.get("reply_markup").is_none()
    })
    .await;
    assert_eq!(
        timing_out["id"].as_str().map(str::len),
        Some(36),
        "a real question"
    );

    // Two questions waiting and reminders every second: one message names both.
    daemon
        .ask(&json!({"title": "First <one>", "questions": [{"question": "A?"}]}))
        .await;
    daemon
        .ask(&json!({"questions": [{"question": "Second one?\nwith more", "header": ""}]}))
        .await;
    message_for(&fake, "A?").await;
    message_for(&fake, "Second one?").await;
    let response = daemon.put("/api/config", &json!({"remindSecs": 1})).await;
    assert!(response.status().is_success());
    let reminder = fake
        .wait_for("sendMessage", |call| {
            text(call).contains("2 questions are still waiting")
        })
        .await;
    assert!(
        text(&reminder).contains("• First &lt;one&gt;"),
        "{reminder}"
    );
    assert!(text(&reminder).contains("• Second one?"), "{reminder}");
    assert!(reminder.get("reply_markup").is_none());
}

#[tokio::test]
async fn hark_telegram_setup_reads_the_token_from_stdin_and_waits_for_the_chat() {
    use std::process::Stdio;
    use tokio::io::AsyncWriteExt;
    let (fake, daemon, _logs) = start(false).await;
    let world = world_of(&daemon);

    // A wrong token: a clear error naming the field, exit 1.
    let mut wrong = world.command(&["telegram", "setup", "--bot-token", "not-a-token"]);
    let output = wrong.output().await.unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("botToken does not look like a bot token"),
        "{stderr}"
    );

    let mut setup = world.command(&["telegram", "setup"]);
    let mut child = setup
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{TOKEN}\n").as_bytes())
        .await
        .unwrap();
    drop(stdin);
    // The code it prints reaches the bot from the person's chat.
    let mut code = None;
    for _ in 0..200 {
        let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
        if let Some(found) = report["telegram"]["pairing"]["code"].as_str() {
            code = Some(found.to_string());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let code = code.expect("a pairing code");
    fake.say(ME, "private", &format!("/start {code}"), None);
    let output = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("setup ends once paired")
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("@hark_test_bot"), "{stdout}");
    assert!(stdout.contains(&format!("/start {code}")), "{stdout}");
    assert!(stdout.contains("Paired."), "{stdout}");
    assert!(!stdout.contains(TOKEN));

    let output = world
        .command(&["channel", "test", "telegram"])
        .output()
        .await
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    fake.wait_for("sendMessage", |call| {
        text(call).contains("Hark can reach this chat")
    })
    .await;
    let output = world.command(&["status"]).output().await.unwrap();
    let status = String::from_utf8_lossy(&output.stdout);
    assert!(
        status.contains("telegram: bot @hark_test_bot, a chat is paired"),
        "{status}"
    );

    let output = world
        .command(&["telegram", "unpair"])
        .output()
        .await
        .unwrap();
    assert!(output.status.success());
    let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
    assert_eq!(report["telegram"]["paired"], false);
}

#[tokio::test]
async fn after_a_restart_the_bot_edits_what_it_sent_instead_of_sending_it_again() {
    let (fake, daemon, _logs) = start(true).await;
    let asked = daemon.ask(&yes_no()).await;
    let message = message_for(&fake, "Deploy now?").await;
    let record = daemon.home.path().join("telegram.json");
    for _ in 0..100 {
        let kept: Value = std::fs::read(&record)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        if kept["messages"][asked["id"].as_str().unwrap()] == message["message_id"] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let daemon = daemon.crash_and_restart();
    // The same message gets its buttons again, by an edit.
    edit_of(&fake, &message, |call| {
        call["reply_markup"]["inline_keyboard"].is_array() && text(call).contains("Deploy now?")
    })
    .await;
    let id = asked["id"].as_str().unwrap();
    let response = daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    assert_eq!(response.status(), 200);
    edit_of(&fake, &message, |call| text(call).contains("Answered: Yes")).await;
    let sends = fake
        .calls("sendMessage")
        .into_iter()
        .filter(|call| text(call).contains("Deploy now?"))
        .count();
    assert_eq!(sends, 1, "sent once, across the restart");
}

#[tokio::test]
async fn a_strangers_guesses_and_an_old_prompt_change_nothing() {
    let (fake, daemon, _logs) = start(false).await;
    let report: Value = daemon
        .post("/api/telegram/setup", &json!({"botToken": TOKEN}))
        .await
        .json()
        .await
        .unwrap();
    let code = report["pairing"]["code"].as_str().unwrap().to_string();
    // A stranger guesses ten times: it hears at most five refusals, and the code survives.
    for guess in 0..10 {
        fake.say(
            STRANGER,
            "private",
            &format!("/start WRONG{guess:05}"),
            None,
        );
    }
    fake.say(ME, "private", &format!("/start {code}"), None);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == ME && text(call).starts_with("Paired.")
    })
    .await;
    let refusals = fake
        .calls("sendMessage")
        .into_iter()
        .filter(|call| call["chat_id"] == STRANGER)
        .count();
    assert_eq!(
        refusals, 5,
        "a stranger is answered at most 5 times in 10 minutes"
    );

    // Skip asks why, Back returns: a reply to that old prompt is refused, not taken as an
    // answer or a note.
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Rename the branch?", "options": [{"label": "Yes"}]}]}))
        .await;
    let id = asked["id"].as_str().unwrap();
    let message = message_for(&fake, "Rename the branch?").await;
    let message_id = message["message_id"].as_i64().unwrap();
    fake.tap(ME, message_id, &button(&message, "Skip"));
    let prompt = fake
        .wait_for("sendMessage", |call| {
            call["reply_markup"]["force_reply"] == true && text(call).contains("Rename the branch?")
        })
        .await;
    let asking = edit_of(&fake, &message, |call| text(call).contains("Why skip?")).await;
    fake.tap(ME, message_id, &button(&asking, "Back"));
    edit_of(&fake, &message, |call| {
        !text(call).contains("Why skip?") && call["reply_markup"]["inline_keyboard"].is_array()
    })
    .await;
    fake.say(
        ME,
        "private",
        "old words",
        Some(prompt["message_id"].as_i64().unwrap()),
    );
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == ME && text(call).contains("out of date")
    })
    .await;
    let question: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "pending");
}

#[tokio::test]
async fn setting_up_again_pairs_the_new_chat_that_sends_the_new_code() {
    let (fake, daemon, _logs) = start(true).await;
    const NEW_CHAT: i64 = 7_000_002;
    let report: Value = daemon
        .post("/api/telegram/setup", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report["paired"], true);
    let pairings = report["pairings"].as_u64().unwrap();
    let code = report["pairing"]["code"].as_str().unwrap().to_string();
    // A stranger's five wrong guesses, and the right code from a group, a supergroup and a
    // channel: each refused, and none of it costs the new chat its code.
    for guess in 0..5 {
        fake.say(
            STRANGER,
            "private",
            &format!("/start WRONG{guess:05}"),
            None,
        );
    }
    for (group, kind) in [
        (-100_123, "group"),
        (-100_456, "supergroup"),
        (-100_789, "channel"),
    ] {
        fake.say(group, kind, &format!("/start {code}"), None);
        let refused = fake
            .wait_for("sendMessage", |call| call["chat_id"] == group)
            .await;
        assert!(text(&refused).contains("private chat"), "{refused}");
    }
    fake.say(NEW_CHAT, "private", &format!("/start {code}"), None);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == NEW_CHAT && text(call).starts_with("Paired.")
    })
    .await;
    // The chat before hears it is no longer paired; the new one is, and counts.
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == ME && text(call).contains("no longer paired")
    })
    .await;
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["telegram"]["chatId"], NEW_CHAT);
    let channels: Value = daemon.get("/api/channels").await.json().await.unwrap();
    assert_eq!(channels["telegram"]["pairings"], pairings + 1);
    // Questions now go to the new chat.
    daemon.ask(&yes_no()).await;
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == NEW_CHAT && text(call).contains("Deploy now?")
    })
    .await;
}
