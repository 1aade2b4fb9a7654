//! The Telegram bot against a stand-in Bot API (`fake_telegram`) on 127.0.0.1, with the real
//! daemon and real MCP clients: pairing, answering by taps and replies, edits when a question
//! closes elsewhere, the first answer winning, Telegram being down, and the token kept secret.

use crate::api::fake_telegram::{FakeTelegram, ME, TOKEN, button, buttons};
use crate::api::support::{Daemon, pick, yes_no};
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A stranger's private chat.
pub(super) const STRANGER: i64 = 7_000_666;

/// A daemon logging at `info` whose config points the bot at `fake`; `paired` writes the token
/// and the chat as setup would have.
pub(super) fn daemon(fake: &FakeTelegram, paired: bool, log: &std::path::Path) -> Daemon {
    let home = tempfile::tempdir().unwrap();
    let telegram = if paired {
        json!({"enabled": true, "apiBase": fake.base, "chatId": ME})
    } else {
        json!({"apiBase": fake.base})
    };
    std::fs::write(
        home.path().join("config.json"),
        serde_json::to_vec(&json!({"channels": {"telegram": telegram}, "remindSecs": 0})).unwrap(),
    )
    .unwrap();
    if paired {
        std::fs::write(
            home.path().join("secrets.json"),
            serde_json::to_vec(&json!({"telegramToken": TOKEN, "telegramApiBase": fake.base}))
                .unwrap(),
        )
        .unwrap();
    }
    Daemon::start_logging(home, &[], log)
}

/// The stand-in Bot API and a daemon pointed at it, logging into the returned folder's
/// `daemon.log`.
pub(super) async fn start(paired: bool) -> (FakeTelegram, Daemon, tempfile::TempDir) {
    let fake = FakeTelegram::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, paired, &logs.path().join("daemon.log"));
    (fake, daemon, logs)
}

/// A world whose shims talk to `daemon`.
pub(super) fn world_of(daemon: &Daemon) -> World {
    World {
        home: tempfile::tempdir().unwrap(),
        port: daemon.port,
        http: daemon.http.clone(),
    }
}

/// The question message the bot sent for the question whose text contains `text`.
pub(super) async fn message_for(fake: &FakeTelegram, text: &str) -> Value {
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == ME
            && call["text"].as_str().unwrap_or_default().contains(text)
            && call["reply_markup"]["inline_keyboard"].is_array()
    })
    .await
}

/// The last edit of `message` (waiting, bounded, for one that `matches`).
pub(super) async fn edit_of(
    fake: &FakeTelegram,
    message: &Value,
    matches: impl Fn(&Value) -> bool,
) -> Value {
    let id = message["message_id"].clone();
    fake.wait_for("editMessageText", |call| {
        call["message_id"] == id && matches(call)
    })
    .await
}

pub(super) fn text(call: &Value) -> &str {
    call["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn setup_checks_the_token_and_pairing_takes_the_right_code_once_from_one_private_chat() {
    let (fake, daemon, _logs) = start(false).await;

    // A token of the wrong shape, and one Telegram does not know: refused by field.
    let response = daemon
        .post("/api/telegram/setup", &json!({"botToken": "hello"}))
        .await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["field"], "botToken");
    let unknown = "4242424242:AAHsomeoneElsesTokenThatTelegramRefuses";
    let response = daemon
        .post("/api/telegram/setup", &json!({"botToken": unknown}))
        .await;
    assert_eq!(response.status(), 422);
    let body = response.text().await.unwrap();
    assert!(body.contains("botToken is not known to Telegram"), "{body}");
    assert!(!body.contains(unknown), "the token is never echoed: {body}");
    let response = daemon.post("/api/telegram/setup", &json!({})).await;
    assert_eq!(response.status(), 400, "no token saved yet");

    // The right token: saved, the bot named, a code made.
    let response = daemon
        .post("/api/telegram/setup", &json!({"botToken": TOKEN}))
        .await;
    assert_eq!(response.status(), 200);
    let report: Value = response.json().await.unwrap();
    assert_eq!(report["bot"], "hark_test_bot");
    assert_eq!(report["token"], true);
    assert_eq!(report["paired"], false);
    let code = report["pairing"]["code"].as_str().unwrap().to_string();
    assert_eq!(
        report["pairing"]["link"],
        format!("https://t.me/hark_test_bot?start={code}")
    );
    let secrets = std::fs::read_to_string(daemon.home.path().join("secrets.json")).unwrap();
    assert!(secrets.contains(TOKEN));

    // A wrong code, a group chat, a bare /start: refused politely, nothing paired.
    fake.say(STRANGER, "private", "/start WRONGWRONG", None);
    let refusal = fake
        .wait_for("sendMessage", |call| call["chat_id"] == STRANGER)
        .await;
    assert!(text(&refusal).contains("not right"), "{refusal}");
    fake.say(-100_123, "group", &format!("/start {code}"), None);
    let group = fake
        .wait_for("sendMessage", |call| call["chat_id"] == -100_123)
        .await;
    assert!(text(&group).contains("private chat"), "{group}");

    // The right code from the person's chat pairs it.
    fake.say(
        ME,
        "private",
        &format!("/start {}", code.to_lowercase()),
        None,
    );
    let paired = fake
        .wait_for("sendMessage", |call| call["chat_id"] == ME)
        .await;
    assert!(text(&paired).starts_with("Paired."), "{paired}");
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["telegram"]["chatId"], ME);
    assert_eq!(config["channels"]["telegram"]["enabled"], true);

    // Used once: a second chat sending it is refused, and can answer nothing.
    fake.say(STRANGER, "private", &format!("/start {code}"), None);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == STRANGER && text(call).contains("not right") && call != &refusal
    })
    .await;
    let asked = daemon.ask(&yes_no()).await;
    let message = message_for(&fake, "Deploy now?").await;
    let yes = button(&message, "Yes");
    let tap = fake.tap(STRANGER, message["message_id"].as_i64().unwrap(), &yes);
    let answered = fake
        .wait_for("answerCallbackQuery", |call| {
            call["callback_query_id"] == tap
        })
        .await;
    assert_eq!(answered["text"], "This bot answers only its owner.");
    fake.say(STRANGER, "private", "Yes", None);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == STRANGER && text(call).contains("answers only its owner")
    })
    .await;
    let id = asked["id"].as_str().unwrap();
    let question: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "pending");

    // A new code replaces the pairing; unpairing tells the chat and stops the messages.
    let response = daemon.post("/api/telegram/unpair", &json!({})).await;
    assert_eq!(response.status(), 200);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == ME && text(call).contains("no longer paired")
    })
    .await;
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert!(config["channels"]["telegram"].get("chatId").is_none());
}

#[tokio::test]
async fn a_tap_answers_the_agent_the_page_shows_it_and_the_message_loses_its_buttons() {
    let (fake, daemon, _logs) = start(true).await;
    let world = world_of(&daemon);
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({
            "title": "Release <b>v2</b> & co",
            "questions": [{"question": "Ship <i>it</i> to \"prod\"?", "header": "<Deploy>",
              "options": [{"label": "Yes <now>", "recommended": true}, {"label": "No & wait", "danger": true}]}]
        }),
    )
    .await;
    let message = message_for(&fake, "Ship").await;
    assert_eq!(message["parse_mode"], "HTML");
    // Every character the agent wrote is shown, never taken as markup.
    let sent = text(&message);
    for raw in ["<b>v2", "<i>it", "<Deploy>", "& co"] {
        assert!(!sent.contains(raw), "{raw} in {sent}");
    }
    assert!(
        sent.contains("Release &lt;b&gt;v2&lt;/b&gt; &amp; co"),
        "{sent}"
    );
    assert!(
        sent.contains("Ship &lt;i&gt;it&lt;/i&gt; to &quot;prod&quot;?"),
        "{sent}"
    );
    let labels: Vec<String> = buttons(&message)
        .into_iter()
        .map(|(label, _)| label)
        .collect();
    assert_eq!(labels, ["Yes <now> ⭐", "⚠️ No & wait", "Other…", "Skip"]);
    for (_, data) in buttons(&message) {
        assert!(data.len() <= 64, "{data}");
    }

    let tap = fake.tap(
        ME,
        message["message_id"].as_i64().unwrap(),
        &button(&message, "Yes"),
    );
    let result = finish(call).await;
    assert!(
        text_of(&result).contains("Yes <now>"),
        "{}",
        text_of(&result)
    );
    let answered = fake
        .wait_for("answerCallbackQuery", |call| {
            call["callback_query_id"] == tap
        })
        .await;
    assert_eq!(answered["text"], "Answer sent.");
    let id = world.pending(0).await;
    assert!(id.is_empty());
    let history: Value = daemon
        .get("/api/questions?status=answered")
        .await
        .json()
        .await
        .unwrap();
    let question = &history["questions"][0];
    assert_eq!(question["answeredVia"], "telegram");
    assert_eq!(question["answers"][0]["selected"][0], "Yes <now>");

    let edit = edit_of(&fake, &message, |call| text(call).contains("Answered")).await;
    assert!(
        edit.get("reply_markup").is_none(),
        "no buttons left: {edit}"
    );
    assert!(text(&edit).contains("Answered: Yes &lt;now&gt;"), "{edit}");

    // A second tap on the old message: already answered, nothing changes.
    let late = fake.tap(
        ME,
        message["message_id"].as_i64().unwrap(),
        &button(&message, "No"),
    );
    let answered = fake
        .wait_for("answerCallbackQuery", |call| {
            call["callback_query_id"] == late
        })
        .await;
    assert_eq!(
        answered["text"],
        "This question is already answered or closed."
    );
    assert_eq!(question["status"], "answered");
}

#[tokio::test]
async fn multi_select_other_skip_and_three_questions_are_answered_in_the_chat() {
    let (fake, daemon, _logs) = start(true).await;

    // Three sub-questions in one message: a single choice, a multi-select, then free text.
    let asked = daemon
        .ask(&json!({"questions": [
            {"question": "Which database?", "header": "DB", "options": [{"label": "Postgres"}, {"label": "SQLite"}]},
            {"question": "Which regions?", "multiSelect": true, "options": [{"label": "eu"}, {"label": "us"}, {"label": "ap"}]},
            {"question": "Anything else?"}
        ]}))
        .await;
    let id = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Which database?").await;
    let message_id = message["message_id"].as_i64().unwrap();
    assert!(text(&message).contains("Question 1 of 3"), "{message}");
    fake.tap(ME, message_id, &button(&message, "SQLite"));
    let second = edit_of(&fake, &message, |call| {
        text(call).contains("Which regions?")
    })
    .await;
    assert!(text(&second).contains("✓ <b>DB</b>: SQLite"), "{second}");
    // Send with nothing ticked is refused; ticking shows in the message.
    let empty = fake.tap(ME, message_id, &button(&second, "Send"));
    let refused = fake
        .wait_for("answerCallbackQuery", |call| {
            call["callback_query_id"] == empty
        })
        .await;
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("Tick at least one")
    );
    fake.tap(ME, message_id, &button(&second, "eu"));
    let ticked = edit_of(&fake, &message, |call| text(call).contains("Ticked: eu")).await;
    assert!(buttons(&ticked).iter().any(|(label, _)| label == "☑ eu"));
    fake.tap(ME, message_id, &button(&ticked, "ap"));
    let both = edit_of(&fake, &message, |call| {
        text(call).contains("Ticked: eu, ap")
    })
    .await;
    fake.tap(ME, message_id, &button(&both, "Send"));
    let third = edit_of(&fake, &message, |call| {
        text(call).contains("Anything else?")
    })
    .await;
    // Free text: "Answer…" asks for a reply (ForceReply); the reply answers.
    fake.tap(ME, message_id, &button(&third, "Answer"));
    let prompt = fake
        .wait_for("sendMessage", |call| {
            call["reply_markup"]["force_reply"] == true
        })
        .await;
    fake.say(
        ME,
        "private",
        "Ship on <Friday> & tell me",
        Some(prompt["message_id"].as_i64().unwrap()),
    );
    let closed = edit_of(&fake, &message, |call| text(call).contains("Answered")).await;
    assert!(closed.get("reply_markup").is_none());
    let question: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "answered");
    assert_eq!(question["answers"][0]["selected"], json!(["SQLite"]));
    assert_eq!(question["answers"][1]["selected"], json!(["eu", "ap"]));
    assert_eq!(
        question["answers"][2]["freeText"],
        "Ship on <Friday> & tell me"
    );

    // Other… on a single choice: the reply is the answer.
    let asked = daemon.ask(&yes_no()).await;
    let other_id = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Deploy now?").await;
    fake.tap(
        ME,
        message["message_id"].as_i64().unwrap(),
        &button(&message, "Other"),
    );
    let prompts = fake.calls("sendMessage").len();
    let prompt = fake
        .wait_for("sendMessage", |call| {
            call["reply_markup"]["force_reply"] == true && text(call).contains("Deploy now?")
        })
        .await;
    assert!(prompts >= 1);
    fake.say(
        ME,
        "private",
        "Only after the backup",
        Some(prompt["message_id"].as_i64().unwrap()),
    );
    edit_of(&fake, &message, |call| {
        text(call).contains("Only after the backup")
    })
    .await;
    let question: Value = daemon
        .get(&format!("/api/questions/{other_id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["answers"][0]["freeText"], "Only after the backup");

    // Skip, then a note as the reply: declined with that note.
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Rotate the keys?", "options": [{"label": "Yes"}]}]}))
        .await;
    let skip_id = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Rotate the keys?").await;
    fake.tap(
        ME,
        message["message_id"].as_i64().unwrap(),
        &button(&message, "Skip"),
    );
    let asking = edit_of(&fake, &message, |call| text(call).contains("Why skip?")).await;
    assert!(
        buttons(&asking)
            .iter()
            .any(|(label, _)| label == "Skip without a note")
    );
    // Without replying to anything: the words go to the question that asked for them.
    fake.say(ME, "private", "not today", None);
    let closed = edit_of(&fake, &message, |call| {
        text(call).contains("Skipped: not today")
    })
    .await;
    assert!(closed.get("reply_markup").is_none());
    let question: Value = daemon
        .get(&format!("/api/questions/{skip_id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "declined");
    assert_eq!(question["note"], "not today");
    assert_eq!(question["answeredVia"], "telegram");
}

#[tokio::test]
async fn the_first_answer_wins_between_the_chat_and_the_page() {
    let (fake, daemon, _logs) = start(true).await;
    for round in 0..5 {
        let asked = daemon.ask(&yes_no()).await;
        let id = asked["id"].as_str().unwrap().to_string();
        let message = fake
            .wait_for("sendMessage", |call| {
                call["text"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("Deploy now?")
                    && call["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
                        .as_str()
                        .unwrap_or_default()
                        .contains(&id.replace('-', ""))
            })
            .await;
        // The tap and the page's answer at once.
        let tap = fake.tap(
            ME,
            message["message_id"].as_i64().unwrap(),
            &button(&message, "Yes"),
        );
        let page = daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("No"))
            .await;
        let page_won = page.status() == 200;
        if !page_won {
            assert_eq!(page.status(), 409, "round {round}");
        }
        let answered = fake
            .wait_for("answerCallbackQuery", |call| {
                call["callback_query_id"] == tap
            })
            .await;
        let question: Value = daemon
            .get(&format!("/api/questions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if page_won {
            assert_eq!(
                answered["text"], "This question is already answered or closed.",
                "round {round}"
            );
            assert_eq!(question["answers"][0]["selected"][0], "No");
        } else {
            assert_eq!(answered["text"], "Answer sent.", "round {round}");
            assert_eq!(question["answers"][0]["selected"][0], "Yes");
        }
        // Either way the message ends up showing the winner, without buttons.
        let winner = if page_won { "No" } else { "Yes" };
        edit_of(&fake, &message, |call| {
            text(call).contains(&format!("Answered: {winner}"))
                && call.get("reply_markup").is_none()
        })
        .await;
    }
}

#[tokio::test]
async fn while_telegram_is_down_the_page_works_and_nothing_is_lost_or_sent_twice() {
    let (fake, daemon, _logs) = start(true).await;
    let first = daemon.ask(&yes_no()).await;
    let first_id = first["id"].as_str().unwrap().to_string();
    let first_message = message_for(&fake, "Deploy now?").await;

    fake.set_down(true);
    // Answered on the page while Telegram is down, and asked anew.
    let response = daemon
        .post(&format!("/api/questions/{first_id}/answer"), &pick("No"))
        .await;
    assert_eq!(response.status(), 200);
    let during = daemon
        .ask(&json!({"questions": [{"question": "Asked while Telegram was down", "options": [{"label": "Fine"}]}]}))
        .await;
    let answered_during = daemon
        .ask(&json!({"questions": [{"question": "Answered before it came back", "options": [{"label": "Gone"}]}]}))
        .await;
    let gone = answered_during["id"].as_str().unwrap();
    let response = daemon
        .post(&format!("/api/questions/{gone}/answer"), &pick("Gone"))
        .await;
    assert_eq!(response.status(), 200);
    // The status says Telegram is failing, without the token.
    let mut failing = Value::Null;
    for _ in 0..100 {
        let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
        if let Some(status) = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|status| status["channel"] == "telegram" && status["lastError"].is_string())
        {
            failing = status.clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        failing["lastError"].as_str().unwrap().contains("502"),
        "{failing}"
    );
    assert!(!failing.to_string().contains(TOKEN));

    fake.set_down(false);
    // Back: the edit of the first, the question asked meanwhile, once each; nothing for the
    // one that closed unseen.
    edit_of(&fake, &first_message, |call| {
        text(call).contains("Answered: No")
    })
    .await;
    let during_message = message_for(&fake, "Asked while Telegram was down").await;
    // The chat goes through its questions in the order they came: once a question asked now
    // has its message, everything owed from before has gone out (or never will).
    daemon
        .ask(&json!({"questions": [{"question": "Asked once it was back", "options": [{"label": "Ok"}]}]}))
        .await;
    message_for(&fake, "Asked once it was back").await;
    let sends = fake.calls("sendMessage");
    let count = |needle: &str| {
        sends
            .iter()
            .filter(|call| text(call).contains(needle))
            .count()
    };
    assert_eq!(count("Asked while Telegram was down"), 1);
    assert_eq!(count("Deploy now?"), 1);
    assert_eq!(count("Answered before it came back"), 0);
    // And it answers from the chat as usual.
    fake.tap(
        ME,
        during_message["message_id"].as_i64().unwrap(),
        &button(&during_message, "Fine"),
    );
    let during_id = during["id"].as_str().unwrap();
    for _ in 0..200 {
        let question: Value = daemon
            .get(&format!("/api/questions/{during_id}"))
            .await
            .json()
            .await
            .unwrap();
        if question["status"] == "answered" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let question: Value = daemon
        .get(&format!("/api/questions/{during_id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "answered");
    // Sending and polling both recovered: neither failed since it last got through.
    let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
    let statuses: Vec<&Value> = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|status| status["channel"] == "telegram")
        .collect();
    assert_eq!(statuses.len(), 2, "{statuses:?}");
    for status in statuses {
        let failed = status["lastFailureAt"].as_str().unwrap_or("");
        let sent = status["lastSentAt"].as_str().unwrap_or("");
        assert!(failed.is_empty() || sent > failed, "recovered: {status}");
    }
}

#[tokio::test]
async fn tell_leaves_a_message_for_the_agent_that_asked() {
    let (fake, daemon, _logs) = start(true).await;
    let ask_from = |client: &str, cwd: &str, question: &str| {
        json!({"questions": [{"question": question, "options": [{"label": "Yes"}, {"label": "No"}]}],
               "source": {"client": client, "cwd": cwd}})
    };
    let first = daemon
        .ask(&ask_from("claude-code 2.1.3", "/w/hark", "Deploy hark?"))
        .await;
    let first_message = message_for(&fake, "Deploy hark?").await;
    let first_id = first["id"].as_str().unwrap();
    daemon
        .post(&format!("/api/questions/{first_id}/answer"), &pick("Yes"))
        .await;
    let sent_to = |agent: &'static str| {
        move |call: &Value| {
            call["chat_id"] == ME
                && text(call).contains(&format!("Sent to {agent}."))
                && text(call).contains("next time it calls Hark")
        }
    };

    // Without a reply, /tell is for the agent that asked last.
    fake.say(ME, "private", "/tell use the staging database", None);
    fake.wait_for("sendMessage", sent_to("claude-code · hark"))
        .await;
    let listed = messages(&daemon).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        listed[0]["to"],
        json!({"client": "claude-code", "cwd": "/w/hark"})
    );
    assert_eq!(listed[0]["text"], "use the staging database");
    assert_eq!(listed[0]["via"], "telegram");
    assert_eq!(listed[0]["status"], "waiting");

    // Another agent asks since; a reply to the first (closed) question is still for its agent.
    daemon
        .ask(&ask_from("codex 0.50", "/w/other", "Merge other?"))
        .await;
    message_for(&fake, "Merge other?").await;
    fake.say(
        ME,
        "private",
        "and stop after that",
        first_message["message_id"].as_i64(),
    );
    for _ in 0..100 {
        if messages(&daemon).await.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fake.say(ME, "private", "/tell please hurry", None);
    fake.wait_for("sendMessage", sent_to("codex · other")).await;
    let listed = messages(&daemon).await;
    let texts: Vec<&str> = listed.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "please hurry",
            "and stop after that",
            "use the staging database"
        ]
    );
    assert_eq!(listed[1]["to"]["client"], "claude-code");

    // A /tell with nothing to say is explained; a stranger's changes nothing.
    fake.say(ME, "private", "/tell", None);
    fake.wait_for("sendMessage", |call| {
        text(call).contains("Write the message after /tell")
    })
    .await;
    fake.say(STRANGER, "private", "/tell delete everything", None);
    fake.wait_for("sendMessage", |call| {
        call["chat_id"] == STRANGER && text(call).contains("answers only its owner")
    })
    .await;
    assert_eq!(messages(&daemon).await.len(), 3);
}

/// The messages left for agents, newest first.
async fn messages(daemon: &Daemon) -> Vec<Value> {
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    list["messages"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_reply_in_telegram_continues_a_finished_claude_and_one_message_tells_of_each_session() {
    let (fake, daemon, _logs) = start(true).await;
    let held = daemon
        .put("/api/config", &json!({"continueWaitSecs": 120}))
        .await;
    assert_eq!(held.status(), 200);
    let world = world_of(&daemon);
    let stop = |said: &str| {
        json!({"session_id": "00893aaf", "transcript_path": "/tmp/t.jsonl",
               "cwd": "/home/me/shop", "permission_mode": "default", "hook_event_name": "Stop",
               "stop_hook_active": false, "last_assistant_message": said})
    };
    let hook =
        crate::api::hook::hook_of(&world, "claude", &stop("Deployed <b>staging</b>."), "30").await;
    let notice = fake
        .wait_for("sendMessage", |call| {
            call["chat_id"] == ME && text(call).contains("claude-code · shop finished its turn")
        })
        .await;
    assert!(
        text(&notice).contains("Deployed &lt;b&gt;staging&lt;/b&gt;."),
        "{notice}"
    );
    fake.say(
        ME,
        "private",
        "Now promote it.",
        notice["message_id"].as_i64(),
    );
    let output = crate::api::hook::printed(hook)
        .await
        .expect("the hook continues Claude");
    assert_eq!(output["decision"], "block");
    assert!(
        output["reason"]
            .as_str()
            .unwrap()
            .contains("Now promote it.")
    );

    // Its next turn ends too: the same message is edited, no second one is sent.
    let prompt = json!({"session_id": "00893aaf", "cwd": "/home/me/shop",
                        "hook_event_name": "UserPromptSubmit", "prompt": "go on"});
    assert_eq!(
        crate::api::hook::printed(crate::api::hook::hook_of(&world, "claude", &prompt, "30").await)
            .await,
        None
    );
    // (Continued by a hook already: it does not wait for a reply again.)
    let mut continued = stop("Promoted.");
    continued["stop_hook_active"] = json!(true);
    let again = crate::api::hook::hook_of(&world, "claude", &continued, "30").await;
    assert_eq!(crate::api::hook::printed(again).await, None);
    fake.wait_for("editMessageText", |call| {
        call["message_id"] == notice["message_id"] && text(call).contains("Promoted.")
    })
    .await;
    let notices = fake
        .calls("sendMessage")
        .iter()
        .filter(|call| text(call).contains("finished its turn"))
        .count();
    assert_eq!(notices, 1);
}
