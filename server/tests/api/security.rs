//! SPEC §6 on loopback: Host allow-list, Origin checks, no CORS, security headers.

use crate::api::events::connect;
use crate::api::support::*;
use serde_json::Value;

#[tokio::test]
async fn a_foreign_host_is_refused_everywhere() {
    let daemon = Daemon::start();
    for path in ["/api/health", "/", "/api/questions", "/pkg/hark.js"] {
        let response = daemon
            .http
            .get(daemon.url(path))
            .header("host", format!("evil.example:{}", daemon.port))
            .send()
            .await
            .unwrap();
        assert_error(response, 421, None).await;
    }
    let ok = daemon
        .http
        .get(daemon.url("/api/health"))
        .header("host", format!("localhost:{}", daemon.port))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
}

#[tokio::test]
async fn a_foreign_origin_cannot_post_or_open_the_event_stream() {
    let daemon = Daemon::start();
    let cross_site = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("origin", "https://evil.example")
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_error(cross_site, 403, None).await;
    let other_port = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header(
            "origin",
            format!("http://127.0.0.1:{}", daemon.port.wrapping_add(1)),
        )
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_error(other_port, 403, None).await;
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["pending"], 0);

    let same_origin = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("origin", format!("http://localhost:{}", daemon.port))
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(same_origin.status(), 201);

    // Under no-referrer a browser's form post says `Origin: null`; fetch metadata tells
    // whether it came from this server's own page.
    let null_cross_site = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("origin", "null")
        .header("sec-fetch-site", "cross-site")
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_error(null_cross_site, 403, None).await;
    let null_same_origin = daemon
        .http
        .post(daemon.url("/api/questions"))
        .header("origin", "null")
        .header("sec-fetch-site", "same-origin")
        .json(&yes_no())
        .send()
        .await
        .unwrap();
    assert_eq!(null_same_origin.status(), 201);

    let refused = connect(&daemon, Some("https://evil.example")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        other => panic!("a cross-site WebSocket must be refused, got {other:?}"),
    }
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["browserClients"], 0);
}

#[tokio::test]
async fn no_cors_headers_and_security_headers_everywhere() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let preflight = daemon
        .http
        .request(reqwest::Method::OPTIONS, daemon.url("/api/questions"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(
        preflight
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
    for path in [
        "/api/health",
        "/api/questions",
        "/",
        &format!("/q/{id}"),
        "/nope",
    ] {
        let response = daemon
            .http
            .get(daemon.url(path))
            .header("origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        let headers = response.headers();
        assert!(
            headers.get("access-control-allow-origin").is_none(),
            "{path}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            !csp.contains("'unsafe-inline'") || !script_src(csp).contains("'unsafe-inline'"),
            "{path}: {csp}"
        );
    }
}

fn script_src(csp: &str) -> &str {
    csp.split(';')
        .find(|part| part.trim().starts_with("script-src"))
        .unwrap_or("")
}

#[tokio::test]
async fn slow_clients_are_cut_off_and_do_not_starve_others() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let daemon = Daemon::start();
    // A slowloris: connections that start a request and never finish its headers.
    let mut slow = Vec::new();
    for _ in 0..20 {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", daemon.port))
            .await
            .unwrap();
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(stream);
    }
    // Everyone else is served meanwhile.
    assert_eq!(daemon.get("/api/health").await.status(), 200);
    // Each slow connection is closed once its headers are overdue (15 s), not kept forever.
    for stream in &mut slow {
        let mut buffer = [0_u8; 256];
        let read =
            tokio::time::timeout(std::time::Duration::from_secs(30), stream.read(&mut buffer))
                .await
                .expect("the daemon closes a connection whose headers never come");
        let bytes = read.unwrap_or(0);
        let answer = String::from_utf8_lossy(&buffer[..bytes]);
        assert!(bytes == 0 || answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    assert_eq!(daemon.get("/api/health").await.status(), 200);
}
