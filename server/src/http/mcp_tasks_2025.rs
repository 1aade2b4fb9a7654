//! `/mcp` for a 2025-11-25 client that uses that revision's experimental tasks: the stdio
//! shim's bridge (`mcp::tasks_2025::bridge`), one per MCP session, around rmcp's Streamable HTTP
//! service. A POST's message is rewritten on its way in, and the answer on its way out, whether
//! rmcp sends it as JSON or as a Server-Sent Events stream (each event's `data` line is one
//! message). A session's bridge is made at its `initialize` and dropped at its `DELETE`, or,
//! past `SESSIONS_KEPT`, the one used least lately first (a session rmcp drops after a day idle
//! leaves its bridge until then).

use crate::mcp::tasks_2025::bridge::Bridge;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use hark_core::model::limits::MAX_BODY_BYTES;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

const SESSION_HEADER: &str = "mcp-session-id";
/// Sessions whose bridge is kept at most (a session idle for a day is dropped by rmcp anyway).
const SESSIONS_KEPT: usize = 1024;
/// The largest answer read whole to be rewritten (the question's whole history fits).
const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

type Shared = Arc<Mutex<Bridge>>;

/// Every session's bridge, by its `Mcp-Session-Id`, oldest first.
#[derive(Default)]
pub struct Bridges {
    sessions: Mutex<VecDeque<(String, Shared)>>,
}

impl Bridges {
    /// The session's bridge, now the most lately used.
    fn of(&self, session: &str) -> Option<Shared> {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let at = sessions.iter().position(|(id, _)| id == session)?;
        let found = sessions.remove(at)?;
        let bridge = found.1.clone();
        sessions.push_back(found);
        Some(bridge)
    }

    fn keep(&self, session: String, bridge: Shared) {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if sessions.len() >= SESSIONS_KEPT {
            sessions.pop_front();
        }
        sessions.push_back((session, bridge));
    }

    fn forget(&self, session: &str) {
        self.sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .retain(|(id, _)| id != session);
    }
}

fn session_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get(SESSION_HEADER)
        .and_then(|value| value.to_str().ok())
        .map(str::to_string)
}

/// One message rewritten by `rewrite`, or the bytes as they were when they are not one.
fn rewritten(bytes: &[u8], bridge: &Shared, rewrite: fn(&mut Bridge, Value) -> Value) -> Vec<u8> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(message) if message.is_object() => {
            let message = rewrite(
                &mut bridge.lock().unwrap_or_else(|poison| poison.into_inner()),
                message,
            );
            serde_json::to_vec(&message).unwrap_or_else(|_| bytes.to_vec())
        }
        _ => bytes.to_vec(),
    }
}

/// The layer: rewrites a POST's message and its answer for the session's bridge.
pub async fn bridge(State(bridges): State<Arc<Bridges>>, request: Request, next: Next) -> Response {
    let session = session_of(request.headers());
    if request.method() == Method::DELETE {
        if let Some(session) = &session {
            bridges.forget(session);
        }
        return next.run(request).await;
    }
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    // A message for a session Hark has not seen (a restart) starts a bridge of its own: it
    // knows nothing of the revision, so it leaves everything as it is.
    let known = session.as_deref().and_then(|session| bridges.of(session));
    let bridge = known.clone().unwrap_or_default();
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        return (
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is too large",
        )
            .into_response();
    };
    let bytes = rewritten(&bytes, &bridge, Bridge::client_said);
    let mut parts = parts;
    parts.headers.remove(header::CONTENT_LENGTH);
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if known.is_none()
        && let Some(session) = session_of(response.headers())
    {
        bridges.keep(session, bridge.clone());
    }
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if kind.starts_with("application/json") {
        let (mut parts, body) = response.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_ANSWER_BYTES).await else {
            return axum::http::StatusCode::BAD_GATEWAY.into_response();
        };
        parts.headers.remove(header::CONTENT_LENGTH);
        let bytes = rewritten(&bytes, &bridge, Bridge::server_said);
        Response::from_parts(parts, Body::from(bytes))
    } else if kind.starts_with("text/event-stream") {
        let (parts, body) = response.into_parts();
        Response::from_parts(parts, events_rewritten(body, bridge))
    } else {
        response
    }
}

/// Server-Sent Events, put back together from the body's chunks, each event's message
/// rewritten.
#[derive(Default)]
struct Events {
    buffer: Vec<u8>,
}

impl Events {
    /// The complete events in `chunk` (with what came before), rewritten.
    fn push(&mut self, chunk: &[u8], bridge: &Shared) -> Option<Bytes> {
        // Only the new bytes (and the one before them) can end an event.
        let mut from = self.buffer.len().saturating_sub(1);
        self.buffer.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some(end) = self.buffer[from..]
            .windows(2)
            .position(|window| window == b"\n\n")
        {
            let event: Vec<u8> = self.buffer.drain(..from + end + 2).collect();
            out.extend(event_rewritten(&event, bridge));
            from = 0;
        }
        // An event larger than any answer is passed on as it is, unread.
        if self.buffer.len() > MAX_ANSWER_BYTES {
            out.append(&mut self.buffer);
        }
        (!out.is_empty()).then(|| Bytes::from(out))
    }

    /// What is left when the stream ends.
    fn rest(&mut self) -> Option<Bytes> {
        (!self.buffer.is_empty()).then(|| Bytes::from(std::mem::take(&mut self.buffer)))
    }
}

/// One event (its lines and the blank line that ends it), its `data` rewritten.
fn event_rewritten(event: &[u8], bridge: &Shared) -> Vec<u8> {
    let mut out = Vec::with_capacity(event.len());
    for line in event.split_inclusive(|byte| *byte == b'\n') {
        match line.strip_prefix(b"data:") {
            Some(data) => {
                let data = data.strip_suffix(b"\n").unwrap_or(data);
                let data = data.strip_prefix(b" ").unwrap_or(data);
                out.extend_from_slice(b"data: ");
                out.extend(rewritten(data, bridge, Bridge::server_said));
                out.push(b'\n');
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

fn events_rewritten(body: Body, bridge: Shared) -> Body {
    let chunks = body.into_data_stream();
    let stream = futures::stream::unfold(
        (chunks, Events::default(), bridge, false),
        |(mut chunks, mut events, bridge, ended)| async move {
            if ended {
                return None;
            }
            loop {
                match chunks.next().await {
                    Some(Ok(chunk)) => {
                        if let Some(out) = events.push(&chunk, &bridge) {
                            return Some((Ok(out), (chunks, events, bridge, false)));
                        }
                    }
                    Some(Err(error)) => return Some((Err(error), (chunks, events, bridge, true))),
                    None => {
                        let rest = events.rest()?;
                        return Some((Ok(rest), (chunks, events, bridge, true)));
                    }
                }
            }
        },
    );
    Body::from_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_split_anywhere_come_out_whole_and_rewritten() {
        let bridge: Shared = Shared::default();
        // The client's initialize at 2025-11-25, then rmcp's answer as an event in pieces.
        rewritten(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
            .to_string()
            .as_bytes(),
            &bridge,
            Bridge::client_said,
        );
        let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25",
                            "capabilities": {"tools": {}}}});
        let stream = format!("id: 0\nretry: 3000\ndata: \n\ndata: {answer}\n\n");
        let mut events = Events::default();
        let mut out = Vec::new();
        for piece in stream.as_bytes().chunks(7) {
            if let Some(bytes) = events.push(piece, &bridge) {
                out.extend_from_slice(&bytes);
            }
        }
        assert!(events.rest().is_none());
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("id: 0\nretry: 3000\ndata: \n\n"), "{out}");
        let data = out.lines().find(|line| line.contains("jsonrpc")).unwrap();
        let message: Value = serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap();
        assert!(message["result"]["capabilities"]["tasks"]["requests"].is_object());
    }
}
