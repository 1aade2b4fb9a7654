//! The channels' one HTTP client, and how it reads what servers answer. It follows no redirect:
//! a receiver answering 307 to this daemon's own API (or 302 to any service on this machine)
//! must not make the daemon post there, so a redirect is a failed delivery naming its status.
//! Every request carries `OUTBOUND_MARK`, which this daemon's own listener refuses, so a
//! channel whose address leads back to Hark cannot drive its API from loopback. An answer is
//! read up to a cap: a server's 32 MB reply must not become 32 MB of the daemon's memory. The
//! chat services' WebSockets are opened within a time limit too.

use super::Relay;
use super::status::describe;
use crate::security::access::OUTBOUND_MARK;
use hark_core::model::{ChannelError, ChannelName};
use std::time::Duration;
use tokio_tungstenite::tungstenite::{self, handshake::client::Response};

/// The most of an answer any channel reads (Telegram's largest, 100 updates, is far below).
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

/// The client every channel sends through, each request given up after `timeout`.
pub fn client(timeout: Duration) -> reqwest::Client {
    let mut marked = reqwest::header::HeaderMap::new();
    marked.insert(
        OUTBOUND_MARK,
        reqwest::header::HeaderValue::from_static("1"),
    );
    reqwest::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(marked)
        .user_agent(concat!("hark/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_default()
}

/// Sends `request` for `channel` to `target` and records how it went in its status: an answer
/// that is not a success is a failure, in a sentence (`said` may add to it) naming no address.
///
/// # Errors
/// `Undelivered`, with that sentence.
pub async fn delivered(
    relay: &Relay,
    channel: ChannelName,
    target: &str,
    request: reqwest::RequestBuilder,
    said: impl FnOnce(String) -> String,
) -> Result<(), ChannelError> {
    let answered = request.send().await.map_err(|error| describe(&error));
    let Err(reason) = answered.and_then(|response| refusal(&response).map_or(Ok(()), Err)) else {
        relay.statuses.sent(channel, target);
        return Ok(());
    };
    let reason = said(reason);
    relay.statuses.failed(channel, target, reason.clone());
    Err(ChannelError::Undelivered(reason))
}

/// Why an answer was not taken, in a sentence that names no address.
fn refusal(response: &reqwest::Response) -> Option<String> {
    let status = response.status();
    if status.is_success() {
        None
    } else if status.is_redirection() {
        Some(format!(
            "the server answered {status}, a redirect, which Hark does not follow"
        ))
    } else {
        Some(format!("the server answered {status}"))
    }
}

/// What stopped an answer from being read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the answer was over {} MB and was not read", .0 / (1024 * 1024))]
    TooLarge(usize),
    #[error("{}", super::status::describe(.0))]
    Failed(#[from] reqwest::Error),
}

/// The answer's body, up to `cap` bytes; more is refused without being read.
pub async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<Vec<u8>, ReadError> {
    if response
        .content_length()
        .is_some_and(|length| length > cap as u64)
    {
        return Err(ReadError::TooLarge(cap));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > cap {
            return Err(ReadError::TooLarge(cap));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// How long opening a chat service's WebSocket (TCP, TLS, the upgrade) may take.
pub const WEBSOCKET_OPEN: Duration = Duration::from_secs(15);

/// A chat service's WebSocket, as `open_websocket` opens it.
pub type WebSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the WebSocket at `address` (Slack's, Discord's, Feishu's), given up after
/// `WEBSOCKET_OPEN`: a handshake that stalls would otherwise hold its connection loop, deaf to
/// new settings and to shutdown.
///
/// # Errors
/// What the library says, or a timed-out I/O error.
pub async fn open_websocket(address: &str) -> Result<(WebSocket, Response), tungstenite::Error> {
    let opening = tokio_tungstenite::connect_async(address);
    if let Ok(opened) = tokio::time::timeout(WEBSOCKET_OPEN, opening).await {
        return opened;
    }
    let late = format!(
        "the connection did not open within {} s",
        WEBSOCKET_OPEN.as_secs()
    );
    Err(std::io::Error::new(std::io::ErrorKind::TimedOut, late).into())
}

/// A WebSocket error's text, cut short and without the address's query (which may hold a
/// ticket).
pub fn unquoted(error: &tungstenite::Error) -> String {
    let text = error.to_string();
    hark_text::plain::cut(text.split('?').next().unwrap_or(&text), 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server on 127.0.0.1 answering `/sized` with `bytes` bytes, and `/streamed` with as
    /// many in chunks and no length given.
    async fn answering(bytes: usize) -> String {
        let router = axum::Router::new()
            .route(
                "/sized",
                axum::routing::get(move || async move { vec![b'x'; bytes] }),
            )
            .route(
                "/streamed",
                axum::routing::get(move || async move {
                    let chunks = (0..bytes.div_ceil(64 * 1024)).map(|_| {
                        Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![b'x'; 64 * 1024]))
                    });
                    axum::body::Body::from_stream(futures::stream::iter(chunks))
                }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        base
    }

    #[tokio::test]
    async fn an_answer_over_the_cap_is_refused_unread_with_or_without_its_length() {
        let http = client(Duration::from_secs(10));
        let base = answering(2 * MAX_ANSWER_BYTES).await;
        for path in ["/sized", "/streamed"] {
            let response = http.get(format!("{base}{path}")).send().await.unwrap();
            let read = read_capped(response, MAX_ANSWER_BYTES).await;
            assert!(
                matches!(read, Err(ReadError::TooLarge(_))),
                "{path}: {read:?}"
            );
        }
        let small = answering(1000).await;
        let response = http.get(format!("{small}/streamed")).send().await.unwrap();
        assert_eq!(
            read_capped(response, MAX_ANSWER_BYTES).await.unwrap().len(),
            64 * 1024
        );
    }
}
