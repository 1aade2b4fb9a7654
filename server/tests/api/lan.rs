//! LAN mode as a phone meets it: the real router, served over real HTTP on 127.0.0.1, with
//! axum's `MockConnectInfo` presenting every request as coming from 192.168.1.50. Beside it,
//! the same policy through the daemon's own listener, where this machine needs no token.

use axum::extract::connect_info::MockConnectInfo;
use hark::http::state::AppState;
use hark::security::access::Access;
use hark::security::token::Tokens;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

struct Lan {
    base: String,
    port: u16,
    access: Arc<Access>,
    http: reqwest::Client,
    _shutdown: tokio_util::sync::DropGuard,
}

/// A LAN-mode router; `phone` presents every peer as 192.168.1.50, else peers are real.
async fn lan(phone: bool) -> Lan {
    let shutdown = CancellationToken::new();
    let (store, _) = hark_core::store::Store::open(None, shutdown.clone());
    let access = Arc::new(Access::new(
        Tokens::new(None),
        true,
        false,
        &["desk.example.lan".to_string()],
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let router = hark::router(AppState::new(store, access.clone(), port));
    if phone {
        let router = router.layer(MockConnectInfo(SocketAddr::from((
            [192, 168, 1, 50],
            50_000,
        ))));
        let stop = shutdown.clone();
        tokio::spawn(async move {
            axum::serve(listener, router.into_make_service())
                .with_graceful_shutdown(stop.cancelled_owned())
                .await
        });
    } else {
        tokio::spawn(hark::http::listen::serve(
            listener,
            router,
            shutdown.clone(),
            access.clone(),
        ));
    }
    Lan {
        base: format!("http://127.0.0.1:{port}"),
        port,
        access,
        http: reqwest::Client::builder()
            .pool_idle_timeout(hark::client::IDLE_CONNECTION)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        _shutdown: shutdown.drop_guard(),
    }
}

#[tokio::test]
async fn a_phone_needs_the_token_on_every_route() {
    let lan = lan(true).await;
    let token = lan.access.tokens.current().unwrap();
    for path in [
        "/",
        "/settings",
        "/pkg/hark.css",
        "/api/questions",
        "/api/ws",
        "/api/pairing",
    ] {
        let bare = lan
            .http
            .get(format!("{}{path}", lan.base))
            .send()
            .await
            .unwrap();
        assert_eq!(bare.status(), 401, "{path}");
    }
    for path in ["/", "/settings", "/api/questions", "/api/pairing"] {
        let paired = lan
            .http
            .get(format!("{}{path}", lan.base))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(paired.status(), 200, "{path}");
    }
    let pairs = lan
        .http
        .get(format!("{}/?token={token}", lan.base))
        .send()
        .await
        .unwrap();
    assert_eq!(pairs.status(), 303);
    assert!(
        pairs.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("HttpOnly")
    );
    let foreign = lan
        .http
        .get(format!("{}/", lan.base))
        .bearer_auth(&token)
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        foreign.status(),
        421,
        "a foreign Host stays out in LAN mode"
    );
    let configured = lan
        .http
        .get(format!("{}/api/health", lan.base))
        .bearer_auth(&token)
        .header("host", format!("desk.example.lan:{}", lan.port))
        .send()
        .await
        .unwrap();
    assert_eq!(
        configured.status(),
        200,
        "a name from config `hosts` is this machine"
    );
    let foreign_origin = lan
        .http
        .post(format!("{}/api/questions", lan.base))
        .bearer_auth(&token)
        .header("origin", "http://evil.example")
        .json(&serde_json::json!({"questions": [{"question": "?"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_origin.status(), 403);
}

#[tokio::test]
async fn this_machine_needs_no_token_and_sees_the_pairing_qr_code() {
    let lan = lan(false).await;
    let pairing: Value = lan
        .http
        .get(format!("{}/api/pairing", lan.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(pairing["lan"], true);
    assert_eq!(
        pairing["localUrl"],
        format!("http://127.0.0.1:{}/", lan.port)
    );
    let token = lan.access.tokens.current().unwrap();
    let settings = lan
        .http
        .get(format!("{}/settings", lan.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    match hark::security::network::pairing_address() {
        Some(address) => {
            let url = format!("http://{address}:{}/?token={token}", lan.port);
            assert_eq!(pairing["lanUrl"], url.as_str());
            assert!(
                settings.contains(&url),
                "the settings page shows the pairing URL"
            );
            assert!(settings.contains("data-testid=\"pairing-qr\"") && settings.contains("<svg"));
            // A phone may use this machine's address as its Host.
            let by_address = lan
                .http
                .get(format!("{}/api/health", lan.base))
                .header("host", format!("{address}:{}", lan.port))
                .send()
                .await
                .unwrap();
            assert_eq!(by_address.status(), 200);
        }
        None => assert!(pairing.get("lanUrl").is_none()),
    }
}

#[tokio::test]
async fn without_lan_mode_the_settings_page_says_how_to_turn_it_on() {
    let shutdown = CancellationToken::new();
    let (store, _) = hark_core::store::Store::open(None, shutdown.clone());
    let access = Arc::new(Access::new(Tokens::new(None), false, false, &[]));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(hark::http::listen::serve(
        listener,
        hark::router(AppState::new(store, access.clone(), port)),
        shutdown.clone(),
        access,
    ));
    let _stop = shutdown.drop_guard();
    let settings = reqwest::get(format!("http://127.0.0.1:{port}/settings"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(settings.contains("data-testid=\"pairing-off\""));
    assert!(settings.contains("hark serve --lan"));
    assert!(!settings.contains("pairing-qr"));
}
