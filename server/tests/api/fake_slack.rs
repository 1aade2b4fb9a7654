//! A stand-in for Slack on 127.0.0.1: the Web API methods Hark calls (`auth.test`,
//! `apps.connections.open`, `conversations.open`, `chat.postMessage`, `chat.update`,
//! `views.open`), each checking its token in `Authorization: Bearer` as Slack does (the
//! app-level token for `apps.connections.open` only), and the Socket Mode link: `hello` on
//! connect, envelopes the test injects (direct messages, button taps, checkbox changes, modal
//! submissions) with their acknowledgements recorded, `disconnect`, and a dropped link.

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub const BOT_TOKEN: &str = "xoxb-1111-2222-hark-test-bot-token";
pub const APP_TOKEN: &str = "xapp-1-A111-3333-hark-test-app-token";
/// The bot's own user, the person, and someone else in the workspace.
pub const BOT: &str = "UHARKBOT";
pub const ME: &str = "UPERSON1";
pub const STRANGER: &str = "USTRANGE";

#[derive(Default)]
struct Shared {
    calls: Mutex<Vec<(String, Value)>>,
    acks: Mutex<Vec<String>>,
    /// The open link's sender, when one is open.
    link: Mutex<Option<mpsc::UnboundedSender<Message>>>,
    links: AtomicU64,
    next_ts: AtomicU64,
    next_envelope: AtomicU64,
    down: AtomicBool,
    /// Every call is refused with an error that quotes the token back.
    echo_tokens: AtomicBool,
    port: AtomicU64,
}

/// The running stand-in.
#[derive(Clone)]
pub struct FakeSlack {
    pub base: String,
    shared: Arc<Shared>,
}

fn slack_ok(mut body: Value) -> Response {
    body["ok"] = json!(true);
    axum::Json(body).into_response()
}

fn slack_error(code: &str) -> Response {
    axum::Json(json!({"ok": false, "error": code})).into_response()
}

async fn method(
    State(shared): State<Arc<Shared>>,
    Path(method): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return (axum::http::StatusCode::BAD_GATEWAY, "<html>502</html>").into_response();
    }
    let params: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    let bearer = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default()
        .to_string();
    let wanted = if method == "apps.connections.open" {
        APP_TOKEN
    } else {
        BOT_TOKEN
    };
    if bearer.is_empty() {
        return slack_error("not_authed");
    }
    if shared.echo_tokens.load(Ordering::SeqCst) {
        return slack_error(&format!(
            "invalid_auth: {bearer} is not a token this app takes"
        ));
    }
    if bearer != wanted {
        // Slack's answer to a bot token where an app-level one belongs, and to a wrong one.
        return slack_error(if bearer.starts_with("xoxb-") && wanted == APP_TOKEN {
            "not_allowed_token_type"
        } else {
            "invalid_auth"
        });
    }
    // A posted message's ts is recorded with its call, under one lock, for the test to tap on.
    let ts = format!(
        "1800000000.{:06}",
        shared.next_ts.fetch_add(1, Ordering::SeqCst) + 1
    );
    {
        let mut recorded = params.clone();
        if method == "chat.postMessage" {
            recorded["ts"] = json!(ts);
        }
        shared
            .calls
            .lock()
            .unwrap()
            .push((method.clone(), recorded));
    }
    match method.as_str() {
        "auth.test" => slack_ok(json!({
            "url": "https://hark-test.slack.com/", "team": "Hark Test", "user": "hark",
            "team_id": "T0HARK", "user_id": BOT, "bot_id": "B0HARK"
        })),
        "apps.connections.open" => {
            let port = shared.port.load(Ordering::SeqCst);
            let ticket = shared.links.load(Ordering::SeqCst) + 1;
            slack_ok(
                json!({"url": format!("ws://127.0.0.1:{port}/link/?ticket={ticket}&app_id=A111")}),
            )
        }
        "conversations.open" => {
            let user = params["users"].as_str().unwrap_or_default();
            slack_ok(json!({"channel": {"id": format!("D{user}")}}))
        }
        "chat.postMessage" => slack_ok(json!({"channel": params["channel"], "ts": ts,
                            "message": {"text": params["text"], "ts": ts}})),
        "chat.update" => slack_ok(
            json!({"channel": params["channel"], "ts": params["ts"], "text": params["text"]}),
        ),
        "views.open" => {
            if params["trigger_id"].as_str().unwrap_or_default().is_empty() {
                return slack_error("invalid_trigger_id");
            }
            slack_ok(json!({"view": {"id": "V1", "type": "modal"}}))
        }
        _ => slack_error("unknown_method"),
    }
}

async fn link(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| serve_link(shared, socket))
}

async fn serve_link(shared: Arc<Shared>, socket: WebSocket) {
    let number = shared.links.fetch_add(1, Ordering::SeqCst) + 1;
    let (mut sink, mut stream) = socket.split();
    let (sender, mut outgoing) = mpsc::unbounded_channel::<Message>();
    *shared.link.lock().unwrap() = Some(sender.clone());
    let hello = json!({"type": "hello", "num_connections": 1,
        "debug_info": {"host": "applink-test", "build_number": 1, "approximate_connection_time": 18060},
        "connection_info": {"app_id": "A111"}});
    let _ = sender.send(Message::Text(hello.to_string().into()));
    let writer = tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            let closing = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || closing {
                return;
            }
        }
    });
    while let Some(Ok(message)) = stream.next().await {
        if let Message::Text(text) = message
            && let Ok(ack) = serde_json::from_str::<Value>(&text)
            && let Some(envelope) = ack["envelope_id"].as_str()
        {
            shared.acks.lock().unwrap().push(envelope.to_string());
        }
    }
    writer.abort();
    let mut link = shared.link.lock().unwrap();
    if shared.links.load(Ordering::SeqCst) == number {
        *link = None;
    }
}

impl FakeSlack {
    /// Starts the stand-in on a free port of 127.0.0.1; the Web API is at `base`.
    pub async fn start() -> FakeSlack {
        let shared = Arc::new(Shared::default());
        let router = Router::new()
            .route("/api/{method}", post(method))
            .route("/link/", get(link))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        shared.port.store(u64::from(port), Ordering::SeqCst);
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeSlack {
            base: format!("http://127.0.0.1:{port}/api"),
            shared,
        }
    }

    /// How many links Hark has opened.
    pub fn links(&self) -> u64 {
        self.shared.links.load(Ordering::SeqCst)
    }

    /// Waits (bounded) until Hark has a link open, the `n`th (from 1) or later.
    pub async fn wait_link(&self, n: u64) {
        for _ in 0..300 {
            if self.links() >= n && self.shared.link.lock().unwrap().is_some() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("Hark did not open Slack link {n} (opened {})", self.links());
    }

    /// Sends `payload` in an envelope of `kind` over the open link; returns its envelope id.
    pub fn envelope(&self, kind: &str, payload: Value) -> String {
        let id = format!(
            "env-{}",
            self.shared.next_envelope.fetch_add(1, Ordering::SeqCst) + 1
        );
        let frame = json!({"envelope_id": id, "type": kind, "accepts_response_payload": kind != "events_api",
                           "retry_attempt": 0, "retry_reason": "", "payload": payload});
        let link = self.shared.link.lock().unwrap();
        link.as_ref()
            .expect("a link is open")
            .send(Message::Text(frame.to_string().into()))
            .unwrap();
        id
    }

    /// `user` writes `text` to the bot in a direct message (in the thread of `thread` if any).
    pub fn dm(&self, user: &str, text: &str, thread: Option<&str>) -> String {
        let event_id = format!("Ev{}", rand::random::<u32>());
        let mut event = json!({"type": "message", "channel": format!("D{user}"), "user": user,
            "text": text, "ts": "1800000001.000100", "event_ts": "1800000001.000100", "channel_type": "im"});
        if let Some(thread) = thread {
            event["thread_ts"] = json!(thread);
        }
        self.envelope(
            "events_api",
            json!({"token": "x", "team_id": "T0HARK", "api_app_id": "A111", "event": event,
                   "type": "event_callback", "event_id": event_id, "event_time": 1_800_000_001}),
        )
    }

    /// `user` taps a button of the message `ts` (its `action_id` and `value`).
    pub fn tap(&self, user: &str, ts: &str, button: &Value) -> String {
        self.envelope(
            "interactive",
            json!({"type": "block_actions", "user": {"id": user, "username": "someone", "team_id": "T0HARK"},
                "api_app_id": "A111", "trigger_id": format!("trig.{}", rand::random::<u32>()),
                "team": {"id": "T0HARK"},
                "container": {"type": "message", "message_ts": ts, "channel_id": format!("D{ME}")},
                "channel": {"id": format!("D{ME}")}, "message": {"ts": ts},
                "actions": [{"action_id": button["action_id"], "block_id": "b", "value": button["value"],
                             "type": "button", "action_ts": "1800000002.0"}]}),
        )
    }

    /// `user` ticks exactly `values` in the checkboxes of `message` (posted at `ts`).
    pub fn tick(&self, user: &str, ts: &str, message: &Value, values: &[&str]) -> String {
        let block = message["blocks"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|block| block["elements"][0]["action_id"] == "tick")
            .expect("the message has checkboxes")["block_id"]
            .clone();
        let selected: Vec<Value> = values
            .iter()
            .map(|value| json!({"text": {"type": "plain_text", "text": value}, "value": value}))
            .collect();
        self.envelope(
            "interactive",
            json!({"type": "block_actions", "user": {"id": user}, "trigger_id": "trig.tick",
                "container": {"type": "message", "message_ts": ts, "channel_id": format!("D{ME}")},
                "actions": [{"action_id": "tick", "block_id": block, "type": "checkboxes",
                             "selected_options": selected}]}),
        )
    }

    /// `user` submits the modal Hark opened last, with `text` in its input.
    pub fn submit(&self, user: &str, text: &str) -> String {
        let view = self
            .calls("views.open")
            .last()
            .cloned()
            .expect("a modal was opened")["view"]
            .clone();
        self.envelope(
            "interactive",
            json!({"type": "view_submission", "user": {"id": user}, "trigger_id": "trig.submit",
                "view": {"id": "V1", "type": "modal", "callback_id": view["callback_id"],
                         "private_metadata": view["private_metadata"],
                         "state": {"values": {"reply": {"text": {"type": "plain_text_input", "value": text}}}}}}),
        )
    }

    /// Slack asks for a new link (`disconnect`, `refresh_requested`).
    pub fn disconnect(&self) {
        let frame = json!({"type": "disconnect", "reason": "refresh_requested", "debug_info": {"host": "applink-test"}});
        if let Some(link) = self.shared.link.lock().unwrap().as_ref() {
            let _ = link.send(Message::Text(frame.to_string().into()));
        }
    }

    /// From now on, every call is refused with an error quoting its token back.
    pub fn echo_tokens(&self) {
        self.shared.echo_tokens.store(true, Ordering::SeqCst);
    }

    /// The link drops without a word.
    pub fn drop_link(&self) {
        if let Some(link) = self.shared.link.lock().unwrap().take() {
            let _ = link.send(Message::Close(None));
        }
    }

    /// Every Web API call of `method`, in order (a posted message carries its `ts`).
    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.shared
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|(name, _)| name == method)
            .map(|(_, params)| params.clone())
            .collect()
    }

    /// Every call's body, as JSON text (to show no token travels in one).
    pub fn all_calls(&self) -> String {
        format!("{:?}", self.shared.calls.lock().unwrap())
    }

    /// Waits (bounded) for the `nth` (from 0) call of `method` that `matches`.
    pub async fn wait_call(
        &self,
        method: &str,
        nth: usize,
        matches: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..300 {
            if let Some(found) = self
                .calls(method)
                .into_iter()
                .filter(|c| matches(c))
                .nth(nth)
            {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no matching {method}; calls: {}", self.all_calls());
    }

    /// Waits (bounded) until Hark acknowledged the envelope `id`.
    pub async fn wait_ack(&self, id: &str) {
        for _ in 0..300 {
            if self.shared.acks.lock().unwrap().iter().any(|ack| ack == id) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("envelope {id} was not acknowledged");
    }
}

/// The button labelled `label` (its text contains it) in a message's blocks.
pub fn button(message: &Value, label: &str) -> Value {
    message["blocks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block["type"] == "actions")
        .flat_map(|block| block["elements"].as_array().cloned().unwrap_or_default())
        .find(|element| {
            element["type"] == "button"
                && element["text"]["text"]
                    .as_str()
                    .is_some_and(|text| text.contains(label))
        })
        .unwrap_or_else(|| panic!("no button {label} in {message}"))
}

/// Whether a message's blocks hold any control.
pub fn has_controls(message: &Value) -> bool {
    message["blocks"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|block| block["type"] == "actions")
}

/// A message's text in all its blocks.
pub fn text_of(message: &Value) -> String {
    message["blocks"].to_string()
}
