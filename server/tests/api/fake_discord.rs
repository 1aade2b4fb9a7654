//! A stand-in for Discord on 127.0.0.1: the REST routes Hark calls (`/users/@me`, `/gateway/bot`,
//! `/users/@me/channels`, messages, interaction callbacks), each checking `Authorization: Bot`
//! and the `DiscordBot` User-Agent as Discord does (401 `{code: 0}` for a wrong token), and the
//! Gateway: Hello with a short heartbeat interval, heartbeats acknowledged, Identify (its token and
//! intents checked) answered with READY, Resume (its session and sequence checked) with RESUMED;
//! dispatches the test injects (taps, menu choices, modal submissions, direct messages) carry
//! sequence numbers; it can drop the connection, ask for a Reconnect (op 7) or end the session
//! (op 9).

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub const TOKEN: &str = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.hark-test-discord-bot-token-0123456789";
pub const BOT: &str = "123456789012345678";
pub const ME: &str = "82198898841029460";
pub const STRANGER: &str = "99999999999999999";

#[derive(Default)]
struct Shared {
    calls: Mutex<Vec<(String, String, Value)>>,
    /// What Hark sent over the Gateway (Identify, Resume, heartbeats), in order.
    sent: Mutex<Vec<Value>>,
    link: Mutex<Option<mpsc::UnboundedSender<Message>>>,
    links: AtomicU64,
    seq: AtomicU64,
    sessions: AtomicU64,
    next_id: AtomicU64,
    port: AtomicU64,
}

/// The running stand-in.
#[derive(Clone)]
pub struct FakeDiscord {
    pub base: String,
    shared: Arc<Shared>,
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({"message": "401: Unauthorized", "code": 0})),
    )
        .into_response()
}

async fn rest(
    State(shared): State<Arc<Shared>>,
    method: Method,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    if header("authorization") != format!("Bot {TOKEN}") {
        return unauthorized();
    }
    if !header("user-agent").starts_with("DiscordBot (") {
        return (StatusCode::FORBIDDEN, "a User-Agent is required").into_response();
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let id = format!(
        "{}",
        1_300_000_000_000_000_000_u64 + shared.next_id.fetch_add(1, Ordering::SeqCst)
    );
    let mut recorded = body.clone();
    if method == Method::POST && path.ends_with("/messages") {
        recorded["id"] = json!(id);
    }
    shared
        .calls
        .lock()
        .unwrap()
        .push((method.to_string(), format!("/{path}"), recorded));
    let parts: Vec<&str> = path.split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["users", "@me"]) => {
            axum::Json(json!({"id": BOT, "username": "hark", "discriminator": "0", "bot": true}))
                .into_response()
        }
        ("GET", ["gateway", "bot"]) => {
            let port = shared.port.load(Ordering::SeqCst);
            axum::Json(json!({"url": format!("ws://127.0.0.1:{port}/gateway"), "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}}))
                .into_response()
        }
        ("POST", ["users", "@me", "channels"]) => {
            let user = body["recipient_id"].as_str().unwrap_or_default();
            axum::Json(json!({"id": format!("7{user}"), "type": 1})).into_response()
        }
        ("POST", ["channels", channel, "messages"]) => {
            axum::Json(json!({"id": id, "channel_id": channel, "content": body["content"]}))
                .into_response()
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            axum::Json(json!({"id": message, "channel_id": channel, "content": body["content"]}))
                .into_response()
        }
        ("POST", ["interactions", _, _, "callback"]) => StatusCode::NO_CONTENT.into_response(),
        _ => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"message": "404: Not Found", "code": 0})),
        )
            .into_response(),
    }
}

async fn gateway(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| serve_gateway(shared, socket))
}

async fn serve_gateway(shared: Arc<Shared>, socket: WebSocket) {
    let number = shared.links.fetch_add(1, Ordering::SeqCst) + 1;
    let (mut sink, mut stream) = socket.split();
    let (sender, mut outgoing) = mpsc::unbounded_channel::<Message>();
    *shared.link.lock().unwrap() = Some(sender.clone());
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 500}, "s": null, "t": null});
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
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(frame) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        shared.sent.lock().unwrap().push(frame.clone());
        let reply = match frame["op"].as_u64() {
            Some(1) => Some(json!({"op": 11})),
            Some(2) if frame["d"]["token"] == TOKEN => {
                let session = shared.sessions.fetch_add(1, Ordering::SeqCst) + 1;
                let port = shared.port.load(Ordering::SeqCst);
                let seq = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
                Some(json!({"op": 0, "t": "READY", "s": seq, "d": {
                    "v": 10, "user": {"id": BOT, "username": "hark", "bot": true}, "guilds": [],
                    "session_id": format!("session-{session}"),
                    "resume_gateway_url": format!("ws://127.0.0.1:{port}/gateway"),
                    "application": {"id": BOT, "flags": 0}}}))
            }
            Some(2) => {
                let _ = sender.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: 4004,
                    reason: "Authentication failed.".into(),
                })));
                None
            }
            Some(6) => {
                let session = shared.sessions.load(Ordering::SeqCst);
                if frame["d"]["session_id"] == format!("session-{session}")
                    && frame["d"]["token"] == TOKEN
                {
                    let seq = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
                    Some(json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}}))
                } else {
                    Some(json!({"op": 9, "d": false}))
                }
            }
            _ => None,
        };
        if let Some(reply) = reply {
            let _ = sender.send(Message::Text(reply.to_string().into()));
        }
    }
    writer.abort();
    let mut link = shared.link.lock().unwrap();
    if shared.links.load(Ordering::SeqCst) == number {
        *link = None;
    }
}

impl FakeDiscord {
    /// Starts the stand-in on a free port of 127.0.0.1; the REST API is at `base`.
    pub async fn start() -> FakeDiscord {
        let shared = Arc::new(Shared::default());
        let router = Router::new()
            .route("/api/v10/{*path}", any(rest))
            .route("/gateway/", get(gateway))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        shared.port.store(u64::from(port), Ordering::SeqCst);
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeDiscord {
            base: format!("http://127.0.0.1:{port}/api/v10"),
            shared,
        }
    }

    /// What Hark sent over the Gateway with `op`, in order.
    pub fn sent(&self, op: u64) -> Vec<Value> {
        self.shared
            .sent
            .lock()
            .unwrap()
            .iter()
            .filter(|frame| frame["op"] == op)
            .cloned()
            .collect()
    }

    /// Waits (bounded) until Hark has sent `count` frames with `op`.
    pub async fn wait_sent(&self, op: u64, count: usize) -> Vec<Value> {
        for _ in 0..300 {
            let sent = self.sent(op);
            if sent.len() >= count {
                return sent;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "Hark sent {} frames of op {op}, not {count}",
            self.sent(op).len()
        );
    }

    /// Sends a dispatch `kind` with `data` over the open connection.
    pub fn dispatch(&self, kind: &str, data: Value) {
        let seq = self.shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({"op": 0, "t": kind, "s": seq, "d": data});
        self.send_frame(frame);
    }

    fn send_frame(&self, frame: Value) {
        let link = self.shared.link.lock().unwrap();
        link.as_ref()
            .expect("a Gateway connection is open")
            .send(Message::Text(frame.to_string().into()))
            .unwrap();
    }

    /// `user` writes `text` to the bot in a direct message (replying to `reply_to` if any).
    pub fn dm(&self, user: &str, text: &str, reply_to: Option<&str>) {
        self.dm_delivered(user, text, reply_to, 1);
    }

    /// `user` writes `text` once, and the Gateway delivers it `times` times (the same id).
    pub fn dm_delivered(&self, user: &str, text: &str, reply_to: Option<&str>, times: usize) {
        let mut message = json!({"id": format!("{}", 1_400_000_000_000_000_000_u64 + rand::random::<u32>() as u64),
            "channel_id": format!("7{user}"), "channel_type": 1,
            "author": {"id": user, "username": "someone", "discriminator": "0"},
            "content": text, "timestamp": "2026-12-02T12:00:00.000000+00:00", "type": 0, "components": []});
        if let Some(reply_to) = reply_to {
            message["message_reference"] =
                json!({"message_id": reply_to, "channel_id": format!("7{user}")});
        }
        for _ in 0..times {
            self.dispatch("MESSAGE_CREATE", message.clone());
        }
    }

    fn interaction(&self, user: &str, kind: u8, message: &str, data: Value) -> String {
        let id = format!(
            "{}",
            1_500_000_000_000_000_000_u64 + rand::random::<u32>() as u64
        );
        self.dispatch(
            "INTERACTION_CREATE",
            json!({"id": id, "application_id": BOT, "type": kind, "token": format!("itoken-{id}"),
                "version": 1, "channel_id": format!("7{ME}"), "context": 1,
                "user": {"id": user, "username": "someone", "discriminator": "0"},
                "message": {"id": message, "channel_id": format!("7{ME}")}, "data": data}),
        );
        id
    }

    /// `user` clicks a button (its `custom_id`) of `message`; returns the interaction's id.
    pub fn click(&self, user: &str, message: &str, button: &Value) -> String {
        self.interaction(
            user,
            3,
            message,
            json!({"custom_id": button["custom_id"], "component_type": 2}),
        )
    }

    /// `user` chooses `values` in the select menu `menu` of `message`.
    pub fn choose(&self, user: &str, message: &str, menu: &Value, values: &[&str]) -> String {
        self.interaction(
            user,
            3,
            message,
            json!({"custom_id": menu["custom_id"], "component_type": 3, "values": values}),
        )
    }

    /// `user` submits the modal Hark opened last (in the newer label shape), with `text`.
    pub fn submit(&self, user: &str, message: &str, text: &str) -> String {
        let modal = self
            .callbacks()
            .into_iter()
            .rev()
            .find(|callback| callback["type"] == 9)
            .expect("a modal was opened");
        self.interaction(user, 5, message, json!({"custom_id": modal["data"]["custom_id"],
            "components": [{"type": 18, "id": 1, "component": {"type": 4, "id": 2, "custom_id": "text", "value": text}}]}))
    }

    /// Discord asks the bot to reconnect and resume (op 7).
    pub fn reconnect(&self) {
        self.send_frame(json!({"op": 7, "d": null}));
    }

    /// The connection drops without a close frame.
    pub fn drop_link(&self) {
        if let Some(link) = self.shared.link.lock().unwrap().take() {
            let _ = link.send(Message::Close(None));
        }
    }

    /// How many Gateway connections Hark has opened.
    pub fn links(&self) -> u64 {
        self.shared.links.load(Ordering::SeqCst)
    }

    /// Every REST call (method, path, body).
    pub fn calls(&self) -> Vec<(String, String, Value)> {
        self.shared.calls.lock().unwrap().clone()
    }

    /// Every message sent (`POST …/messages`), its body with its `id`.
    pub fn messages(&self) -> Vec<Value> {
        self.calls()
            .into_iter()
            .filter(|(method, path, _)| method == "POST" && path.ends_with("/messages"))
            .map(|(_, path, mut body)| {
                body["path"] = json!(path);
                body
            })
            .collect()
    }

    /// Every edit (`PATCH …/messages/{id}`), with its path.
    pub fn edits(&self) -> Vec<Value> {
        self.calls()
            .into_iter()
            .filter(|(method, _, _)| method == "PATCH")
            .map(|(_, path, mut body)| {
                body["path"] = json!(path);
                body
            })
            .collect()
    }

    /// Every interaction response, with its path.
    pub fn callbacks(&self) -> Vec<Value> {
        self.calls()
            .into_iter()
            .filter(|(_, path, _)| path.ends_with("/callback"))
            .map(|(_, path, mut body)| {
                body["path"] = json!(path);
                body
            })
            .collect()
    }

    /// Every call's text (to show no token travels in a body).
    pub fn all_calls(&self) -> String {
        format!("{:?}", self.calls())
    }

    /// Waits (bounded) for a value `list` gives that `matches`.
    pub async fn wait_for(
        &self,
        list: impl Fn(&FakeDiscord) -> Vec<Value>,
        matches: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..300 {
            if let Some(found) = list(self).into_iter().find(|value| matches(value)) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("nothing matching; calls: {}", self.all_calls());
    }

    /// Waits (bounded) for the response to the interaction `id`.
    pub async fn callback_of(&self, id: &str) -> Value {
        let path = format!("/interactions/{id}/itoken-{id}/callback");
        self.wait_for(FakeDiscord::callbacks, |callback| callback["path"] == path)
            .await
    }
}

/// The button whose label contains `label` in a message's components.
pub fn button(message: &Value, label: &str) -> Value {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|part| {
            part["type"] == 2
                && part["label"]
                    .as_str()
                    .is_some_and(|text| text.contains(label))
        })
        .unwrap_or_else(|| panic!("no button {label} in {message}"))
}

/// The first select menu in a message's components.
pub fn menu(message: &Value) -> Value {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|part| part["type"] == 3)
        .unwrap_or_else(|| panic!("no menu in {message}"))
}

/// Whether a message has any component left.
pub fn has_components(message: &Value) -> bool {
    message["components"]
        .as_array()
        .is_some_and(|rows| !rows.is_empty())
}
