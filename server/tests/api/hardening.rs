//! What an attacker on the LAN or a web page tried (issue 12), and the untidy errors found on
//! the way, each against the real daemon over real HTTP and WebSocket. The attacks that need a
//! second address are in `crowd`.

use crate::api::support::*;
use serde_json::{Value, json};
use std::time::Duration;

/// Sends `request` (a whole HTTP/1.1 request, `Connection: close`) on a raw connection and
/// returns the answer: for requests an HTTP client library would tidy up first.
fn raw(port: u16, request: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// A GET of `target` (sent as is) with the right Host.
fn raw_get(port: u16, target: &str) -> String {
    raw(
        port,
        &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
    )
}

/// The value of header `name` in a raw answer.
fn header_of<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then_some(value.trim())
    })
}

#[tokio::test]
async fn a_pairing_link_or_a_preference_never_leads_off_site() {
    let daemon = Daemon::start();
    for target in ["//evil.example/?token=x", "//evil.example/?a=b&token=x"] {
        let answer = raw_get(daemon.port, target);
        assert!(answer.starts_with("HTTP/1.1 303"), "{target}: {answer}");
        let location = header_of(&answer, "location").unwrap_or_default();
        assert!(
            location.starts_with('/')
                && !location.starts_with("//")
                && !location.contains('\\')
                && !location.contains("token"),
            "{target} led to {location:?}"
        );
    }
    assert_eq!(
        header_of(&raw_get(daemon.port, "//evil.example/?token=x"), "location"),
        Some("/")
    );
    // A backslash, spelt out or encoded, is refused outright.
    for target in ["/\\evil.example/?token=x", "/%5C/evil.example/?token=x"] {
        let answer = raw_get(daemon.port, target);
        assert!(answer.starts_with("HTTP/1.1 400"), "{target}: {answer}");
        assert_eq!(header_of(&answer, "location"), None);
    }
    // A good link still leads to the clean address.
    assert_eq!(
        header_of(&raw_get(daemon.port, "/settings?token=x&tab=1"), "location"),
        Some("/settings?tab=1")
    );

    // The picker's plain form post comes back only to a path on this server.
    let html = daemon.get("/settings").await.text().await.unwrap();
    let action = crate::api::pages::form_action(&html, "save_preferences");
    for back in [
        "/\\evil.example",
        "//evil.example",
        "/\t/evil.example",
        "https://evil.example/",
    ] {
        let response = daemon
            .http
            .post(daemon.url(&action))
            .header("accept", "text/html")
            .form(&[("theme", "dark"), ("back", back)])
            .send()
            .await
            .unwrap();
        let location = response
            .headers()
            .get("location")
            .map(|value| value.to_str().unwrap().to_string())
            .unwrap_or_default();
        assert!(
            !location.contains("evil"),
            "{back:?} led to {location:?} ({})",
            response.status()
        );
    }
    let kept = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .form(&[("theme", "dark"), ("back", "/settings")])
        .send()
        .await
        .unwrap();
    assert_eq!(kept.headers()["location"], "/settings");
}

#[tokio::test]
async fn the_tell_box_comes_back_only_to_a_path_on_this_server() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(
            &json!({"questions": [{"question": "Go on?", "options": [{"label": "Yes"}]}],
                     "source": {"client": "claude-code", "cwd": "/w/hark"}}),
        )
        .await;
    let page = format!("/q/{}", question["id"].as_str().unwrap());
    let html = daemon.get(&page).await.text().await.unwrap();
    let action = crate::api::pages::form_action(&html, "tell_agent");
    // Browsers read `/\` as `//`, and drop tabs and newlines: each of these is another site.
    for back in [
        "/\\evil.example/",
        "/\t/evil.example/",
        "/\\/evil.example/",
        "//evil.example/",
        "/\n/evil.example/",
    ] {
        let response = daemon
            .http
            .post(daemon.url(&action))
            .header("accept", "text/html")
            .form(&[
                ("client", "claude-code"),
                ("cwd", "/w/hark"),
                ("text", "use the staging database"),
                ("back", back),
            ])
            .send()
            .await
            .unwrap();
        let location = response
            .headers()
            .get("location")
            .map(|value| value.to_str().unwrap().to_string())
            .unwrap_or_default();
        assert_eq!(location, "/", "{back:?} led to {location:?}");
    }
    let kept = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .form(&[
            ("client", "claude-code"),
            ("text", "and run the tests"),
            ("back", page.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(kept.headers()["location"], page.as_str());
}

#[tokio::test]
async fn a_foreign_page_cannot_cancel_a_question_by_loading_its_wait() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let wait = format!("/api/questions/{id}/wait?cancelOnDisconnect=true");
    // What Chromium sends for an <img> on another site, and for a script's fetch from it.
    for (name, value) in [
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
        ("origin", "http://evil.example"),
    ] {
        let response = daemon
            .http
            .get(daemon.url(&wait))
            .header(name, value)
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .unwrap();
        assert_error(response, 403, None).await;
    }
    // Refused before any handler ran: no wait opened, so none can have been left to withdraw.
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["waits"], 0, "no refused wait reached the store");
    let now: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["status"], "pending", "nothing was withdrawn");
    assert!(now["abandonedAt"].is_null(), "nor marked as abandoned");
    // The shim (no browser headers) still waits, and its abandoned wait still withdraws.
    let shim = daemon
        .http
        .get(daemon.url(&wait))
        .timeout(Duration::from_millis(500))
        .send()
        .await;
    assert!(shim.is_err(), "the shim's wait holds until it gives up");
    // Its asker gone, the question is marked so (and withdrawn after lateSecs).
    let mut marked = false;
    for _ in 0..50 {
        let now: Value = daemon
            .get(&format!("/api/questions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if now["abandonedAt"].is_string() {
            marked = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(marked, "the shim's abandoned wait marks the question");
}

#[tokio::test]
async fn anything_after_the_json_value_is_refused() {
    let daemon = Daemon::start();
    let one = r#"{"questions":[{"question":"x"}]}"#;
    for body in [
        format!("{one} junk"),
        format!("{one}{one}"),
        format!("{one}\n{{}}"),
        format!("{one},"),
    ] {
        let response = daemon
            .http
            .post(daemon.url("/api/questions"))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_error(response, 400, None).await;
    }
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["pending"], 0, "nothing was created");
    let spaced = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("content-type", "application/json")
        .body(format!("{one} \r\n\t "))
        .send()
        .await
        .unwrap();
    assert_eq!(spaced.status(), 201, "whitespace after the value is fine");
}

#[tokio::test]
async fn a_chat_app_form_naming_no_such_app_or_step_is_refused_naming_it() {
    let daemon = Daemon::start();
    let settings = daemon.get("/settings").await.text().await.unwrap();
    let action = crate::api::pages::form_action(&settings, "chat_app_form");
    for (form, field) in [
        (vec![("app", "myspace"), ("step", "setup")], "app:"),
        (vec![("app", "wechat"), ("step", "setup")], "app:"),
        (vec![("app", "slack"), ("step", "explode")], "step:"),
    ] {
        let refused = daemon
            .http
            .post(daemon.url(&action))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 400, "{form:?}");
        let failure: Value = refused.json().await.unwrap();
        assert_eq!(failure["failure"], "badRequest", "{failure}");
        assert!(
            failure["details"].as_str().unwrap().contains(field),
            "{failure}"
        );
    }
    // Nothing was set up, and the daemon still answers.
    let report: Value = daemon.get("/api/channels").await.json().await.unwrap();
    assert_eq!(report["slack"]["token"], false);
}

#[tokio::test]
async fn a_server_function_given_bad_arguments_answers_400_in_the_persons_language() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let html = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    let submit = crate::api::pages::form_action(&html, "submit_answer");
    let skip = crate::api::pages::form_action(&html, "skip_question");
    let long_id = "a".repeat(5_000);
    let cases: Vec<(&str, Vec<(&str, &str)>)> = vec![
        (&submit, vec![("id", "not-a-uuid")]),
        (&submit, vec![("answer[0][selected][0]", "Yes")]),
        (&submit, vec![("id", &long_id)]),
        (&submit, vec![("id", "\0")]),
        (
            &submit,
            vec![
                ("id", id),
                ("answer[99999999999999999999][selected][0]", "Yes"),
            ],
        ),
        (&submit, vec![("id", id), ("answer", "Yes")]),
        (&skip, vec![("id", "%00"), ("note", "x")]),
    ];
    for (action, form) in &cases {
        // A script (the hydrated page) gets the failure as JSON with 400.
        let scripted = daemon
            .http
            .post(daemon.url(action))
            .form(form)
            .send()
            .await
            .unwrap();
        assert_eq!(scripted.status(), 400, "{action} {form:?}");
        let failure: Value = scripted.json().await.unwrap();
        assert_eq!(failure["failure"], "badRequest", "{failure}");
        // A plain form post gets a page in the person's language, with a way back.
        let plain = daemon
            .http
            .post(daemon.url(action))
            .header("accept", "text/html")
            .header("accept-language", "ja")
            .form(form)
            .send()
            .await
            .unwrap();
        assert_eq!(plain.status(), 400, "{action} {form:?}");
        let page = plain.text().await.unwrap();
        assert!(
            page.contains("<html lang=\"ja\"")
                && page.contains("Hark はこのフォームを読み取れませんでした")
                && page.contains("<a href=\"/\">受信箱に戻る</a>"),
            "{page}"
        );
    }
    // Nothing changed, and the question is still answerable.
    let now: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(now["status"], "pending");
    assert_eq!(
        daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn every_refusal_is_json_even_the_routers_own() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let wrong_method = daemon
        .http
        .delete(daemon.url("/api/questions"))
        .send()
        .await
        .unwrap();
    let body = assert_error(wrong_method, 405, None).await;
    assert!(body["error"].as_str().unwrap().contains("DELETE"), "{body}");
    let get_answer = daemon.get(&format!("/api/questions/{id}/answer")).await;
    let body = assert_error(get_answer, 405, None).await;
    assert!(body["error"].as_str().unwrap().contains("POST"), "{body}");
    let put_health = daemon.put("/api/health", &json!({})).await;
    assert_error(put_health, 405, None).await;
    // A path that is not even UTF-8.
    let bad_utf8 = raw(
        daemon.port,
        &format!(
            "POST /api/questions/%FF%FE/decline HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n",
            daemon.port
        ),
    );
    assert!(bad_utf8.starts_with("HTTP/1.1 400"), "{bad_utf8}");
    assert!(
        header_of(&bad_utf8, "content-type").is_some_and(|t| t.starts_with("application/json")),
        "{bad_utf8}"
    );
    let body: Value =
        serde_json::from_str(bad_utf8.split("\r\n\r\n").nth(1).unwrap_or_default()).unwrap();
    assert_eq!(body["field"], "id", "{body}");
}

#[tokio::test]
async fn every_file_under_hark_home_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--require-token"]);
    // Questions and answers go through the write-ahead log, so it exists with data in it.
    let token = std::fs::read_to_string(daemon.home.path().join("token")).unwrap();
    let question: Value = daemon
        .http
        .post(daemon.url("/api/questions"))
        .bearer_auth(token.trim())
        .json(&yes_no())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(question["id"].is_string());
    let mut seen = Vec::new();
    let mut folders = vec![daemon.home.path().to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
            let name = entry.file_name().to_string_lossy().into_owned();
            assert_eq!(mode & 0o077, 0, "{name} is {mode:o}");
            if entry.file_type().unwrap().is_dir() {
                folders.push(entry.path());
            }
            seen.push(name);
        }
    }
    for expected in ["hark.db", "hark.db-wal", "hark.db-shm", "token"] {
        assert!(seen.iter().any(|name| name == expected), "{seen:?}");
    }
}

#[tokio::test]
async fn a_websocket_message_bigger_than_a_few_kib_closes_the_socket() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let daemon = Daemon::start();
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/api/ws", daemon.port))
            .await
            .unwrap();
    let init = socket.next().await.unwrap().unwrap();
    assert!(init.to_text().unwrap().contains("\"init\""));
    // A ping-sized message is fine.
    socket.send(Message::text("ping")).await.unwrap();
    let _ = socket.send(Message::text("x".repeat(64 * 1024))).await;
    let mut closed = false;
    for _ in 0..10 {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => {
                if let Some(frame) = frame {
                    assert_eq!(u16::from(frame.code), 1009, "message too big");
                }
                closed = true;
                break;
            }
            Ok(None | Some(Err(_))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(_))) => continue,
            Err(_) => break,
        }
    }
    assert!(
        closed,
        "the daemon closes a socket that sends a huge message"
    );
    assert_eq!(daemon.get("/api/health").await.status(), 200);
}

#[tokio::test]
async fn the_host_header_must_name_this_port() {
    let daemon = Daemon::start();
    for host in ["127.0.0.1:1", "localhost:80", "127.0.0.1", "[::1]:65535"] {
        let answer = raw(
            daemon.port,
            &format!("GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        );
        assert!(answer.starts_with("HTTP/1.1 421"), "{host}: {answer}");
    }
    let right = raw(
        daemon.port,
        &format!(
            "GET /api/health HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
            daemon.port
        ),
    );
    assert!(right.starts_with("HTTP/1.1 200"), "{right}");
}

#[tokio::test]
async fn failures_inside_the_daemon_say_where_to_look_not_what_broke() {
    let home = tempfile::tempdir().unwrap();
    let log = home.path().join("test.log");
    let daemon = Daemon::start_logging(tempfile::tempdir().unwrap(), &[], &log);
    daemon.ask(&yes_no()).await;
    // The disk starts refusing writes, with words that must stay in the daemon's log.
    let database = rusqlite::Connection::open(daemon.home.path().join("hark.db")).unwrap();
    database
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON questions \
             BEGIN SELECT RAISE(FAIL, 'disk says no at /secret/path'); END;",
        )
        .unwrap();
    let refused = daemon.post("/api/questions", &yes_no()).await;
    let body = assert_error(refused, 503, None).await;
    let sentence = body["error"].as_str().unwrap();
    assert!(
        !sentence.contains("secret") && !sentence.contains("disk says no"),
        "{sentence}"
    );
    let incident = sentence
        .split("incident ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("an incident id in {sentence:?}"));
    // The token cannot be replaced: its file's place is taken by a folder.
    let token = daemon.home.path().join("token");
    let _ = std::fs::remove_file(&token);
    std::fs::create_dir(&token).unwrap();
    let rotate = daemon.post("/api/token/rotate", &json!({})).await;
    let body = assert_error(rotate, 500, None).await;
    let rotate_sentence = body["error"].as_str().unwrap();
    assert!(rotate_sentence.contains("incident"), "{rotate_sentence}");
    assert!(
        !rotate_sentence.contains(&daemon.home.path().display().to_string())
            && !rotate_sentence.to_lowercase().contains("directory"),
        "{rotate_sentence}"
    );
    // The log has the details under the id.
    let mut logged = String::new();
    for _ in 0..50 {
        logged = std::fs::read_to_string(&log).unwrap_or_default();
        if logged.contains(incident) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let line = logged
        .lines()
        .find(|line| line.contains(incident))
        .unwrap_or_else(|| panic!("incident {incident} in the log:\n{logged}"));
    assert!(line.contains("disk says no"), "{line}");
    assert_eq!(daemon.get("/api/health").await.status(), 200);
}

#[tokio::test]
async fn neither_a_lookalike_answer_link_nor_a_proxy_passes_for_this_machine() {
    // Every peer must pair here, so an exemption that leaks shows at once.
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--require-token"]);
    let token = std::fs::read_to_string(daemon.home.path().join("token")).unwrap();
    let asked = daemon
        .http
        .post(daemon.url("/api/questions"))
        .bearer_auth(token.trim())
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), 201);
    for target in ["/a/x/../../", "/a/x/%2e%2e/%2e%2e/", "/a/x/y/z", "/q/../"] {
        for method in ["GET", "POST"] {
            let answer = raw(
                daemon.port,
                &format!(
                    "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\
                     Connection: close\r\n\r\n",
                    daemon.port
                ),
            );
            assert!(
                answer.starts_with("HTTP/1.1 400") || answer.starts_with("HTTP/1.1 401"),
                "{method} {target}: {answer}"
            );
            assert!(
                !answer.contains("Deploy"),
                "{method} {target} showed a question"
            );
        }
    }
    // A real answer link's shape still needs no token, and says only that it is unknown.
    let unknown = raw(
        daemon.port,
        &format!(
            "POST /a/0b7f3f8e-5f1c-4c1e-9a3e-2f6f1d3c4b5a/{} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n",
            "0".repeat(32),
            daemon.port
        ),
    );
    assert!(unknown.starts_with("HTTP/1.1 410"), "{unknown}");
}

#[tokio::test]
async fn a_request_through_a_reverse_proxy_needs_the_token_even_from_loopback() {
    let daemon = Daemon::start();
    daemon.ask(&yes_no()).await;
    for header in [
        "X-Forwarded-For: 100.101.102.103",
        "X-Forwarded-Host: desk.tail1234.ts.net",
        "Forwarded: for=100.101.102.103",
        "Tailscale-User-Login: someone@example.com",
    ] {
        let answer = raw(
            daemon.port,
            &format!(
                "GET /api/questions HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{header}\r\n\
                 Connection: close\r\n\r\n",
                daemon.port
            ),
        );
        assert!(answer.starts_with("HTTP/1.1 401"), "{header}: {answer}");
        assert!(!answer.contains("Deploy"));
    }
    assert_eq!(daemon.get("/api/questions").await.status(), 200);
}

#[tokio::test]
async fn no_refusal_writes_a_capability_or_a_token_into_the_log() {
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("daemon.log");
    let daemon = Daemon::start_logging(tempfile::tempdir().unwrap(), &[], &log);
    let id = daemon.ask(&yes_no()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let capability = "0123456789abcdef0123456789abcdef";
    let near_miss = "0123456789abcdef0123456789abcdeX";
    let secret = "tok3n-in-a-query";
    let port = daemon.port;
    let refusals = [
        // A wrong Host.
        format!(
            "POST /a/{id}/{capability}?token={secret} HTTP/1.1\r\nHost: evil.example:{port}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        ),
        // A cross-site post.
        format!(
            "POST /a/{id}/{near_miss}?token={secret} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
             Origin: http://evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
        // A path that could be read two ways.
        format!(
            "GET /a/{id}/{capability}/../x?token={secret} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
             Connection: close\r\n\r\n"
        ),
        // A request marked as this daemon's own channels'.
        format!(
            "POST /a/{id}/{capability}?token={secret} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
             X-Hark-Outbound: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    ];
    for request in &refusals {
        let answer = raw(port, request);
        assert!(!answer.starts_with("HTTP/1.1 2"), "refused: {answer}");
    }
    // Each refusal is logged as it is answered; the last one's line ends the wait.
    let mut written = String::new();
    for _ in 0..100 {
        written = std::fs::read_to_string(&log).unwrap_or_default();
        if written.matches("request rejected").count() >= refusals.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(
        written.matches("request rejected").count() >= refusals.len(),
        "{written}"
    );
    assert!(written.contains(&format!("/a/{id}/…")), "{written}");
    for kept_out in [capability, near_miss, secret] {
        assert!(
            !written.contains(kept_out),
            "{kept_out} in the log: {written}"
        );
    }
}

#[tokio::test]
async fn markup_in_a_preset_stays_text_in_the_settings_page() {
    let daemon = Daemon::start();
    let planted = r#"</textarea><form id="planted" action="/api/token/rotate" method="post"><button>Go</button></form>"#;
    let saved = daemon
        .put("/api/config", &json!({"presets": [planted]}))
        .await;
    assert_eq!(saved.status(), 200);
    let html = daemon.get("/settings").await.text().await.unwrap();
    assert!(
        !html.contains(r#"<form id="planted""#),
        "the form is not live markup"
    );
    assert!(
        html.contains("&lt;/textarea>&lt;form id=\"planted\""),
        "the preset is in its box as text"
    );
}
