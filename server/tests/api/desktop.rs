//! The daemon opens the browser on a new question when no page is open, once per burst, and
//! never when a page is connected or the config says no.

use crate::api::events::{connect, next_event};
use crate::api::pages::form_action;
use crate::api::support::*;
use serde_json::json;
use std::time::Duration;

/// A fake browser that records the URLs it is asked to open.
fn recording_browser(dir: &std::path::Path) -> (String, std::path::PathBuf) {
    let log = dir.join("opened.txt");
    let script = dir.join("fake-browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" >> '{}'\n", log.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    (script.display().to_string(), log)
}

/// The URLs opened so far.
fn opened_now(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

async fn opened(log: &std::path::Path, at_least: usize) -> Vec<String> {
    for _ in 0..100 {
        let lines = opened_now(log);
        if lines.len() >= at_least {
            return lines;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Vec::new()
}

#[tokio::test]
async fn a_question_with_no_page_open_opens_the_browser_once_per_burst() {
    let scratch = tempfile::tempdir().unwrap();
    let (browser, opened_log) = recording_browser(scratch.path());
    let daemon_log = scratch.path().join("daemon.log");
    let daemon = Daemon::start_logging(
        tempfile::tempdir().unwrap(),
        &[("BROWSER", &browser)],
        &daemon_log,
    );
    let first = daemon.ask(&yes_no()).await;
    let second = daemon.ask(&yes_no()).await;
    let lines = opened(&opened_log, 1).await;
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (page, _) = with_login(&lines[0]);
    assert_eq!(
        page,
        daemon.url(&format!("/q/{}", first["id"].as_str().unwrap()))
    );
    // The daemon has decided about the second question: the page it opened shows that too.
    let decided = logged(&daemon_log, "the page opened moments ago shows it").await;
    assert!(
        decided.contains(second["id"].as_str().unwrap()),
        "{decided}"
    );
    assert_eq!(
        opened(&opened_log, 1).await.len(),
        1,
        "one opening covers the burst"
    );
}

#[tokio::test]
async fn no_browser_is_opened_while_a_page_is_connected_or_when_turned_off() {
    let scratch = tempfile::tempdir().unwrap();
    let (browser, log) = recording_browser(scratch.path());
    let daemon_log = scratch.path().join("daemon.log");
    let daemon = Daemon::start_logging(
        tempfile::tempdir().unwrap(),
        &[("BROWSER", &browser)],
        &daemon_log,
    );
    let mut page = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut page).await["event"], "init");
    daemon.ask(&yes_no()).await;
    assert_eq!(next_event(&mut page).await["event"], "question:created");
    let decided = logged(&daemon_log, "no browser opened: a page is open").await;
    assert!(decided.contains("a page is open"), "{decided}");
    assert!(
        std::fs::read_to_string(&log).unwrap_or_default().is_empty(),
        "a page is open"
    );

    assert_eq!(
        daemon
            .put("/api/config", &json!({"autoOpenBrowser": false}))
            .await
            .status(),
        200
    );
    drop(page);
    for _ in 0..100 {
        let health: serde_json::Value = daemon.get("/api/health").await.json().await.unwrap();
        if health["browserClients"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    daemon.ask(&yes_no()).await;
    let decided = logged(&daemon_log, "autoOpenBrowser is off").await;
    assert!(decided.contains("autoOpenBrowser is off"), "{decided}");
    assert!(
        std::fs::read_to_string(&log).unwrap_or_default().is_empty(),
        "turned off"
    );
}

#[tokio::test]
async fn serve_open_opens_the_page_once_listening() {
    let scratch = tempfile::tempdir().unwrap();
    let (browser, log) = recording_browser(scratch.path());
    let daemon = Daemon::start_flags(
        tempfile::tempdir().unwrap(),
        &[("BROWSER", &browser)],
        &["--open"],
    );
    let lines = opened(&log, 1).await;
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(with_login(&lines[0]).0, daemon.url("/"));
}

/// The page an opened address leads to, and the one-time login it carries.
fn with_login(url: &str) -> (String, String) {
    let (page, code) = url
        .split_once("?login=")
        .unwrap_or_else(|| panic!("{url} carries a one-time login"));
    assert!(
        code.len() == 32 && code.bytes().all(|byte| byte.is_ascii_hexdigit()),
        "{code}"
    );
    (page.to_string(), code.to_string())
}

#[tokio::test]
async fn a_page_opened_by_a_daemon_that_asks_for_the_token_gets_in_once() {
    let scratch = tempfile::tempdir().unwrap();
    let (browser, log) = recording_browser(scratch.path());
    let daemon = Daemon::start_flags(
        tempfile::tempdir().unwrap(),
        &[("BROWSER", &browser)],
        &["--require-token"],
    );
    let asked = daemon
        .http
        .post(daemon.url("/api/questions"))
        .bearer_auth(daemon.token())
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 201);
    let lines = opened(&log, 1).await;
    assert_eq!(lines.len(), 1, "{lines:?}");
    // Redirects are not followed, as a browser's first request sees them.
    let browser = &daemon.http;
    let first = browser.get(&lines[0]).send().await.unwrap();
    assert_eq!(first.status(), 303);
    let cookie = first.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("hark_token="), "{cookie}");
    let (page, _) = with_login(&lines[0]);
    assert_eq!(
        first.headers()["location"],
        page.trim_start_matches(&daemon.url(""))
            .to_string()
            .as_str()
    );
    let cookie = cookie.split(';').next().unwrap().to_string();
    let shown = browser
        .get(&page)
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(shown.status(), 200, "the cookie lets the browser in");
    assert_eq!(
        browser.get(&lines[0]).send().await.unwrap().status(),
        401,
        "the login works once"
    );
    assert_eq!(browser.get(&page).send().await.unwrap().status(), 401);
}

async fn logged(log: &std::path::Path, wanted: &str) -> String {
    for _ in 0..100 {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains(wanted) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    std::fs::read_to_string(log).unwrap_or_default()
}

#[tokio::test]
async fn the_desktop_notification_speaks_the_language_picked_last() {
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("daemon.log");
    let daemon = Daemon::start_logging(
        tempfile::tempdir().unwrap(),
        &[("LANG", "C.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")],
        &log,
    );
    daemon.ask(&yes_no()).await;
    let english = logged(&log, "Your agent has a question").await;
    assert!(english.contains("Your agent has a question"), "{english}");

    // A browser picks Russian (what the header picker sends), then a question arrives.
    let inbox = daemon.get("/").await.text().await.unwrap();
    let picked = daemon
        .http
        .post(daemon.url(&form_action(&inbox, "save_preferences")))
        .form(&[("lang", "ru")])
        .send()
        .await
        .unwrap();
    assert_eq!(picked.status(), 200);
    let config: serde_json::Value = daemon.get("/api/config").await.json().await.unwrap();
    assert_eq!(config["language"], "ru");
    daemon.ask(&yes_no()).await;
    let russian = logged(&log, "У агента есть вопрос").await;
    assert!(russian.contains("У агента есть вопрос"), "{russian}");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_click_on_the_notification_opens_the_question_with_a_one_time_login() {
    let mut desktop = crate::api::fake_notifications::Desktop::start().await;
    let scratch = tempfile::tempdir().unwrap();
    let (browser, opened_log) = recording_browser(scratch.path());
    let daemon = Daemon::start_flags(
        tempfile::tempdir().unwrap(),
        &[
            ("BROWSER", &browser),
            ("DBUS_SESSION_BUS_ADDRESS", &desktop.address),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", ""),
        ],
        &["--require-token"],
    );
    // Only the click may open the browser here.
    let off = daemon
        .http
        .put(daemon.url("/api/config"))
        .bearer_auth(daemon.token())
        .json(&json!({"autoOpenBrowser": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(off.status(), 200);
    let asked = daemon
        .http
        .post(daemon.url("/api/questions"))
        .bearer_auth(daemon.token())
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 201);
    let id = asked.json::<serde_json::Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();

    let shown = desktop.next_shown().await.expect("a notification is shown");
    assert_eq!(shown.summary, "Your agent has a question");
    assert!(shown.body.contains("Deploy now?"), "{shown:?}");
    assert_eq!(shown.actions, ["default", "Open the question"]);
    assert!(
        opened_now(&opened_log).is_empty(),
        "nothing opens before the click"
    );

    // The daemon subscribes to the click just after showing; click until it has.
    let mut lines = Vec::new();
    for _ in 0..50 {
        desktop.click(shown.id).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        lines = opened_now(&opened_log);
        if !lines.is_empty() {
            break;
        }
    }
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (page, _) = with_login(&lines[0]);
    assert_eq!(page, daemon.url(&format!("/q/{id}")));
    let first = daemon.http.get(&lines[0]).send().await.unwrap();
    assert_eq!(first.status(), 303, "the login lets the browser in");
    assert!(
        first.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .starts_with("hark_token="),
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn an_agent_that_finished_is_a_notification_whose_click_opens_the_agents() {
    let mut desktop = crate::api::fake_notifications::Desktop::start().await;
    let scratch = tempfile::tempdir().unwrap();
    let (browser, opened_log) = recording_browser(scratch.path());
    let daemon = Daemon::start_with(
        tempfile::tempdir().unwrap(),
        &[
            ("BROWSER", &browser),
            ("DBUS_SESSION_BUS_ADDRESS", &desktop.address),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", ""),
        ],
    );
    let agent = json!({"client": "claude-code", "cwd": "/home/me/shop"});
    for (state, said) in [("working", None), ("finished", Some("All 42 tests pass."))] {
        let reported = daemon
            .post(
                "/api/sessions",
                &json!({"agent": agent, "sessionId": "s1", "state": state, "lastMessage": said}),
            )
            .await;
        assert_eq!(reported.status(), 200);
    }
    let shown = desktop.next_shown().await.expect("a notification is shown");
    assert_eq!(shown.summary, "claude-code · shop finished its turn");
    assert_eq!(shown.body, "All 42 tests pass.");
    assert_eq!(shown.actions, ["default", "Open the agents"]);
    let mut lines = Vec::new();
    for _ in 0..50 {
        desktop.click(shown.id).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        lines = opened_now(&opened_log);
        if !lines.is_empty() {
            break;
        }
    }
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (page, _) = with_login(&lines[0]);
    assert_eq!(page, daemon.url("/agents"));
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_burst_of_questions_is_one_notification_more_that_counts_them_and_opens_the_inbox() {
    let mut desktop = crate::api::fake_notifications::Desktop::start().await;
    let scratch = tempfile::tempdir().unwrap();
    let (browser, opened_log) = recording_browser(scratch.path());
    let daemon = Daemon::start_with(
        tempfile::tempdir().unwrap(),
        &[
            ("BROWSER", &browser),
            ("DBUS_SESSION_BUS_ADDRESS", &desktop.address),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", ""),
        ],
    );
    let off = daemon
        .put("/api/config", &json!({"autoOpenBrowser": false}))
        .await;
    assert_eq!(off.status(), 200);
    let mut ids = Vec::new();
    for text in ["First?", "Second?", "Third?", "Fourth?"] {
        let asked = daemon
            .ask(&json!({"questions": [{"question": text}]}))
            .await;
        ids.push(asked["id"].as_str().unwrap().to_string());
    }
    // One answered before the held ones are shown: it is not counted.
    let answered = daemon
        .post(
            &format!("/api/questions/{}/answer", ids[1]),
            &json!({"answers": [{"freeText": "done"}]}),
        )
        .await;
    assert_eq!(answered.status(), 200);

    let first = desktop
        .next_shown()
        .await
        .expect("the first is shown at once");
    assert_eq!(first.summary, "Your agent has a question");
    assert_eq!(first.body, "First?");
    let rest = desktop
        .next_shown()
        .await
        .expect("the rest are shown together");
    assert_eq!(rest.summary, "Your agents have 2 questions");
    assert_eq!(rest.body, "Fourth?", "the newest one's headline");
    assert_eq!(rest.actions, ["default", "Open the questions"]);
    let mut lines = Vec::new();
    for _ in 0..50 {
        desktop.click(rest.id).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        lines = opened_now(&opened_log);
        if !lines.is_empty() {
            break;
        }
    }
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (page, _) = with_login(&lines[0]);
    assert_eq!(page, daemon.url("/"), "the inbox shows them all");
    let more = tokio::time::timeout(Duration::from_secs(3), desktop.next_shown()).await;
    assert!(matches!(more, Err(_) | Ok(None)), "nothing more: {more:?}");
}
