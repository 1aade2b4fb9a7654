//! Slack against a stand-in (`fake_slack`) on 127.0.0.1 speaking its Web API and Socket Mode,
//! with the real daemon and a real MCP client: setup checks both tokens and says which is wrong,
//! pairing by `pair <code>` in a direct message, a question with buttons answered by a tap, the
//! message updated to its outcome without buttons, checkboxes and Send, "Other…" and Skip in a
//! modal, strangers changing nothing, the link coming back after a drop and a `disconnect`,
//! closing elsewhere, `tell`, and the tokens kept out of the config, the API, the export and the
//! log.

use crate::api::fake_slack::{
    APP_TOKEN, BOT_TOKEN, FakeSlack, ME, STRANGER, button, has_controls, text_of,
};
use crate::api::support::{Daemon, pick};
use crate::api::telegram::world_of;
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A daemon logging into `log` whose Slack points at `fake`.
fn daemon(fake: &FakeSlack, log: &std::path::Path) -> Daemon {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        serde_json::to_vec(
            &json!({"channels": {"slack": {"apiBase": fake.base}}, "remindSecs": 0}),
        )
        .unwrap(),
    )
    .unwrap();
    Daemon::start_logging(home, &[], log)
}

async fn report(daemon: &Daemon) -> Value {
    let channels: Value = daemon.get("/api/channels").await.json().await.unwrap();
    channels["slack"].clone()
}

/// The app's report once its link is open (polled, bounded).
async fn connected(daemon: &Daemon) -> Value {
    for _ in 0..200 {
        let slack = report(daemon).await;
        if slack["connected"] == true {
            return slack;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("Slack's link did not open: {}", report(daemon).await);
}

/// Sets Slack up with the right tokens and pairs the person; returns the pairing's reply.
async fn set_up_and_pair(fake: &FakeSlack, daemon: &Daemon) {
    let response = daemon
        .post(
            "/api/slack/setup",
            &json!({"botToken": BOT_TOKEN, "appToken": APP_TOKEN}),
        )
        .await;
    assert_eq!(response.status(), 200);
    let set_up: Value = response.json().await.unwrap();
    let code = set_up["pairing"]["code"].as_str().unwrap().to_string();
    fake.wait_link(1).await;
    fake.dm(ME, &format!("pair {code}"), None);
    fake.wait_call("chat.postMessage", 0, |call| {
        call["channel"] == format!("D{ME}") && text_of(call).contains("Paired")
    })
    .await;
}

/// The question message posted for the question whose text contains `text`.
async fn message_for(fake: &FakeSlack, text: &str) -> Value {
    fake.wait_call("chat.postMessage", 0, |call| {
        text_of(call).contains(text) && has_controls(call)
    })
    .await
}

/// The `nth` update of the message `ts` that `matches`.
async fn update_of(fake: &FakeSlack, ts: &str, matches: impl Fn(&Value) -> bool) -> Value {
    fake.wait_call("chat.update", 0, |call| call["ts"] == ts && matches(call))
        .await
}

#[tokio::test]
async fn setup_checks_both_tokens_pairs_by_code_and_a_tap_answers_the_agent() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("daemon.log");
    let daemon = daemon(&fake, &log);
    let refused = [
        (
            json!({"botToken": "xoxp-user-token", "appToken": APP_TOKEN}),
            400,
            "botToken",
        ),
        (
            json!({"botToken": BOT_TOKEN, "appToken": "xoxb-not-app"}),
            400,
            "appToken",
        ),
        (
            json!({"botToken": "xoxb-wrong", "appToken": APP_TOKEN}),
            422,
            "botToken",
        ),
        (
            json!({"botToken": BOT_TOKEN, "appToken": "xapp-wrong"}),
            422,
            "appToken",
        ),
        (json!({}), 400, "botToken"),
    ];
    for (body, status, field) in refused {
        let response = daemon.post("/api/slack/setup", &body).await;
        assert_eq!(response.status(), status, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["field"], field, "{body}: {error}");
    }
    assert_eq!(report(&daemon).await["token"], false);

    set_up_and_pair(&fake, &daemon).await;
    let slack = connected(&daemon).await;
    assert_eq!(slack["paired"], true);
    assert_eq!(slack["bot"], "hark");
    let config: Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["channels"]["slack"]["userId"], ME);

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
    let message = message_for(&fake, "Deploy now?").await;
    assert_eq!(message["channel"], format!("D{ME}"));
    let yes = button(&message, "Yes");
    assert_eq!(yes["style"], "primary");
    assert_eq!(button(&message, "No")["style"], "danger");
    let ts = message["ts"].as_str().unwrap().to_string();
    // Someone else's tap changes nothing: taps are taken in order, so had the stranger's "No"
    // counted, the agent would get "No".
    let strangers = fake.tap(STRANGER, &ts, &button(&message, "No"));
    fake.wait_ack(&strangers).await;
    let mine = fake.tap(ME, &ts, &yes);
    fake.wait_ack(&mine).await;
    let result = finish(call).await;
    assert_eq!(text_of_result(&result), "Yes");
    let updated = update_of(&fake, &ts, |call| !has_controls(call)).await;
    assert!(text_of(&updated).contains("Yes"), "{updated}");
    let questions: Value = daemon.get("/api/questions").await.json().await.unwrap();
    assert_eq!(questions["questions"][0]["answeredVia"], "slack");

    // The tokens are in secrets.json only.
    for leak in [
        daemon.get("/api/config").await.text().await.unwrap(),
        daemon.get("/api/channels").await.text().await.unwrap(),
        daemon.get("/api/export").await.text().await.unwrap(),
        std::fs::read_to_string(&log).unwrap_or_default(),
        std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap(),
        fake.all_calls(),
    ] {
        assert!(!leak.contains(BOT_TOKEN) && !leak.contains(APP_TOKEN));
    }
    let secrets = std::fs::read_to_string(daemon.home.path().join("secrets.json")).unwrap();
    assert!(secrets.contains(BOT_TOKEN) && secrets.contains(APP_TOKEN));
    shim.cancel().await.unwrap();
}

fn text_of_result(result: &rmcp::model::CallToolResult) -> String {
    crate::api::world::text_of(result)
}

#[tokio::test]
async fn a_token_slack_quotes_back_is_shown_nowhere() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("daemon.log");
    let daemon = daemon(&fake, &log);
    set_up_and_pair(&fake, &daemon).await;
    fake.echo_tokens();
    daemon
        .ask(&json!({"questions": [{"question": "Go?", "options": [{"label": "Yes"}]}]}))
        .await;
    // Slack's refusal reaches the status, without the token it quoted.
    let mut shown = String::new();
    for _ in 0..200 {
        shown = daemon.get("/api/channels").await.text().await.unwrap();
        if shown.contains("invalid_auth") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(shown.contains("invalid_auth"), "{shown}");
    let world = world_of(&daemon);
    let status = world.command(&["status"]).output().await.unwrap();
    let setup = daemon
        .post("/api/slack/setup", &json!({}))
        .await
        .text()
        .await
        .unwrap();
    let logged = std::fs::read_to_string(&log).unwrap();
    for (place, text) in [
        ("GET /api/channels", shown),
        (
            "hark status",
            String::from_utf8_lossy(&status.stdout).into_owned(),
        ),
        ("the setup's refusal", setup),
        ("daemon.log", logged),
    ] {
        for token in [BOT_TOKEN, APP_TOKEN] {
            assert!(!text.contains(token), "{place} shows a token: {text}");
        }
    }
}

#[tokio::test]
async fn an_agents_words_cannot_ping_the_workspace_or_disguise_a_link() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let markup = "<!channel> <!here> <!everyone> <@U0ADMIN> <https://evil.example|the docs>";
    daemon
        .ask(&json!({"title": format!("Deploy {markup}"),
                     "questions": [{"question": "Go?", "options": [{"label": "Yes"}]}]}))
        .await;
    let message = message_for(&fake, "Go?").await;
    let text = message["text"].as_str().unwrap();
    assert!(text.contains("Deploy"), "{text}");
    for live in [
        "<!channel>",
        "<!here>",
        "<!everyone>",
        "<@U0ADMIN>",
        "<https://",
    ] {
        assert!(
            !text.contains(live),
            "{live} reached Slack as markup: {text}"
        );
    }
    assert!(text.contains("&lt;!channel&gt;"), "{text}");
    // The blocks are plain text: shown as written.
    assert!(message["blocks"].to_string().contains("<!channel>"));
    assert!(!message["blocks"].to_string().contains("mrkdwn"));
}

#[tokio::test]
async fn checkboxes_other_and_skip_walk_a_question_in_slack() {
    let fake = FakeSlack::start().await;
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
    let message = message_for(&fake, "Which checks?").await;
    let ts = message["ts"].as_str().unwrap().to_string();
    assert_eq!(
        message["blocks"].to_string().matches("checkboxes").count(),
        1
    );
    // Send with nothing ticked is refused, said in the direct messages.
    let send = button(&message, "Send");
    fake.tap(ME, &ts, &send);
    fake.wait_call("chat.postMessage", 0, |call| {
        text_of(call).contains("Tick at least one")
    })
    .await;
    fake.tick(ME, &ts, &message, &["0", "2"]);
    let ticked = update_of(&fake, &ts, |call| {
        call["blocks"].to_string().contains("initial_options")
    })
    .await;
    fake.tap(ME, &ts, &button(&ticked, "Send"));
    let second = update_of(&fake, &ts, |call| text_of(call).contains("Anything else?")).await;
    // Other… opens a modal; its words answer the second question.
    fake.tap(ME, &ts, &button(&second, "Other"));
    let modal = fake.wait_call("views.open", 0, |_| true).await;
    assert_eq!(modal["view"]["type"], "modal");
    assert!(modal["trigger_id"].as_str().unwrap().starts_with("trig."));
    fake.submit(ME, "  ship it after lunch ");
    let answered = loop_status(&daemon, &id, "answered").await;
    assert_eq!(answered["answers"][0]["selected"], json!(["Lint", "Docs"]));
    assert_eq!(answered["answers"][1]["freeText"], "ship it after lunch");
    update_of(&fake, &ts, |call| {
        !has_controls(call) && text_of(call).contains("ship it")
    })
    .await;

    // Skip opens a modal too; its note goes with the decline.
    let skipped = daemon
        .ask(&json!({"questions": [{"question": "Rename the crate?", "options": [{"label": "Yes"}]}]}))
        .await;
    let skipped_id = skipped["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Rename the crate?").await;
    let ts = message["ts"].as_str().unwrap().to_string();
    fake.tap(ME, &ts, &button(&message, "Skip"));
    fake.wait_call("views.open", 1, |_| true).await;
    fake.submit(ME, "not now");
    let declined = loop_status(&daemon, &skipped_id, "declined").await;
    assert_eq!(declined["note"], "not now");
    assert_eq!(declined["answeredVia"], "slack");
    update_of(&fake, &ts, |call| {
        text_of(call).contains("Skipped: not now")
    })
    .await;
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

#[tokio::test]
async fn the_link_comes_back_and_a_question_closed_elsewhere_loses_its_buttons() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    connected(&daemon).await;
    let links = fake.links();
    // Slack asks for a new link, then a link drops without a word: Hark opens new ones.
    fake.disconnect();
    fake.wait_link(links + 1).await;
    connected(&daemon).await;
    fake.drop_link();
    fake.wait_link(links + 2).await;
    connected(&daemon).await;
    assert!(fake.calls("apps.connections.open").len() as u64 >= links + 2);

    let asked = daemon.ask(&json!({"questions": [{"question": "Merge?", "options": [{"label": "Yes"}, {"label": "No"}]}],
                                   "source": {"client": "claude-code 2.1.3", "cwd": "/w/hark"}})).await;
    let id = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Merge?").await;
    let ts = message["ts"].as_str().unwrap().to_string();
    daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("No"))
        .await;
    let updated = update_of(&fake, &ts, |call| !has_controls(call)).await;
    assert!(text_of(&updated).contains("No"), "{updated}");
    // A late tap on the old message is refused in words; the answer stands.
    fake.tap(ME, &ts, &button(&message, "Yes"));
    fake.wait_call("chat.postMessage", 0, |call| {
        text_of(call).contains("already answered or closed")
    })
    .await;
    assert_eq!(
        loop_status(&daemon, &id, "answered").await["answers"][0]["selected"],
        json!(["No"])
    );

    // "tell …" leaves a message for the agent that asked; a thread reply on its message too.
    fake.dm(ME, "tell use the staging database", None);
    fake.wait_call("chat.postMessage", 0, |call| {
        text_of(call).contains("Sent to claude-code · hark")
    })
    .await;
    fake.dm(ME, "and stop after the tests", Some(&ts));
    fake.wait_call("chat.postMessage", 1, |call| {
        text_of(call).contains("Sent to claude-code · hark")
    })
    .await;
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
            .all(|m| m["via"] == "slack")
    );
    // A stranger's words are answered with a refusal, and change nothing.
    fake.dm(STRANGER, "tell delete everything", None);
    fake.wait_call("chat.postMessage", 0, |call| {
        call["channel"] == format!("D{STRANGER}") && text_of(call).contains("only")
    })
    .await;
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    assert_eq!(list["messages"].as_array().unwrap().len(), 2);

    // hark channel test slack, and unpair.
    let tested = daemon
        .post("/api/channels/test", &json!({"channel": "slack"}))
        .await;
    assert_eq!(tested.status(), 200);
    let unpaired = daemon.post("/api/slack/unpair", &json!({})).await;
    assert_eq!(unpaired.status(), 200);
    assert_eq!(unpaired.json::<Value>().await.unwrap()["paired"], false);
}

#[tokio::test]
async fn after_a_restart_a_questions_message_is_updated_not_posted_again() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Ship it?", "options": [{"label": "Yes"}, {"label": "No"}]}]}))
        .await;
    let id = asked["id"].as_str().unwrap().to_string();
    let message = message_for(&fake, "Ship it?").await;
    let ts = message["ts"].as_str().unwrap().to_string();
    // The record of what was posted is on disk before the crash.
    let record = daemon.home.path().join("slack.json");
    for _ in 0..200 {
        if std::fs::read_to_string(&record).is_ok_and(|text| text.contains(&ts)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let links = fake.links();
    let daemon = daemon.crash_and_restart();
    fake.wait_link(links + 1).await;
    // The same message is brought up to date, and answering elsewhere updates it again.
    update_of(&fake, &ts, has_controls).await;
    daemon
        .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
        .await;
    update_of(&fake, &ts, |call| !has_controls(call)).await;
    let posted = fake
        .calls("chat.postMessage")
        .iter()
        .filter(|call| text_of(call).contains("Ship it?"))
        .count();
    assert_eq!(posted, 1, "posted once, before the restart");
}

/// Claude Code's `Stop`, as its hooks reference gives it.
fn claude_stop(said: &str) -> Value {
    json!({"session_id": "00893aaf", "transcript_path": "/tmp/t.jsonl", "cwd": "/home/me/shop",
           "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": false,
           "last_assistant_message": said})
}

#[tokio::test]
async fn a_reply_in_slack_continues_a_finished_claude() {
    let fake = FakeSlack::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(&fake, &logs.path().join("daemon.log"));
    set_up_and_pair(&fake, &daemon).await;
    let held = daemon
        .put("/api/config", &json!({"continueWaitSecs": 120}))
        .await;
    assert_eq!(held.status(), 200);
    let world = world_of(&daemon);
    let hook = crate::api::hook::hook_of(&world, "claude", &claude_stop("Deployed."), "30").await;
    // The person reads that Claude finished, with what it said, and replies in its thread.
    let notice = fake
        .wait_call("chat.postMessage", 0, |call| {
            text_of(call).contains("claude-code · shop finished its turn")
        })
        .await;
    assert!(text_of(&notice).contains("Deployed."), "{notice}");
    let ts = notice["ts"].as_str().unwrap().to_string();
    fake.dm(ME, "Now promote it to production.", Some(&ts));
    let output = crate::api::hook::printed(hook)
        .await
        .expect("the hook continues Claude");
    assert_eq!(output["decision"], "block");
    assert!(
        output["reason"]
            .as_str()
            .unwrap()
            .contains("Now promote it to production."),
        "{output}"
    );
}
