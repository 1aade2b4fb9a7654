//! WeChat against a stand-in iLink API (`fake_wechat`) on 127.0.0.1, with the real daemon, the
//! real CLI and a real MCP client: the QR login (a redirect, the number from the phone, an
//! expired code), answering by number, numbers, own words and `skip`, strangers, replies written
//! before the question they would answer, questions closed elsewhere, a message delivered
//! again, WeChat down and back, a restart mid-question, a session WeChat ended, and the token
//! kept out of everything but `secrets.json`.

use crate::api::fake_wechat::{FakeWechat, ME, STRANGER, TOKEN};
use crate::api::support::{Daemon, assert_error};
use crate::api::telegram::world_of;
use crate::api::world::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A daemon logging into `log` whose config points WeChat at `fake`; `paired` writes the token
/// and the user as a login would have.
fn daemon(
    fake: &FakeWechat,
    paired: bool,
    home: tempfile::TempDir,
    log: &std::path::Path,
) -> Daemon {
    let wechat = if paired {
        json!({"enabled": true, "apiBase": fake.base, "userId": ME})
    } else {
        json!({"apiBase": fake.base})
    };
    std::fs::write(
        home.path().join("config.json"),
        serde_json::to_vec(&json!({"channels": {"wechat": wechat}, "remindSecs": 0})).unwrap(),
    )
    .unwrap();
    if paired {
        std::fs::write(
            home.path().join("secrets.json"),
            serde_json::to_vec(&json!({"wechatToken": TOKEN, "wechatApiBase": fake.base})).unwrap(),
        )
        .unwrap();
    }
    Daemon::start_logging(home, &[], log)
}

async fn start(paired: bool) -> (FakeWechat, Daemon, tempfile::TempDir) {
    let fake = FakeWechat::start().await;
    let logs = tempfile::tempdir().unwrap();
    let daemon = daemon(
        &fake,
        paired,
        tempfile::tempdir().unwrap(),
        &logs.path().join("daemon.log"),
    );
    (fake, daemon, logs)
}

/// The WeChat part of `GET /api/channels`, once `ready` holds (bounded).
async fn wechat_report(daemon: &Daemon, ready: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..200 {
        let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
        if ready(&report) {
            return report;
        }
        last = report;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the channels never got there: {last:#}");
}

fn choice(question: &str, labels: &[&str], multi: bool, free: bool) -> Value {
    json!({
        "question": question, "multiSelect": multi, "allowFreeText": free,
        "options": labels.iter().map(|label| json!({"label": label})).collect::<Vec<_>>()
    })
}

async fn question(daemon: &Daemon, id: &str) -> Value {
    daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

async fn wait_status(daemon: &Daemon, id: &str, status: &str) -> Value {
    for _ in 0..200 {
        let question = question(daemon, id).await;
        if question["status"] == status {
            return question;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "{id} never became {status}: {:#}",
        question(daemon, id).await
    );
}

#[tokio::test]
async fn a_qr_login_pairs_the_scanner_and_an_mcp_question_is_answered_by_number() {
    let (fake, daemon, logs) = start(false).await;
    // The login is confirmed on another host, as WeChat's data centres redirect.
    let moved = FakeWechat::start().await;

    let response = daemon.post("/api/wechat/setup", &json!({})).await;
    assert_eq!(response.status(), 200);
    let report: Value = response.json().await.unwrap();
    let login = &report["login"];
    assert_eq!(login["state"], "waiting");
    assert!(login["qrcodeUrl"].as_str().unwrap().contains("qrcode=qr-1"));
    assert!(login["qrSvg"].as_str().unwrap().contains("<svg"));
    assert_eq!(report["paired"], false);

    // Bad input is refused by field and the daemon stays up.
    let refused = daemon.post("/api/wechat/verify", &json!({"code": 5})).await;
    assert_error(refused, 400, Some("code")).await;
    let refused = daemon
        .post("/api/wechat/verify", &json!({"code": "12ab"}))
        .await;
    assert_error(refused, 400, Some("code")).await;
    let refused = daemon
        .post("/api/wechat/verify", &json!({"code": "1234"}))
        .await;
    assert_error(refused, 409, Some("code")).await;

    fake.script(&[
        json!({"status": "scaned"}),
        json!({"status": "scaned_but_redirect", "redirect_host": moved.host()}),
    ]);
    moved.script(&[json!({"status": "need_verifycode"})]);
    wechat_report(&daemon, |report| {
        report["wechat"]["login"]["state"] == "needsCode"
    })
    .await;
    // A wrong number: WeChat asks again, and says so.
    let response = daemon
        .post("/api/wechat/verify", &json!({"code": "1111"}))
        .await;
    assert_eq!(response.status(), 200);
    moved.script(&[json!({"status": "need_verifycode"})]);
    wechat_report(&daemon, |report| {
        report["wechat"]["login"]["state"] == "needsCode"
            && report["wechat"]["login"]["wrongCode"] == true
    })
    .await;
    let response = daemon
        .post("/api/wechat/verify", &json!({"code": " 4821 "}))
        .await;
    assert_eq!(response.status(), 200);
    // The bot's calls go where the confirmed login says (`baseurl`).
    let bot = FakeWechat::start().await;
    moved.script(&[FakeWechat::confirmed(ME, Some(&bot.base))]);
    let report = wechat_report(&daemon, |report| {
        report["wechat"]["login"]["state"] == "confirmed"
    })
    .await;
    let mut codes = moved.verify_codes();
    codes.dedup();
    assert_eq!(codes, ["1111", "4821"]);
    assert_eq!(report["wechat"]["paired"], true);
    assert_eq!(report["wechat"]["token"], true);
    assert_eq!(report["wechat"]["logins"], 1);

    // A question from a real MCP client arrives as text with numbered options.
    let world = world_of(&daemon);
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"title": "Deploy", "questions": [{
            "question": "Where to?",
            "options": [
                {"label": "Staging", "recommended": true},
                {"label": "Production", "description": "Live traffic", "danger": true}
            ]
        }]}),
    )
    .await;
    let asked = bot.wait_text(0, "Where to?").await;
    let text = FakeWechat::text(&asked);
    assert!(text.contains("❓ Deploy"), "{text}");
    assert!(text.contains("1. Staging ⭐ recommended"), "{text}");
    assert!(text.contains("2. ⚠️ Production — Live traffic"), "{text}");
    assert!(text.contains("Reply with the number"), "{text}");

    bot.say(ME, "2");
    let result = finish(call).await;
    assert!(
        text_of(&result).contains("Production"),
        "{}",
        text_of(&result)
    );
    let sent = bot.wait_text(0, "Answer sent: Production").await;
    // Replies go out in the conversation of the person's message.
    assert_eq!(sent["context_token"], "ctx-1");

    // The token is kept in secrets.json only.
    let secrets = std::fs::read_to_string(daemon.home.path().join("secrets.json")).unwrap();
    assert!(secrets.contains(TOKEN));
    let config = std::fs::read_to_string(daemon.home.path().join("config.json")).unwrap();
    assert!(!config.contains(TOKEN) && config.contains(ME), "{config}");
    for path in [
        "/api/config",
        "/api/channels",
        "/api/export?format=json",
        "/api/export?format=md",
    ] {
        let body = daemon.get(path).await.text().await.unwrap();
        assert!(!body.contains(TOKEN), "{path} shows the token");
    }
    let log = std::fs::read_to_string(logs.path().join("daemon.log")).unwrap();
    assert!(!log.contains(TOKEN), "the log shows the token");
    assert_eq!(fake.problems(), Vec::<String>::new());
    assert_eq!(moved.problems(), Vec::<String>::new());
    assert_eq!(bot.problems(), Vec::<String>::new());
    assert!(
        fake.sent().is_empty(),
        "nothing is sent to the login's host"
    );
}

#[tokio::test]
async fn numbers_own_words_and_skip_walk_each_sub_question_and_bad_replies_are_explained() {
    let (fake, daemon, _logs) = start(true).await;
    let first = daemon
        .ask(&json!({"title": "Release", "questions": [
            choice("Which platforms?", &["Linux", "macOS", "Windows"], true, false),
            choice("Which channel?", &["Stable", "Beta"], false, true),
            {"question": "Any notes?"}
        ]}))
        .await;
    let second = daemon
        .ask(&json!({"questions": [choice("Delete the branch?", &["Yes", "No"], false, false)]}))
        .await;
    let id = first["id"].as_str().unwrap();

    let shown = fake.wait_text(0, "Which platforms?").await;
    assert!(
        FakeWechat::text(&shown).contains("Question 1 of 3"),
        "{shown}"
    );
    fake.say(ME, "1 3");
    fake.wait_text(0, "Which channel?").await;
    fake.say(ME, "7");
    fake.wait_text(0, "There is no option with that number")
        .await;
    fake.wait_text(1, "Which channel?").await;
    fake.say(ME, "1 2");
    fake.wait_text(0, "takes one option").await;
    fake.say(ME, "Nightly, please");
    fake.wait_text(0, "Any notes?").await;
    fake.say(ME, "3");
    let answered = wait_status(&daemon, id, "answered").await;
    assert_eq!(answered["answeredVia"], "wechat");
    assert_eq!(
        answered["answers"][0]["selected"],
        json!(["Linux", "Windows"])
    );
    assert_eq!(answered["answers"][1]["freeText"], "Nightly, please");
    assert_eq!(answered["answers"][2]["freeText"], "3");
    fake.wait_text(0, "Answer sent: Linux, Windows").await;

    // The next question follows; it takes only its options, then is skipped with a note.
    fake.wait_text(0, "Delete the branch?").await;
    fake.say(ME, "maybe");
    fake.wait_text(0, "takes only its options").await;
    fake.say(ME, "skip not before the release");
    let skipped = wait_status(&daemon, second["id"].as_str().unwrap(), "declined").await;
    assert_eq!(skipped["note"], "not before the release");
    fake.wait_text(0, "Skipped: not before the release").await;
    fake.say(ME, "hello?");
    fake.wait_text(0, "No question is waiting").await;
    assert_eq!(fake.problems(), Vec::<String>::new());
}

#[tokio::test]
async fn strangers_change_nothing_and_outdated_replies_and_answers_elsewhere_are_followed() {
    let (fake, daemon, _logs) = start(true).await;
    let first = daemon
        .ask(&json!({"title": "First", "questions": [choice("Go on?", &["Yes", "No"], false, false)]}))
        .await;
    let second = daemon
        .ask(&json!({"title": "Second", "questions": [choice("Merge?", &["Yes", "No"], false, false)]}))
        .await;
    fake.wait_text(0, "Go on?").await;

    // A reminder repeats the question every remindSecs.
    let response = daemon.put("/api/config", &json!({"remindSecs": 1})).await;
    assert_eq!(response.status(), 200);
    let reminded = fake.wait_text(0, "This question still waits").await;
    assert!(FakeWechat::text(&reminded).contains("Go on?"), "{reminded}");
    let response = daemon.put("/api/config", &json!({"remindSecs": 0})).await;
    assert_eq!(response.status(), 200);

    // Someone else cannot answer, and hears nothing back.
    fake.say(STRANGER, "1");
    fake.say(STRANGER, "skip");
    // A later message of the person's shows the stranger's were read first.
    fake.say(ME, "what?");
    fake.wait_text(0, "takes only its options").await;
    assert!(
        fake.sent()
            .iter()
            .all(|message| message["to_user_id"] == ME)
    );
    let first_id = first["id"].as_str().unwrap();
    assert_eq!(question(&daemon, first_id).await["status"], "pending");

    // Answered on the page: the follow-up says so, and the next question comes.
    let response = daemon
        .post(
            &format!("/api/questions/{first_id}/answer"),
            &json!({"answers": [{"selected": ["No"]}], "via": "page"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    fake.wait_text(0, "First: Answered: No, on Hark's page.")
        .await;
    fake.wait_text(0, "Merge?").await;
    // A reply written before "Merge?" went out was meant for "Go on?": not used for it.
    let before = chrono::Utc::now().timestamp_millis() - 60_000;
    fake.say_at(ME, "1", Some(before));
    fake.wait_text(0, "written before this question").await;
    fake.wait_text(1, "Merge?").await;
    let second_id = second["id"].as_str().unwrap();
    assert_eq!(question(&daemon, second_id).await["status"], "pending");
    fake.say(ME, "2");
    let answered = wait_status(&daemon, second_id, "answered").await;
    assert_eq!(answered["answers"][0]["selected"], json!(["No"]));
}

#[tokio::test]
async fn wechat_down_and_back_and_a_restart_mid_question_lose_nothing() {
    let fake = FakeWechat::start().await;
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("daemon.log");
    let mut daemon = daemon(&fake, true, tempfile::tempdir().unwrap(), &log);
    let first = daemon
        .ask(&json!({"title": "Storage", "questions": [
            choice("Which database?", &["SQLite", "Postgres"], false, false)
        ]}))
        .await;
    fake.wait_text(0, "Which database?").await;

    // Down: the status says so.
    fake.set_down(true);
    let report = wechat_report(&daemon, |report| {
        report["channels"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|status| {
                status["channel"] == "wechat"
                    && status["lastError"]
                        .as_str()
                        .is_some_and(|e| e.contains("503"))
            })
    })
    .await;
    assert!(!report.to_string().contains(TOKEN));
    // Meanwhile the first is answered on the page and a second is asked: the follow-up and the
    // second wait for WeChat, then go out once each, in order.
    let second = daemon
        .ask(&json!({"questions": [
            choice("Which cache?", &["None", "Redis"], false, false),
            choice("Which queue?", &["None", "NATS"], false, false)
        ]}))
        .await;
    let response = daemon
        .post(
            &format!("/api/questions/{}/answer", first["id"].as_str().unwrap()),
            &json!({"answers": [{"selected": ["SQLite"]}], "via": "page"}),
        )
        .await;
    assert_eq!(response.status(), 200);
    fake.set_down(false);
    fake.wait_text(0, "Which cache?").await;
    let texts: Vec<String> = fake
        .sent()
        .iter()
        .map(|message| FakeWechat::text(message).to_string())
        .collect();
    let followed: Vec<usize> = (0..texts.len())
        .filter(|at| texts[*at].contains("Storage: Answered: SQLite, on Hark's page."))
        .collect();
    let shown: Vec<usize> = (0..texts.len())
        .filter(|at| texts[*at].contains("Which cache?"))
        .collect();
    assert_eq!(followed.len(), 1, "{texts:#?}");
    assert_eq!(shown.len(), 1, "{texts:#?}");
    assert!(followed[0] < shown[0], "{texts:#?}");

    fake.say(ME, "2");
    fake.wait_text(0, "Which queue?").await;
    // A restart mid-question keeps the walk and the cursor: the "2" above is not read again.
    daemon.terminate();
    let home = std::mem::replace(&mut daemon.home, tempfile::tempdir().unwrap());
    drop(daemon);
    let polls_before = fake.cursors().len();
    let daemon = Daemon::start_logging(home, &[], &log);
    fake.say(ME, "2");
    let id = second["id"].as_str().unwrap();
    let answered = wait_status(&daemon, id, "answered").await;
    assert_eq!(answered["answers"][0]["selected"], json!(["Redis"]));
    assert_eq!(answered["answers"][1]["selected"], json!(["NATS"]));
    let resumed = &fake.cursors()[polls_before];
    assert!(
        resumed.starts_with('c'),
        "the first poll after the restart sent {resumed:?}"
    );
    // Nothing was sent twice across the restart.
    assert_eq!(
        fake.sent()
            .iter()
            .filter(|m| FakeWechat::text(m).contains("Which queue?"))
            .count(),
        1
    );
    assert_eq!(fake.problems(), Vec::<String>::new());
}

#[tokio::test]
async fn a_session_wechat_ended_asks_for_a_new_login_instead_of_looping() {
    let (fake, daemon, _logs) = start(true).await;
    fake.set_session_ended(true);
    let report = wechat_report(&daemon, |report| report["wechat"]["sessionExpired"] == true).await;
    let summary = report["summaries"].to_string();
    assert!(summary.contains("log in again"), "{summary}");
    let polls = fake.update_polls();
    // A question asked now is kept for the page; the poller does not spin on -14.
    daemon
        .ask(&json!({"questions": [choice("Still there?", &["Yes"], false, false)]}))
        .await;
    // The poller's first pause after a failure is 1 s: a poller retrying -14 polls again
    // within these 2 s.
    for _ in 0..40 {
        assert!(
            fake.update_polls() <= polls + 1,
            "the poller kept polling a dead session"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let health = daemon.get("/api/health").await;
    assert_eq!(health.status(), 200);

    // Unpair forgets the token and the person, and turns WeChat off.
    let response = daemon.post("/api/wechat/unpair", &json!({})).await;
    assert_eq!(response.status(), 200);
    let report: Value = response.json().await.unwrap();
    assert_eq!(report["paired"], false);
    assert_eq!(report["token"], false);
    let secrets = std::fs::read_to_string(daemon.home.path().join("secrets.json")).unwrap();
    assert!(!secrets.contains(TOKEN));
}

#[tokio::test]
async fn hark_wechat_setup_draws_the_code_and_says_plainly_when_it_expires_or_is_confirmed() {
    let (fake, daemon, _logs) = start(false).await;
    let world = world_of(&daemon);

    fake.script(&[json!({"status": "scaned"}), json!({"status": "expired"})]);
    let output = world.command(&["wechat", "setup"]).output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stdout.contains("Scan this code with WeChat"), "{stdout}");
    assert!(
        stdout.contains("█") || stdout.contains("▀"),
        "the code is drawn: {stdout}"
    );
    assert!(stderr.contains("the code expired"), "{stderr}");

    // Without `baseurl`, the bot's calls go to `apiBase`.
    fake.script(&[FakeWechat::confirmed(ME, None)]);
    let output = world.command(&["wechat", "setup"]).output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("Logged in."), "{stdout}");

    let output = world
        .command(&["channel", "test", "wechat"])
        .output()
        .await
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    fake.wait_text(0, "Hark can reach this WeChat").await;

    let output = world.command(&["wechat", "unpair"]).output().await.unwrap();
    assert!(output.status.success());
    fake.wait_text(0, "logged out of this WeChat").await;
    assert!(fake.status_polls() >= 2);
}

#[tokio::test]
async fn tell_leaves_a_message_for_the_agent_on_screen_and_strangers_cannot() {
    let (fake, daemon, _logs) = start(true).await;
    let asked = daemon
        .ask(
            &json!({"questions": [choice("Go on?", &["Yes", "No"], false, false)],
                     "source": {"client": "claude-code 2.1.3", "cwd": "/w/hark"}}),
        )
        .await;
    fake.wait_text(0, "Go on?").await;

    fake.say(STRANGER, "/tell delete everything");
    fake.say(ME, "/tell 用测试数据库");
    fake.wait_text(0, "Sent to claude-code · hark.").await;
    // Delivered again, twice: taken once (the list below has one message).
    fake.deliver_again();
    fake.deliver_again();
    fake.say(ME, "/tell");
    fake.wait_text(0, "Write the message after /tell").await;
    let list: Value = daemon.get("/api/messages").await.json().await.unwrap();
    let messages = list["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{list}");
    assert_eq!(messages[0]["text"], "用测试数据库");
    assert_eq!(
        messages[0]["to"],
        json!({"client": "claude-code", "cwd": "/w/hark"})
    );
    assert_eq!(messages[0]["via"], "wechat");
    // The question on screen is untouched and still answers by number.
    let id = asked["id"].as_str().unwrap();
    assert_eq!(question(&daemon, id).await["status"], "pending");
    fake.say(ME, "1");
    wait_status(&daemon, id, "answered").await;
}
