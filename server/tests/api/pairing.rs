//! Pairing and the token (SPEC §6): a daemon that asks every peer for the token (the same
//! check a phone on the LAN meets) refuses each kind of route without it, admits a bearer or
//! the cookie, pairs a browser from `/?token=`, slows down guessing, keeps the token out of its
//! log, and ends old sessions on rotation. A peer off this machine is presented through axum's
//! `MockConnectInfo` to the real router, served over real HTTP on 127.0.0.1.

use crate::api::events::next_event;
use crate::api::support::*;
use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn paired_daemon(log: Option<&std::path::Path>) -> Daemon {
    let home = tempfile::tempdir().unwrap();
    match log {
        Some(log) => Daemon::start_logging(home, &[("HARK_REQUIRE_TOKEN", "true")], log),
        None => Daemon::start_with(home, &[("HARK_REQUIRE_TOKEN", "true")]),
    }
}

async fn ws(daemon: &Daemon, header: Option<(&'static str, String)>) -> Result<Socket, StatusCode> {
    let mut request = format!("ws://127.0.0.1:{}/api/ws", daemon.port)
        .into_client_request()
        .unwrap();
    if let Some((name, value)) = header {
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(StatusCode::from_u16(response.status().as_u16()).unwrap())
        }
        Err(other) => panic!("{other}"),
    }
}

type Socket = crate::api::events::Socket;

#[tokio::test]
async fn the_token_is_private_and_every_kind_of_route_needs_it() {
    let daemon = paired_daemon(None);
    let token = daemon.token();
    assert_eq!(token.len(), 64);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(daemon.home.path().join("token"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let question = {
        let response = daemon
            .http
            .post(daemon.url("/api/questions"))
            .bearer_auth(&token)
            .json(&yes_no())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        response.json::<Value>().await.unwrap()
    };
    let page = format!("/q/{}", question["id"].as_str().unwrap());
    let routes = [
        "/",
        page.as_str(),
        "/settings",
        "/pkg/hark.css",
        "/api/questions",
        "/api/health",
    ];
    for path in routes {
        let bare = daemon.get(path).await;
        assert_eq!(bare.status(), 401, "{path} without a token");
        let with_bearer = daemon
            .http
            .get(daemon.url(path))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(with_bearer.status(), 200, "{path} with the bearer");
        let with_cookie = daemon
            .http
            .get(daemon.url(path))
            .header("cookie", format!("hark_lang=en; hark_token={token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(with_cookie.status(), 200, "{path} with the cookie");
    }
    // A tool is told which field is wrong; a browser gets a page in its language.
    let refused = daemon.get("/api/questions").await;
    assert_eq!(
        refused.headers()["www-authenticate"],
        "Bearer realm=\"hark\""
    );
    assert_error(refused, 401, Some("token")).await;
    let page_refused = daemon
        .http
        .get(daemon.url("/"))
        .header("accept", "text/html")
        .header("accept-language", "ru")
        .send()
        .await
        .unwrap();
    assert_eq!(page_refused.status(), 401);
    let html = page_refused.text().await.unwrap();
    assert!(
        html.contains("<html lang=\"ru\"") && html.contains("Сначала подключите это устройство")
    );
    assert!(!html.contains(&token));

    // Server functions and the event stream too.
    let answer = daemon
        .http
        .post(daemon.url("/fn/submit_answer"))
        .form(&[("id", question["id"].as_str().unwrap())])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 401);
    assert_eq!(
        ws(&daemon, None).await.err(),
        Some(StatusCode::UNAUTHORIZED)
    );
    let mut socket = ws(&daemon, Some(("cookie", format!("hark_token={token}"))))
        .await
        .expect("the cookie opens the stream");
    assert_eq!(next_event(&mut socket).await["event"], "init");
    let read: Value = daemon
        .http
        .get(daemon.url(&format!(
            "/api/questions/{}",
            question["id"].as_str().unwrap()
        )))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        read["status"], "pending",
        "nothing was answered without the token"
    );
}

#[tokio::test]
async fn the_pairing_url_sets_the_cookie_and_drops_the_token_from_the_address() {
    let daemon = paired_daemon(None);
    let token = daemon.token();
    let response = daemon.get(&format!("/?token={token}")).await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/");
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with(&format!("hark_token={token};")));
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(
        !cookie.contains("Domain"),
        "scoped to this server: {cookie}"
    );
    let deep = daemon
        .get(&format!("/settings?a=1&token={token}&b=2"))
        .await;
    assert_eq!(deep.headers()["location"], "/settings?a=1&b=2");
    let stale = daemon.get("/?token=0000").await;
    assert_eq!(stale.status(), 401);
    assert!(stale.headers().get("set-cookie").is_none());
}

#[tokio::test]
async fn guessing_is_slowed_down_and_no_token_reaches_the_log() {
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("daemon.log");
    let daemon = paired_daemon(Some(&log));
    let token = daemon.token();
    assert_eq!(daemon.get(&format!("/?token={token}")).await.status(), 303);
    let guess = "ab".repeat(32);
    let guessing = format!("authorization: Bearer {guess}");
    let list = daemon.url("/api/questions");
    // Another account guesses: it is slowed down, this user is not.
    if !can_take_another_uid() {
        return;
    }
    for attempt in 0..10 {
        assert_eq!(
            curl_as_nobody(&["-H", &guessing, &list]),
            "401",
            "attempt {attempt}"
        );
    }
    let right = format!("authorization: Bearer {token}");
    assert_eq!(
        curl_as_nobody(&["-H", &right, &list]),
        "429",
        "even the right token waits out the lock"
    );
    let locked = daemon
        .http
        .get(daemon.url("/api/questions"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        locked.status(),
        200,
        "this user is not locked out by another"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("a wrong token"),
        "rejections are logged with their reason"
    );
    assert!(!text.contains(&token), "the token never reaches the log");
    assert!(!text.contains(&guess), "nor a guess");
}

#[tokio::test]
async fn rotating_ends_old_sessions_at_once() {
    let daemon = paired_daemon(None);
    let old = daemon.token();
    let mut socket = ws(&daemon, Some(("cookie", format!("hark_token={old}"))))
        .await
        .unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");
    let rotated = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["token", "--rotate", "--port", &daemon.port.to_string()])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .unwrap();
    assert!(rotated.status.success(), "{rotated:?}");
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                None | Some(Err(_)) => return true,
                Some(Ok(message)) if message.is_close() => return true,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true), "the old session's stream was closed");
    let new = daemon.token();
    assert_ne!(old, new);
    let with_old = daemon
        .http
        .get(daemon.url("/api/questions"))
        .bearer_auth(&old)
        .send()
        .await
        .unwrap();
    assert_eq!(with_old.status(), 401);
    let with_new = daemon
        .http
        .get(daemon.url("/api/questions"))
        .bearer_auth(&new)
        .send()
        .await
        .unwrap();
    assert_eq!(with_new.status(), 200);
}

#[tokio::test]
async fn foreign_hosts_and_origins_stay_out_even_with_the_token() {
    let daemon = paired_daemon(None);
    let token = daemon.token();
    let foreign_host = daemon
        .http
        .get(daemon.url("/api/questions"))
        .bearer_auth(&token)
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_host.status(), 421);
    let foreign_origin = daemon
        .http
        .post(daemon.url("/api/questions"))
        .bearer_auth(&token)
        .header("origin", "http://evil.example")
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_origin.status(), 403);
}

#[tokio::test]
async fn hark_url_says_how_to_reach_the_page() {
    let daemon = paired_daemon(None);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["url", "--port", &daemon.port.to_string()])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(&format!("http://127.0.0.1:{}/", daemon.port)),
        "{text}"
    );
    assert!(text.contains("hark serve --lan"), "{text}");
    // The link for this computer's browser logs it in once, though this daemon asks for the
    // token.
    let link = text
        .split_whitespace()
        .find(|word| word.contains("?login="))
        .unwrap_or_else(|| panic!("a one-time login in {text}"));
    let response = daemon.http.get(link).send().await.unwrap();
    assert_eq!(response.status(), 303);
    assert!(response.headers().contains_key("set-cookie"));
    let stopped = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["url", "--port", "1"])
        .env("HARK_HOME", daemon.home.path())
        .output()
        .unwrap();
    assert!(!stopped.status.success());
}
