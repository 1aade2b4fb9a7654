//! Another account on the same machine (SPEC §16): its connections come from loopback too, but
//! their sockets are not the daemon's user's, so it needs the token like any stranger, on every
//! kind of route. The tests run curl as `nobody` (setpriv) against a daemon run by this user;
//! taking another uid needs root, so elsewhere they say they were skipped.

use crate::api::support::*;
use leptos::server_fn::ServerFn;

/// The headers of a WebSocket upgrade, as a browser sends them.
const UPGRADE: [&str; 8] = [
    "-H",
    "connection: Upgrade",
    "-H",
    "upgrade: websocket",
    "-H",
    "sec-websocket-version: 13",
    "-H",
    "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==",
];

/// Question `id`'s status, as this user reads it.
async fn status_of(daemon: &Daemon, id: &str) -> serde_json::Value {
    let shown: serde_json::Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    shown["status"].clone()
}

#[tokio::test]
async fn another_account_can_neither_read_nor_answer_without_the_token() {
    if !can_take_another_uid() {
        return;
    }
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let list = daemon.url("/api/questions");
    let answer = daemon.url(&format!("/api/questions/{id}/answer"));
    let picked = r#"{"answers":[{"selected":["Yes"]}]}"#;
    let post_answer = |extra: &[&str]| {
        let mut args = vec![
            "-X",
            "POST",
            "-H",
            "content-type: application/json",
            "-d",
            picked,
        ];
        args.extend_from_slice(extra);
        args.push(&answer);
        curl_as_nobody(&args)
    };
    assert_eq!(curl_as_nobody(&[&list]), "401", "a REST read");
    assert_eq!(post_answer(&[]), "401", "the answer route");
    assert_eq!(curl_as_nobody(&[&daemon.url("/")]), "401", "the page");
    assert_eq!(
        curl_as_nobody(&[&daemon.url(&format!("/q/{id}"))]),
        "401",
        "the question's page"
    );
    let catalogue = format!(
        "{}?lang=ja",
        daemon.url(app::i18n::page_catalogues::Catalogue::PATH)
    );
    assert_eq!(curl_as_nobody(&[&catalogue]), "401", "a server function");
    let ws = daemon.url("/api/ws");
    assert_eq!(
        curl_as_nobody(&[&UPGRADE[..], &[&ws]].concat()),
        "401",
        "the WebSocket"
    );
    assert_eq!(
        curl_as_nobody(&["-X", "POST", &daemon.url("/api/login")]),
        "401",
        "nor may it mint itself a login"
    );
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}"#;
    let mcp = [
        "-X",
        "POST",
        "-H",
        "content-type: application/json",
        "-H",
        "accept: application/json, text/event-stream",
        "-d",
        initialize,
    ];
    assert_eq!(
        curl_as_nobody(&[&mcp[..], &[&daemon.url("/mcp")]].concat()),
        "401",
        "MCP over HTTP"
    );
    assert_eq!(
        status_of(&daemon, id).await,
        "pending",
        "the question is unchanged"
    );

    // This user, on the same loopback, needs nothing, for the same routes.
    assert_eq!(daemon.get("/api/questions").await.status(), 200);
    assert_eq!(daemon.get(&format!("/q/{id}")).await.status(), 200);
    let mut page = crate::api::events::connect(&daemon, None)
        .await
        .expect("this user's WebSocket opens");
    assert_eq!(
        crate::api::events::next_event(&mut page).await["event"],
        "init"
    );

    // A guess is refused; with the token, which only this user can read, the other account
    // gets in and may answer.
    assert_eq!(
        curl_as_nobody(&["-H", "authorization: Bearer a-guess", &list]),
        "401"
    );
    let bearer = format!("authorization: Bearer {}", daemon.token());
    assert_eq!(curl_as_nobody(&["-H", &bearer, &list]), "200");
    assert_eq!(post_answer(&["-H", &bearer]), "200");
    assert_eq!(status_of(&daemon, id).await, "answered");
}

#[tokio::test]
async fn a_one_time_login_is_this_users_alone() {
    if !can_take_another_uid() {
        return;
    }
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--require-token"]);
    // What `hark url` and `hark open` ask for, with the token this user's CLI sends.
    let minted = daemon
        .http
        .post(daemon.url("/api/login"))
        .bearer_auth(daemon.token())
        .send()
        .await
        .unwrap();
    assert_eq!(minted.status(), 201);
    let login: hark_core::model::OneTimeLogin = minted.json().await.unwrap();
    let link = login.url(&daemon.url(""), "/");
    // Another account that read the link off a browser's command line gets nothing of it, and
    // does not use it up.
    assert_eq!(curl_as_nobody(&[&link]), "401");
    let response = daemon.http.get(&link).send().await.unwrap();
    assert_eq!(response.status(), 303, "this user's browser gets in");
    assert!(
        response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .starts_with("hark_token=")
    );
}

#[tokio::test]
async fn the_shim_and_hark_ask_work_for_a_daemon_that_asks_this_machine_for_the_token() {
    let daemon = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--require-token"]);
    assert_eq!(daemon.get("/api/questions").await.status(), 401);
    let asking = std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["ask", "Deploy now?", "-o", "Yes", "-o", "No", "--json"])
        .env("HARK_HOME", daemon.home.path())
        .env("HARK_PORT", daemon.port.to_string())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let bearer = format!("Bearer {}", daemon.token());
    let mut id = None;
    for _ in 0..200 {
        let pending: serde_json::Value = daemon
            .http
            .get(daemon.url("/api/questions?status=pending"))
            .header("authorization", &bearer)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if let Some(first) = pending["questions"].as_array().and_then(|all| all.first()) {
            id = first["id"].as_str().map(str::to_string);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let id = id.expect("hark ask asked");
    let answered = daemon
        .http
        .post(daemon.url(&format!("/api/questions/{id}/answer")))
        .header("authorization", &bearer)
        .json(&pick("Yes"))
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), 200);
    let output = asking.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("Yes"));
}

/// Debian's Python, which every account may run (a user's own, under `~`, may not be).
const PYTHON: &str = "/usr/bin/python3";

/// A server on `port` that prints each request's `Authorization` header, run as `nobody` or as
/// this user: what holds the port while Hark is down.
fn header_recorder(port: u16, as_nobody: bool) -> std::process::Child {
    let script = [
        "import http.server, sys",
        "class H(http.server.BaseHTTPRequestHandler):",
        "    def do_GET(self):",
        "        print(self.headers.get('authorization', '-'), flush=True)",
        "        self.send_response(200); self.end_headers(); self.wfile.write(b'{}')",
        "    def log_message(self, *a): pass",
        "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()",
    ]
    .join("\n");
    let mut command = if as_nobody {
        let mut command = std::process::Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups", PYTHON]);
        command
    } else {
        std::process::Command::new(PYTHON)
    };
    command
        .args(["-c", &script, &port.to_string()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("Python runs")
}

/// What the recorder on `port` heard when `hark status` asked it, with `home`'s token at hand.
fn heard_by(port: u16, as_nobody: bool, home: &std::path::Path) -> String {
    use std::io::BufRead;
    let mut recorder = header_recorder(port, as_nobody);
    let mut lines = std::io::BufReader::new(recorder.stdout.take().unwrap()).lines();
    // Once the recorder listens (a bare connection is no request to it), `hark status` asks.
    let listening = (0..100).any(|_| {
        let up = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
        if !up {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        up
    });
    assert!(listening, "the recorder listens");
    std::process::Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["status", "--port", &port.to_string()])
        .env("HARK_HOME", home)
        .output()
        .unwrap();
    let heard = lines.next().and_then(Result::ok);
    let _ = recorder.kill();
    let _ = recorder.wait();
    heard.expect("the recorder heard a request")
}

#[test]
fn this_users_token_is_never_sent_to_another_accounts_server() {
    if !can_take_another_uid() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let token = "ab".repeat(32);
    std::fs::write(home.path().join("token"), format!("{token}\n")).unwrap();
    let port = || {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    };
    assert_eq!(
        heard_by(port(), true, home.path()),
        "-",
        "another account holding the port hears no token"
    );
    assert_eq!(
        heard_by(port(), false, home.path()),
        format!("Bearer {token}"),
        "a server of this user does"
    );
}
