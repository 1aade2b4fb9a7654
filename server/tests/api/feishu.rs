//! Feishu/Lark against a stand-in (`fake_feishu`) on 127.0.0.1 speaking its Open Platform and
//! the long connection's protobuf frames, with the real daemon and a real MCP client: setup
//! checks the App ID and App Secret and says which is wrong, pairing by `pair <code>` in a
//! direct message, a question as a card answered by a tap, the card updated to its outcome
//! without controls, a multi-select form, the person's own words, Skip with a note, strangers
//! changing nothing, events in pieces and sent twice, pings naming their service, the
//! connection coming back after a drop, closing elsewhere, `tell` and replies, and the
//! credentials kept out of the config, the API, the export and the log.

use crate::api::fake_feishu::{
    APP_ID, APP_SECRET, BOTLESS_APP_ID, FakeFeishu, ME, SERVICE, STRANGER, Sent, button,
    has_controls, text_of,
};
use crate::api::support::{Daemon, pick};
use crate::api::telegram::world_of;
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A daemon logging into `log` whose Feishu points at `fake`.
fn daemon(fake: &FakeFeishu, log: &std::path::Path) -> Daemon {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        serde_json::to_vec(
            &json!({"channels": {"feishu": {"apiBase": fake.base}}, "remindSecs": 0}),
        )
        .unwrap(),
    )
    .unwrap();
    Daemon::start_logging(home, &[], log)
}

async fn report(daemon: &Daemon) -> Value {
    let channels: Value = daemon.get("/api/channels").await.json().await.unwrap();
    channels["feishu"].clone()
}

/// The app's report once its connection is open (polled, bounded).
async fn connected(daemon: &Daemon) -> Value {
    for _ in 0..200 {
        let feishu = report(daemon).await;
        if feishu["connected"] == true {
            return feishu;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "Feishu's long connection did not open: {}",
        report(daemon).await
    );
}

/// Sets the app up with the right credentials and pairs the person.
async fn set_up_and_pair(fake: &FakeFeishu, daemon: &Daemon) {
    let response = daemon
        .post(
            "/api/feishu/setup",
            &json!({"appId": APP_ID, "appSecret": APP_SECRET}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let set_up: Value = response.json().await.unwrap();
    let code = set_up["pairing"]["code"].as_str().unwrap().to_string();
    fake.wait_link(1).await;
    let pairing = fake.dm(ME, &format!("pair {code}"), None);
    assert_eq!(fake.wait_ack(&pairing).await, r#"{"code":200}"#);
    fake.wait_sent(0, |sent| {
        sent.to == ME && text_of(&sent.content).contains("Paired")
    })
    .await;
}

/// The card sent for the question whose text contains `text`.
async fn card_for(fake: &FakeFeishu, text: &str) -> Sent {
    let sent = fake
        .wait_sent(0, |sent| {
            sent.kind == "interactive" && text_of(&sent.content).contains(text)
        })
        .await;
    assert!(has_controls(&sent.content), "{}", sent.content);
    sent
}

async fn loop_status(daemon: &Daemon, id: &str, status: &str) -> Value {
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

/// A text sent to `to` that contains `words`, the `nth` such.
async fn said_to(fake: &FakeFeishu, to: &str, nth: usize, words: &str) -> Sent {
    fake.wait_sent(nth, |sent| {
        sent.to == to && sent.kind == "text" && text_of(&sent.content).contains(words)
    })
    .await
}

#[tokio::test]
async fn setup_checks_the_app_pairs_by_code_and_a_tap_answers_the_agent() {
    let fake = FakeFeishu::start().await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("daemon.log");
    let daemon = daemon(&fake, &log);
    let refused = [
        (
            json!({"appId": "a1b2c3", "appSecret": APP_SECRET}),
            400,
            "appId",
        ),
        (
            json!({"appId": "cli_0000000000000000", "appSecret": APP_SECRET}),
            422,
            "appId",
        ),
        (
            json!({"appId": APP_ID, "appSecret": "wrong-secret"}),
            422,
            "appSecret",
        ),
        (
            json!({"appId": BOTLESS_APP_ID, "appSecret": APP_SECRET}),
            422,
            "appId",
        ),
        (
            json!({"appId": APP_ID, "appSecret": APP_SECRET, "apiBase": "open.feishu.cn"}),
            400,
            "apiBase",
        ),
        (json!({}), 400, "appId"),
    ];
    for (body, status, field) in refused {
        let response = daemon.post("/api/feishu/setup", &body).await;
        assert_eq!(response.status(), status, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["field"], field, "{body}: {error}");
    }
    // Feishu unreachable: said so, and nothing is saved.
    fake.set_down(true);
    let response = daemon
        .post(
            "/api/feishu/setup",
            &json!({"appId": APP_ID, "appSecret": APP_SECRET}),
        )
        .await;
    assert_eq!(response.status(), 502);
    let error: Value = response.json().await.unwrap();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("could not be checked"),
        "{error}"
    );
    fake.set_down(false);
    assert_eq!(report(&daemon).await["token"], false);

    set_up_and_pair(&fake, &daemon).await;
    let feishu = connected(&daemon).await;
    assert_eq!(feishu["paired"], true);
    assert_eq!(feishu["bot"], "Hark");
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["feishu"]["openId"], ME);
    assert_eq!(config["channels"]["feishu"]["enabled"], true);

    // An agent asks through a real MCP client; the person taps.
    let world = world_of(&daemon);
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"title": "Release", "questions": [{"question": "Deploy now?", "options": [
            {"label": "Yes", "recommended": true}, {"label": "No", "danger": true}]}]}),
    )
    .await;
    let card = card_for(&fake, "Deploy now?").await;
    assert_eq!(card.to, ME);
    assert_eq!(card.content["schema"], "2.0");
    assert_eq!(card.content["config"]["update_multi"], true);
    let yes = button(&card.content, "Yes");
    assert_eq!(yes["type"], "primary");
    assert!(yes["text"]["content"].as_str().unwrap().contains('⭐'));
    assert_eq!(button(&card.content, "No")["type"], "danger");
    // Someone else's tap changes nothing: events are taken in order, so had the stranger's
    // "No" counted, the agent would get "No".
    let strangers = fake.tap(STRANGER, &card.id, &button(&card.content, "No"), None);
    fake.wait_ack(&strangers).await;
    let mine = fake.tap(ME, &card.id, &yes, None);
    fake.wait_ack(&mine).await;
    let result = finish(call).await;
    assert_eq!(crate::api::world::text_of(&result), "Yes");
    let updated = fake.wait_update(&card.id, |card| !has_controls(card)).await;
    assert!(text_of(&updated).contains("Yes"), "{updated}");
    assert_eq!(updated["header"]["template"], "green");
    let questions: Value = daemon.get("/api/questions").await.json().await.unwrap();
    assert_eq!(questions["questions"][0]["answeredVia"], "feishu");

    // The App Secret and the tenant token are in secrets.json and the calls that need them
    // only.
    for leak in [
        daemon.get("/api/config").await.text().await.unwrap(),
        daemon.get("/api/channels").await.text().await.unwrap(),
        daemon.get("/api/export").await.text().await.unwrap(),
        std::fs::read_to_string(&log).unwrap_or_default(),
        std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap(),
        fake.all_calls(),
    ] {
        assert!(!leak.contains(APP_SECRET));
        // The long connection's one-time address is a credential too.
        assert!(!leak.contains("access_key=") && !leak.contains("ticket=tk"));
        assert!(!leak.contains("t-g1044qeGEDXTB6NDJOGV4JQCYDGHRBARFTGT1234"));
    }
    let secrets = std::fs::read_to_string(daemon.home.path().join("secrets.json")).unwrap();
    assert!(secrets.contains(APP_SECRET) && secrets.contains(APP_ID));
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn a_multi_select_form_own_words_and_skip_with_a_note_walk_a_question() {
    let fake = FakeFeishu::start().await;
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
    let id = asked["id"].as_str().unwrap().to_string();
    let card = card_for(&fake, "Which checks?").await;
    assert_eq!(
        text_of(&card.content)
            .matches("multi_select_static")
            .count(),
        1
    );
    let send = button(&card.content, "Send");
    assert_eq!(send["form_action_type"], "submit");
    // Send with nothing ticked is refused, said in the direct messages.
    fake.tap(
        ME,
        &card.id,
        &send,
        Some(json!({"ticked": [], "words": ""})),
    );
    said_to(&fake, ME, 0, "Tick at least one").await;
    // The form, sent in two pieces: Lint and Docs.
    let form = json!({"ticked": ["0", "2"], "words": ""});
    let mut action = json!({"value": send["behaviors"][0]["value"], "tag": "button",
                            "name": send["name"], "form_value": form});
    action["timezone"] = json!("Asia/Shanghai");
    fake.event_as(
        "mid_pieces",
        "card.action.trigger",
        json!({"operator": {"open_id": ME}, "token": "c-1", "action": action, "host": "im_message",
               "context": {"open_message_id": card.id, "open_chat_id": "oc_hark"}}),
        2,
    );
    let second = fake
        .wait_update(&card.id, |card| text_of(card).contains("Anything else?"))
        .await;
    assert!(text_of(&second).contains("Lint"), "{second}");
    // The second step in the person's own words, in its form.
    let send = button(&second, "Send");
    fake.tap(
        ME,
        &card.id,
        &send,
        Some(json!({"words": "  ship it after lunch "})),
    );
    let answered = loop_status(&daemon, &id, "answered").await;
    assert_eq!(answered["answers"][0]["selected"], json!(["Lint", "Docs"]));
    assert_eq!(answered["answers"][1]["freeText"], "ship it after lunch");
    fake.wait_update(&card.id, |card| {
        !has_controls(card) && text_of(card).contains("ship it")
    })
    .await;

    // Skip shows the note's form; its note goes with the decline.
    let skipped = daemon
        .ask(&json!({"questions": [{"question": "Rename the crate?", "options": [{"label": "Yes"}]}]}))
        .await;
    let skipped_id = skipped["id"].as_str().unwrap().to_string();
    let card = card_for(&fake, "Rename the crate?").await;
    fake.tap(ME, &card.id, &button(&card.content, "Skip"), None);
    let note_form = fake
        .wait_update(&card.id, |card| text_of(card).contains("\"note\""))
        .await;
    let skip = button(&note_form, "Skip");
    fake.tap(ME, &card.id, &skip, Some(json!({"note": "not now"})));
    let declined = loop_status(&daemon, &skipped_id, "declined").await;
    assert_eq!(declined["note"], "not now");
    assert_eq!(declined["answeredVia"], "feishu");
    let closed = fake
        .wait_update(&card.id, |card| text_of(card).contains("not now"))
        .await;
    assert!(!has_controls(&closed));
    assert_eq!(closed["header"]["template"], "grey");
}

#[tokio::test]
async fn the_connection_comes_back_and_a_question_closed_elsewhere_loses_its_controls() {
    let fake = FakeFeishu::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    connected(&daemon).await;
    // Pings name the service the address gave (PingInterval is 1 s here).
    for _ in 0..100 {
        if !fake.pings().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pings = fake.pings();
    assert!(!pings.is_empty() && pings.iter().all(|service| *service == SERVICE));
    // The connection drops without a word: Hark asks for a new address and opens another.
    let links = fake.links();
    fake.drop_link();
    fake.wait_link(links + 1).await;
    connected(&daemon).await;

    let asked = daemon.ask(&json!({"questions": [{"question": "Merge?", "options": [{"label": "Yes"}, {"label": "No"}]}],
                                   "source": {"client": "claude-code 2.1.3", "cwd": "/w/hark"}})).await;
    let id = asked["id"].as_str().unwrap().to_string();
    let card = card_for(&fake, "Merge?").await;
    daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("No"))
        .await;
    let updated = fake.wait_update(&card.id, |card| !has_controls(card)).await;
    assert!(text_of(&updated).contains("No"), "{updated}");
    // A late tap on the old card is refused in words; the answer stands.
    fake.tap(ME, &card.id, &button(&card.content, "Yes"), None);
    said_to(&fake, ME, 0, "already answered or closed").await;
    assert_eq!(
        loop_status(&daemon, &id, "answered").await["answers"][0]["selected"],
        json!(["No"])
    );

    // "tell …" leaves a message for the agent that asked; a reply to its card too. Feishu
    // sending the same event twice leaves one message.
    let tell = FakeFeishu::message_event(ME, "tell use the staging database", None);
    fake.event_as("mid_twice", "im.message.receive_v1", tell.clone(), 1);
    fake.event_as("mid_twice", "im.message.receive_v1", tell, 1);
    said_to(&fake, ME, 0, "Sent to claude-code · hark").await;
    fake.dm(ME, "and stop after the tests", Some(&card.id));
    said_to(&fake, ME, 1, "Sent to claude-code · hark").await;
    assert_eq!(fake.acks_of("mid_twice"), 2, "both deliveries acknowledged");
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    let texts: Vec<&str> = list["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["and stop after the tests", "use the staging database"]
    );
    assert!(
        list["messages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["via"] == "feishu")
    );
    // A plain word is answered with how to answer.
    fake.dm(ME, "hello?", None);
    said_to(&fake, ME, 0, "tell followed by your message").await;
    // A stranger's words are answered with a refusal, and change nothing.
    fake.dm(STRANGER, "tell delete everything", None);
    said_to(&fake, STRANGER, 0, "only the person it is paired with").await;
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    assert_eq!(list["messages"].as_array().unwrap().len(), 2);

    // hark channel test feishu, and unpair (the person hears so).
    let tested = daemon
        .post("/api/channels/test", &json!({"channel": "feishu"}))
        .await;
    assert_eq!(tested.status(), 200);
    said_to(&fake, ME, 0, "Hark can reach you here").await;
    let unpaired = daemon.post("/api/feishu/unpair", &json!({})).await;
    assert_eq!(unpaired.status(), 200);
    assert_eq!(unpaired.json::<Value>().await.unwrap()["paired"], false);
    said_to(&fake, ME, 0, "no longer paired").await;
}

#[tokio::test]
async fn after_a_restart_a_questions_card_is_updated_not_sent_again() {
    let fake = FakeFeishu::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Ship it?", "options": [{"label": "Yes"}, {"label": "No"}]}]}))
        .await;
    let id = asked["id"].as_str().unwrap().to_string();
    let card = card_for(&fake, "Ship it?").await;
    let record = daemon.home.path().join("feishu.json");
    let mut recorded = false;
    for _ in 0..200 {
        if std::fs::read_to_string(&record).is_ok_and(|text| text.contains(&card.id)) {
            recorded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(recorded, "the card is in feishu.json before the crash");
    let links = fake.links();
    let daemon = daemon.crash_and_restart();
    fake.wait_link(links + 1).await;
    fake.wait_update(&card.id, has_controls).await;
    daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    fake.wait_update(&card.id, |card| !has_controls(card)).await;
    let sent = fake
        .sent()
        .iter()
        .filter(|sent| text_of(&sent.content).contains("Ship it?"))
        .count();
    assert_eq!(sent, 1, "sent once, before the restart");
}

#[tokio::test]
async fn when_someone_else_pairs_the_questions_move_to_them() {
    let fake = FakeFeishu::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    daemon
        .ask(&json!({"questions": [{"question": "Tag the release?", "options": [{"label": "Yes"}]}]}))
        .await;
    let first = card_for(&fake, "Tag the release?").await;
    assert_eq!(first.to, ME);
    // A new code (the saved credentials kept), redeemed by someone else.
    let again: Value = daemon
        .post("/api/feishu/setup", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    let code = again["pairing"]["code"].as_str().unwrap();
    fake.dm(STRANGER, &format!("pair {code}"), None);
    said_to(&fake, ME, 0, "no longer paired").await;
    let moved = fake
        .wait_sent(0, |sent| {
            sent.to == STRANGER && text_of(&sent.content).contains("Tag the release?")
        })
        .await;
    assert!(has_controls(&moved.content));
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["feishu"]["openId"], STRANGER);
}
