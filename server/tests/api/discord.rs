//! Discord against a stand-in (`fake_discord`) on 127.0.0.1 speaking its REST API and its
//! Gateway, with the real daemon and a real MCP client: setup checks the token and says so when
//! it is wrong, the Gateway is identified with the one intent needed and heartbeats are sent,
//! pairing by `pair <code>` in a direct message, a question with buttons answered by a click and
//! the message edited to its outcome without components, a select menu and Send, "Other…" and
//! Skip in a modal, strangers changing nothing, the session resumed after a drop and a
//! Reconnect, `tell` and replies, and the token kept out of the config, the API, the export and
//! the log.

use crate::api::fake_discord::{
    BOT, FakeDiscord, ME, STRANGER, TOKEN, button, has_components, menu,
};
use crate::api::support::{Daemon, pick};
use crate::api::telegram::world_of;
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

fn daemon(fake: &FakeDiscord, log: &std::path::Path) -> Daemon {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        serde_json::to_vec(
            &json!({"channels": {"discord": {"apiBase": fake.base}}, "remindSecs": 0}),
        )
        .unwrap(),
    )
    .unwrap();
    Daemon::start_logging(home, &[], log)
}

async fn report(daemon: &Daemon) -> Value {
    let channels: Value = daemon.get("/api/channels").await.json().await.unwrap();
    channels["discord"].clone()
}

async fn connected(daemon: &Daemon) -> Value {
    for _ in 0..200 {
        let discord = report(daemon).await;
        if discord["connected"] == true {
            return discord;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "Discord's Gateway did not connect: {}",
        report(daemon).await
    );
}

async fn set_up_and_pair(fake: &FakeDiscord, daemon: &Daemon) {
    let response = daemon
        .post("/api/discord/setup", &json!({"botToken": TOKEN}))
        .await;
    assert_eq!(response.status(), 200);
    let set_up: Value = response.json().await.unwrap();
    let code = set_up["pairing"]["code"].as_str().unwrap().to_string();
    connected(daemon).await;
    fake.dm(ME, &format!("pair {code}"), None);
    fake.wait_for(FakeDiscord::messages, |message| {
        message["path"] == format!("/channels/7{ME}/messages")
            && message["content"]
                .as_str()
                .unwrap_or_default()
                .contains("Paired")
    })
    .await;
}

async fn message_for(fake: &FakeDiscord, text: &str) -> Value {
    fake.wait_for(FakeDiscord::messages, |message| {
        message["content"]
            .as_str()
            .unwrap_or_default()
            .contains(text)
            && has_components(message)
    })
    .await
}

async fn edit_of(fake: &FakeDiscord, message: &Value, matches: impl Fn(&Value) -> bool) -> Value {
    let path = format!(
        "{}/{}",
        message["path"].as_str().unwrap(),
        message["id"].as_str().unwrap()
    );
    fake.wait_for(FakeDiscord::edits, |edit| {
        edit["path"] == path && matches(edit)
    })
    .await
}

async fn status_of(daemon: &Daemon, id: &str, status: &str) -> Value {
    for _ in 0..200 {
        let question: Value = daemon
            .get(&format!("/api/questions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if question["status"] == status {
            return question;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{id} did not become {status}");
}

#[tokio::test]
async fn setup_identifies_pairs_and_a_click_answers_the_agent() {
    let fake = FakeDiscord::start().await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("daemon.log");
    let daemon = daemon(&fake, &log);
    for (body, status) in [
        (json!({"botToken": "xoxb-not-discord"}), 400),
        (
            json!({"botToken": "MTIz.GhIj.wrong-token-for-this-test-0123456789abcdefghij"}),
            422,
        ),
        (json!({}), 400),
    ] {
        let response = daemon.post("/api/discord/setup", &body).await;
        assert_eq!(response.status(), status, "{body}");
        assert_eq!(response.json::<Value>().await.unwrap()["field"], "botToken");
    }

    set_up_and_pair(&fake, &daemon).await;
    let identify = fake.wait_sent(2, 1).await.remove(0);
    assert_eq!(identify["d"]["intents"], 4096);
    assert_eq!(identify["d"]["token"], TOKEN);
    // Heartbeats go out (the stand-in's interval is half a second) and are acknowledged.
    fake.wait_sent(1, 2).await;
    let discord = report(&daemon).await;
    assert_eq!(discord["paired"], true);
    assert_eq!(discord["bot"], "hark");
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["discord"]["userId"], ME);

    let world = world_of(&daemon);
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"questions": [{"question": "Deploy now?", "options": [
            {"label": "Yes", "recommended": true}, {"label": "No", "danger": true}]}]}),
    )
    .await;
    let message = message_for(&fake, "Deploy now?").await;
    assert_eq!(message["path"], format!("/channels/7{ME}/messages"));
    assert_eq!(message["allowed_mentions"]["parse"], json!([]));
    assert_eq!(button(&message, "Yes")["style"], 1);
    assert_eq!(button(&message, "No")["style"], 4);
    let id = message["id"].as_str().unwrap().to_string();
    // A stranger's click is answered privately and changes nothing (clicks are taken in order:
    // had the stranger's "No" counted, the agent would get "No").
    let strangers = fake.click(STRANGER, &id, &button(&message, "No"));
    let refused = fake.callback_of(&strangers).await;
    assert_eq!(refused["type"], 4);
    assert_eq!(refused["data"]["flags"], 64);
    let mine = fake.click(ME, &id, &button(&message, "Yes"));
    assert_eq!(fake.callback_of(&mine).await["type"], 6);
    let result = finish(call).await;
    assert_eq!(text_of(&result), "Yes");
    let edited = edit_of(&fake, &message, |edit| !has_components(edit)).await;
    assert!(
        edited["content"].as_str().unwrap().contains("Yes"),
        "{edited}"
    );
    let questions: Value = daemon.get("/api/questions").await.json().await.unwrap();
    assert_eq!(questions["questions"][0]["answeredVia"], "discord");

    for leak in [
        daemon.get("/api/config").await.text().await.unwrap(),
        daemon.get("/api/channels").await.text().await.unwrap(),
        daemon.get("/api/export").await.text().await.unwrap(),
        std::fs::read_to_string(&log).unwrap_or_default(),
        std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap(),
        fake.all_calls(),
    ] {
        assert!(!leak.contains(TOKEN));
    }
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn a_menu_and_send_other_and_skip_walk_a_question_in_discord() {
    let fake = FakeDiscord::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let asked = daemon
        .ask(&json!({"questions": [
            {"question": "Which checks?", "multiSelect": true,
             "options": [{"label": "Lint"}, {"label": "Tests"}, {"label": "Docs"}]},
            {"question": "Anything else?", "options": [{"label": "No"}]}
        ]}))
        .await;
    let question = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Which checks?").await;
    let id = message["id"].as_str().unwrap().to_string();
    let choice = menu(&message);
    assert_eq!(choice["max_values"], 3);
    // Send with nothing chosen is refused, privately.
    let early = fake.click(ME, &id, &button(&message, "Send"));
    let refused = fake.callback_of(&early).await;
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("Tick at least one")
    );
    let chosen = fake.choose(ME, &id, &choice, &["0", "2"]);
    assert_eq!(fake.callback_of(&chosen).await["type"], 6);
    let ticked = edit_of(&fake, &message, |edit| {
        edit.to_string().contains("\"default\":true")
    })
    .await;
    fake.click(ME, &id, &button(&ticked, "Send"));
    let second = edit_of(&fake, &message, |edit| {
        edit["content"]
            .as_str()
            .unwrap_or_default()
            .contains("Anything else?")
    })
    .await;
    let other = fake.click(ME, &id, &button(&second, "Other"));
    let modal = fake.callback_of(&other).await;
    assert_eq!(modal["type"], 9);
    assert!(modal["data"]["title"].as_str().unwrap().chars().count() <= 45);
    let submitted = fake.submit(ME, &id, "ship it after lunch");
    assert_eq!(fake.callback_of(&submitted).await["type"], 6);
    let answered = status_of(&daemon, &question, "answered").await;
    assert_eq!(answered["answers"][0]["selected"], json!(["Lint", "Docs"]));
    assert_eq!(answered["answers"][1]["freeText"], "ship it after lunch");

    let skipped = daemon
        .ask(&json!({"questions": [{"question": "Rename the crate?", "options": [{"label": "Yes"}]}]}))
        .await;
    let skipped_id = skipped["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Rename the crate?").await;
    let id = message["id"].as_str().unwrap().to_string();
    let skip = fake.click(ME, &id, &button(&message, "Skip"));
    assert_eq!(fake.callback_of(&skip).await["type"], 9);
    fake.submit(ME, &id, "not now");
    let declined = status_of(&daemon, &skipped_id, "declined").await;
    assert_eq!(declined["note"], "not now");
    assert_eq!(declined["answeredVia"], "discord");
    edit_of(&fake, &message, |edit| {
        edit["content"]
            .as_str()
            .unwrap_or_default()
            .contains("Skipped: not now")
    })
    .await;
}

#[tokio::test]
async fn the_session_resumes_after_a_drop_and_a_reconnect_and_tell_reaches_the_agent() {
    let fake = FakeDiscord::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let links = fake.links();
    fake.drop_link();
    let resumed = fake.wait_sent(6, 1).await.remove(0);
    assert_eq!(resumed["d"]["session_id"], "session-1");
    assert!(resumed["d"]["seq"].as_u64().unwrap() >= 2, "{resumed}");
    assert_eq!(resumed["d"]["token"], TOKEN);
    fake.reconnect();
    fake.wait_sent(6, 2).await;
    assert!(fake.links() >= links + 2);
    assert_eq!(fake.sent(2).len(), 1, "resumed, never identified again");
    connected(&daemon).await;

    let asked = daemon
        .ask(&json!({"questions": [{"question": "Merge?", "options": [{"label": "Yes"}, {"label": "No"}]}],
                     "source": {"client": "claude-code 2.1.3", "cwd": "/w/hark"}}))
        .await;
    let question = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Merge?").await;
    daemon
        .post(&format!("/api/questions/{question}/answer"), &pick("No"))
        .await;
    edit_of(&fake, &message, |edit| !has_components(edit)).await;
    let id = message["id"].as_str().unwrap().to_string();
    let late = fake.click(ME, &id, &button(&message, "Yes"));
    let refused = fake.callback_of(&late).await;
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("already answered or closed")
    );

    // Delivered three times by the Gateway (the same id): taken once.
    fake.dm_delivered(ME, "/tell use the staging database", None, 3);
    fake.wait_for(FakeDiscord::messages, |m| {
        m["content"]
            .as_str()
            .unwrap_or_default()
            .contains("Sent to claude\\-code · hark")
    })
    .await;
    fake.dm(ME, "and stop after the tests", Some(&id));
    let list = loop_messages(&daemon, 2).await;
    let texts: Vec<&str> = list.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        ["and stop after the tests", "use the staging database"]
    );
    assert!(
        list.iter()
            .all(|m| m["via"] == "discord" && m["to"]["client"] == "claude-code")
    );
    fake.dm(STRANGER, "tell delete everything", None);
    fake.wait_for(FakeDiscord::messages, |m| {
        m["path"] == format!("/channels/7{STRANGER}/messages")
            && m["content"].as_str().unwrap_or_default().contains("only")
    })
    .await;
    assert_eq!(loop_messages(&daemon, 2).await.len(), 2);
    // The bot's own messages are not the person's.
    fake.dm(BOT, "tell echo", None);

    let tested = daemon
        .post("/api/channels/test", &json!({"channel": "discord"}))
        .await;
    assert_eq!(tested.status(), 200);
    let unpaired = daemon.post("/api/discord/unpair", &json!({})).await;
    assert_eq!(unpaired.json::<Value>().await.unwrap()["paired"], false);
    assert_eq!(loop_messages(&daemon, 2).await.len(), 2);
}

async fn loop_messages(daemon: &Daemon, count: usize) -> Vec<Value> {
    for _ in 0..200 {
        let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
        let messages = list["messages"].as_array().unwrap().clone();
        if messages.len() >= count {
            return messages;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("fewer than {count} messages for agents");
}
