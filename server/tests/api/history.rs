//! The history in `$HARK_HOME/hark.db`: what survives a crash, what is withdrawn, pruning,
//! paging, exports, and a damaged or unwritable home.

use crate::api::events::{connect, next_event};
use crate::api::support::*;
use serde_json::{Value, json};
use std::time::Duration;

fn home_with(config: Value) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.json"), config.to_string()).unwrap();
    home
}

async fn ask_with_id(daemon: &Daemon, id: &str) -> reqwest::Response {
    let mut request = yes_no();
    request["id"] = json!(id);
    daemon.post("/api/questions", &request).await
}

async fn read(daemon: &Daemon, id: &str) -> Value {
    daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_crash_keeps_pending_questions_and_answers_and_withdraws_the_abandoned() {
    let daemon = Daemon::start_in(home_with(json!({"orphanSecs": 1})));
    let kept = uuid::Uuid::new_v4().to_string();
    let abandoned = uuid::Uuid::new_v4().to_string();
    let answered = uuid::Uuid::new_v4().to_string();
    for id in [&kept, &abandoned, &answered] {
        assert_eq!(ask_with_id(&daemon, id).await.status(), 201);
    }
    // Answered, but its agent has not collected the answer when the daemon dies.
    let response = daemon
        .post(&format!("/api/questions/{answered}/answer"), &pick("Yes"))
        .await;
    assert_eq!(response.status(), 200);

    let daemon = daemon.crash_and_restart();
    assert_eq!(read(&daemon, &kept).await["status"], "pending");
    assert_eq!(read(&daemon, &abandoned).await["status"], "pending");
    // `kept`'s agent comes back and waits again; nobody comes back for `abandoned`.
    let waiting = {
        let url = daemon.url(&format!("/api/questions/{kept}/wait?timeout=5"));
        let http = daemon.http.clone();
        tokio::spawn(async move { http.get(url).send().await.map(|response| response.status()) })
    };
    // The answered question's agent re-submits its id and collects the answer.
    let resubmitted = ask_with_id(&daemon, &answered).await;
    assert_eq!(resubmitted.status(), 200, "found, not asked again");
    let collected: Value = daemon
        .get(&format!("/api/questions/{answered}/wait?timeout=1"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(collected["status"], "answered");
    assert_eq!(collected["answers"], json!([{"selected": ["Yes"]}]));

    let mut withdrawn = Value::Null;
    for _ in 0..100 {
        withdrawn = read(&daemon, &abandoned).await;
        if withdrawn["status"] != "pending" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(withdrawn["status"], "cancelled");
    assert_eq!(withdrawn["note"], "the asking agent went away");
    assert_eq!(
        read(&daemon, &kept).await["status"],
        "pending",
        "its agent came back"
    );
    drop(waiting);
}

#[tokio::test]
async fn an_answer_given_just_before_a_kill_9_is_delivered_after_the_restart() {
    let daemon = Daemon::start();
    let id = uuid::Uuid::new_v4().to_string();
    assert_eq!(ask_with_id(&daemon, &id).await.status(), 201);
    let mut answer = pick("No");
    answer["answers"][0]["freeText"] = json!("wait for Monday");
    assert_eq!(
        daemon
            .post(&format!("/api/questions/{id}/answer"), &answer)
            .await
            .status(),
        200
    );
    let daemon = daemon.crash_and_restart();
    let delivered: Value = daemon
        .get(&format!("/api/questions/{id}/wait?timeout=2"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(delivered["status"], "answered");
    assert_eq!(
        delivered["answers"],
        json!([{"selected": ["No"], "freeText": "wait for Monday"}])
    );
}

async fn ask_and_answer(daemon: &Daemon, count: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..count {
        let question = daemon.ask(&yes_no()).await;
        let id = question["id"].as_str().unwrap().to_string();
        daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
            .await;
        ids.push(id);
    }
    ids
}

#[tokio::test]
async fn the_history_pages_newest_first_and_init_carries_one_page() {
    let daemon = Daemon::start();
    let ids = ask_and_answer(&daemon, 120).await;
    let pending = daemon.ask(&yes_no()).await;
    let mut seen: Vec<String> = Vec::new();
    let mut before: Option<String> = None;
    for _ in 0..5 {
        let path = match &before {
            Some(id) => format!("/api/questions?status=answered&limit=50&before={id}"),
            None => "/api/questions?status=answered&limit=50".to_string(),
        };
        let page: Value = daemon.get(&path).await.json().await.unwrap();
        let page = page["questions"].as_array().unwrap().clone();
        if page.is_empty() {
            break;
        }
        before = page
            .last()
            .map(|question| question["id"].as_str().unwrap().to_string());
        seen.extend(
            page.iter()
                .map(|question| question["id"].as_str().unwrap().to_string()),
        );
    }
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(
        seen, newest_first,
        "every answered question once, newest first"
    );
    let default: Value = daemon.get("/api/questions").await.json().await.unwrap();
    assert_eq!(
        default["questions"].as_array().unwrap().len(),
        100,
        "a page by default"
    );

    let mut socket = connect(&daemon, None).await.unwrap();
    let init = next_event(&mut socket).await;
    let questions = init["data"]["questions"].as_array().unwrap();
    assert_eq!(
        questions.len(),
        51,
        "the pending question and one page of history"
    );
    assert!(
        questions
            .iter()
            .any(|question| question["id"] == pending["id"])
    );

    assert_error(
        daemon.get("/api/questions?limit=0").await,
        400,
        Some("limit"),
    )
    .await;
    assert_error(
        daemon.get("/api/questions?before=nope").await,
        400,
        Some("before"),
    )
    .await;
    let unknown = uuid::Uuid::new_v4();
    assert_error(
        daemon
            .get(&format!("/api/questions?before={unknown}"))
            .await,
        400,
        Some("before"),
    )
    .await;
}

#[tokio::test]
async fn history_max_prunes_the_oldest_closed_questions() {
    let daemon = Daemon::start_in(home_with(json!({"historyMax": 5})));
    let ids = ask_and_answer(&daemon, 8).await;
    let pending = daemon.ask(&yes_no()).await;
    // Pruning runs at start (and every hundred closes).
    let daemon = daemon.crash_and_restart();
    let kept: Value = daemon
        .get("/api/questions?limit=100")
        .await
        .json()
        .await
        .unwrap();
    let kept: Vec<&str> = kept["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|question| question["id"].as_str().unwrap())
        .collect();
    assert_eq!(kept.len(), 6, "five closed and the pending one: {kept:?}");
    assert!(kept.contains(&pending["id"].as_str().unwrap()));
    for old in &ids[..3] {
        assert!(!kept.contains(&old.as_str()), "{old} was pruned");
        assert_eq!(
            daemon.get(&format!("/api/questions/{old}")).await.status(),
            404
        );
    }
}

#[tokio::test]
async fn the_history_exports_as_json_and_markdown() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(&json!({"title": "Release 2.3", "source": {"client": "claude-code 2.1"},
            "questions": [{"question": "Deploy now?", "options": [{"label": "Yes"}, {"label": "No"}]},
                          {"question": "Anything else?"}]}))
        .await;
    let id = question["id"].as_str().unwrap();
    daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}, {"selected": [], "freeText": "tag it"}]}),
        )
        .await;
    let json_export = daemon.get("/api/export?format=json").await;
    assert_eq!(json_export.status(), 200);
    assert!(
        json_export.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(".json")
    );
    let exported: Value = json_export.json().await.unwrap();
    assert_eq!(exported[0]["id"], id);
    assert_eq!(exported[0]["answers"][1]["freeText"], "tag it");

    let markdown = daemon.get("/api/export?format=markdown").await;
    assert!(
        markdown.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown")
    );
    let text = markdown.text().await.unwrap();
    for expected in [
        "## Release 2.3",
        "by claude-code 2.1",
        "Answered",
        "- [x] Yes",
        "- [ ] No",
        "> tag it",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args([
            "export",
            "--format",
            "markdown",
            "--port",
            &daemon.port.to_string(),
        ])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .unwrap();
    assert!(cli.status.success());
    assert_eq!(String::from_utf8(cli.stdout).unwrap(), text);
    assert_error(
        daemon.get("/api/export?format=pdf").await,
        400,
        Some("format"),
    )
    .await;
}

#[tokio::test]
async fn a_damaged_database_is_moved_aside_and_the_daemon_starts() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("hark.db"), vec![0x42_u8; 8192]).unwrap();
    let daemon = Daemon::start_in(home);
    assert_eq!(daemon.get("/api/health").await.status(), 200);
    let question = daemon.ask(&yes_no()).await;
    assert_eq!(question["status"], "pending");
    let aside = std::fs::read_dir(daemon.home.path())
        .unwrap()
        .filter_map(Result::ok)
        .any(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("hark.db.damaged-")
        });
    assert!(aside, "the damaged file is kept aside for inspection");
}

#[test]
fn an_unwritable_home_is_a_clear_error_at_start() {
    // /sys refuses new files even to root.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["serve", "--port", "0"])
        .env("HARK_HOME", "/sys/kernel")
        .env("HARK_LOG", "warn")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/sys/kernel"), "{stderr}");
    assert!(stderr.contains("HARK_HOME"), "{stderr}");
}

#[tokio::test]
async fn memory_mode_keeps_no_database() {
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--memory"]);
    daemon.ask(&yes_no()).await;
    assert!(!daemon.home.path().join("hark.db").exists());
}
