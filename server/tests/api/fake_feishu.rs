//! A stand-in for Feishu's Open Platform on 127.0.0.1: the tenant access token (400 with
//! Feishu's codes for a wrong App ID or App Secret), `bot/v3/info`, the long connection's
//! address (`/callback/ws/endpoint`, PascalCase as Feishu answers it), sending and updating
//! messages (`im/v1/messages`, each checking the tenant token in `Authorization: Bearer`), and
//! the long connection itself: binary `pbbp2.Frame` protobuf frames, declared here apart from
//! Hark's own so a mistake in one is not copied into the other. Pings are answered with pongs
//! carrying a `ClientConfig`; events the test injects (direct messages, card callbacks, in one
//! frame or in pieces) are sent as data frames whose acknowledgements are recorded; a link can
//! be dropped.

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use futures::{SinkExt, StreamExt};
use prost::Message as _;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub const APP_ID: &str = "cli_a1b2c3d4e5f60718";
pub const APP_SECRET: &str = "hArKtEsTsEcReT0123456789abcdefgh";
/// An app with no bot: its credentials are right, `bot/v3/info` refuses it.
pub const BOTLESS_APP_ID: &str = "cli_b0b0b0b0b0b0b0b0";
const TENANT_TOKEN: &str = "t-g1044qeGEDXTB6NDJOGV4JQCYDGHRBARFTGT1234";
/// The service id the address names; every ping must carry it.
pub const SERVICE: i32 = 33_554_678;
/// The bot, the person, and someone else in the tenant.
pub const BOT: &str = "ou_b07b07b07b07b07b07b07b07b07b07";
pub const ME: &str = "ou_7d8a6e6df7621556ce0d21922b676706";
pub const STRANGER: &str = "ou_5ad573a6411d72b8305fda3a9c15c70e";

/// Feishu's frame, as `pbbp2.proto` declares it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct WireHeader {
    #[prost(string, required, tag = "1")]
    pub key: String,
    #[prost(string, required, tag = "2")]
    pub value: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct WireFrame {
    #[prost(uint64, required, tag = "1")]
    pub seq_id: u64,
    #[prost(uint64, required, tag = "2")]
    pub log_id: u64,
    #[prost(int32, required, tag = "3")]
    pub service: i32,
    #[prost(int32, required, tag = "4")]
    pub method: i32,
    #[prost(message, repeated, tag = "5")]
    pub headers: Vec<WireHeader>,
    #[prost(string, optional, tag = "6")]
    pub payload_encoding: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub payload_type: Option<String>,
    #[prost(bytes = "vec", optional, tag = "8")]
    pub payload: Option<Vec<u8>>,
    #[prost(string, optional, tag = "9")]
    pub log_id_new: Option<String>,
}

impl WireFrame {
    fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|header| header.key == key)
            .map(|header| header.value.as_str())
    }

    fn new(method: i32, headers: &[(&str, String)], payload: Option<Vec<u8>>) -> WireFrame {
        WireFrame {
            seq_id: 0,
            log_id: 0,
            service: SERVICE,
            method,
            headers: headers
                .iter()
                .map(|(key, value)| WireHeader {
                    key: (*key).to_string(),
                    value: value.clone(),
                })
                .collect(),
            payload_encoding: None,
            payload_type: None,
            payload,
            log_id_new: None,
        }
    }
}

/// A message Hark sent: to whom, its `msg_type`, its content, its id.
#[derive(Clone, Debug)]
pub struct Sent {
    pub to: String,
    pub kind: String,
    pub content: Value,
    pub id: String,
}

#[derive(Default)]
struct Shared {
    sent: Mutex<Vec<Sent>>,
    /// Every update: the message id and its new content.
    updates: Mutex<Vec<(String, Value)>>,
    /// Every call's path and body, as text (to show no secret travels where it should not).
    calls: Mutex<Vec<String>>,
    /// Event frames acknowledged: their `message_id` and the ack's payload.
    acks: Mutex<Vec<(String, String)>>,
    /// The service of each ping.
    pings: Mutex<Vec<i32>>,
    link: Mutex<Option<mpsc::UnboundedSender<Message>>>,
    links: AtomicU64,
    next_id: AtomicU64,
    endpoints: AtomicU64,
    down: AtomicBool,
    port: AtomicU64,
}

/// The running stand-in.
#[derive(Clone)]
pub struct FakeFeishu {
    pub base: String,
    shared: Arc<Shared>,
}

fn feishu(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

fn ok(mut body: Value) -> Response {
    body["code"] = json!(0);
    body["msg"] = json!("success");
    feishu(StatusCode::OK, body)
}

/// Feishu's refusal of a request without the tenant token; `None` when it carries it.
fn refused_token(headers: &HeaderMap) -> Option<Response> {
    let token = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if token == Some(TENANT_TOKEN) {
        None
    } else {
        Some(feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 99_991_663, "msg": "Invalid access token for authorization. Please make a request with token attached."}),
        ))
    }
}

impl Shared {
    fn record(&self, what: String) {
        self.calls.lock().unwrap().push(what);
    }
}

async fn tenant_token(State(shared): State<Arc<Shared>>, body: axum::body::Bytes) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return (StatusCode::BAD_GATEWAY, "<html>502</html>").into_response();
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    shared.record(format!("token {}", body["app_id"]));
    let app_id = body["app_id"].as_str().unwrap_or_default();
    if app_id != APP_ID && app_id != BOTLESS_APP_ID {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 10_003, "msg": "invalid param"}),
        );
    }
    if body["app_secret"] != APP_SECRET {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 10_014, "msg": "app secret invalid"}),
        );
    }
    ok(json!({"tenant_access_token": TENANT_TOKEN, "expire": 7200}))
}

async fn bot_info(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    shared.record("bot/v3/info".into());
    if let Some(refused) = refused_token(&headers) {
        return refused;
    }
    // Which app's token this is cannot be told from the token alone here: the last one asked
    // for decides, as only one app is set up at a time.
    let botless = shared
        .calls
        .lock()
        .unwrap()
        .iter()
        .rev()
        .find(|call| call.starts_with("token "))
        .is_some_and(|call| call.contains(BOTLESS_APP_ID));
    if botless {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 10_002, "msg": "the app has no bot"}),
        );
    }
    ok(
        json!({"bot": {"activate_status": 2, "app_name": "Hark", "avatar_url": "",
                      "ip_white_list": [], "open_id": BOT}}),
    )
}

async fn endpoint(State(shared): State<Arc<Shared>>, body: axum::body::Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    shared.record("callback/ws/endpoint".into());
    if body["AppID"] != APP_ID || body["AppSecret"] != APP_SECRET {
        return feishu(
            StatusCode::OK,
            json!({"code": 1_000_040_343, "msg": "system busy"}),
        );
    }
    let port = shared.port.load(Ordering::SeqCst);
    let ticket = shared.endpoints.fetch_add(1, Ordering::SeqCst) + 1;
    ok(json!({"data": {
        "URL": format!("ws://127.0.0.1:{port}/ws?device_id=7{ticket}&access_key=k{ticket}&service_id={SERVICE}&ticket=tk{ticket}"),
        "ClientConfig": {"ReconnectCount": -1, "ReconnectInterval": 120, "ReconnectNonce": 0, "PingInterval": 1}
    }}))
}

async fn send_message(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(refused) = refused_token(&headers) {
        return refused;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    shared.record(format!("send {body}"));
    if query.get("receive_id_type").map(String::as_str) != Some("open_id") {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 99_992_402, "msg": "field validation failed"}),
        );
    }
    let (Some(to), Some(kind), Some(content)) = (
        body["receive_id"].as_str(),
        body["msg_type"].as_str(),
        body["content"]
            .as_str()
            .and_then(|content| serde_json::from_str::<Value>(content).ok()),
    ) else {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 230_001, "msg": "invalid message content"}),
        );
    };
    let id = format!(
        "om_{:032x}",
        shared.next_id.fetch_add(1, Ordering::SeqCst) + 1
    );
    shared.sent.lock().unwrap().push(Sent {
        to: to.to_string(),
        kind: kind.to_string(),
        content,
        id: id.clone(),
    });
    ok(json!({"data": {"message_id": id, "chat_id": "oc_hark", "msg_type": kind}}))
}

async fn update_message(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(refused) = refused_token(&headers) {
        return refused;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    shared.record(format!("update {id} {body}"));
    let known = shared.sent.lock().unwrap().iter().any(|sent| sent.id == id);
    let Some(content) = body["content"]
        .as_str()
        .and_then(|content| serde_json::from_str::<Value>(content).ok())
    else {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 230_001, "msg": "invalid message content"}),
        );
    };
    if !known {
        return feishu(
            StatusCode::BAD_REQUEST,
            json!({"code": 230_011, "msg": "The message was withdrawn."}),
        );
    }
    shared.updates.lock().unwrap().push((id, content));
    ok(json!({}))
}

async fn link(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| serve_link(shared, socket))
}

async fn serve_link(shared: Arc<Shared>, socket: WebSocket) {
    let number = shared.links.fetch_add(1, Ordering::SeqCst) + 1;
    let (mut sink, mut stream) = socket.split();
    let (sender, mut outgoing) = mpsc::unbounded_channel::<Message>();
    *shared.link.lock().unwrap() = Some(sender.clone());
    let writer = tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            let closing = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || closing {
                return;
            }
        }
    });
    while let Some(Ok(message)) = stream.next().await {
        let Message::Binary(bytes) = message else {
            continue;
        };
        let Ok(frame) = WireFrame::decode(&bytes[..]) else {
            continue;
        };
        match (frame.method, frame.header("type")) {
            (0, Some("ping")) => {
                shared.pings.lock().unwrap().push(frame.service);
                let config = json!({"ReconnectCount": -1, "ReconnectInterval": 120,
                                    "ReconnectNonce": 0, "PingInterval": 1});
                let pong = WireFrame::new(
                    0,
                    &[("type", "pong".into())],
                    Some(config.to_string().into_bytes()),
                );
                let _ = sender.send(Message::Binary(pong.encode_to_vec().into()));
            }
            (1, Some("event")) => {
                let id = frame.header("message_id").unwrap_or_default().to_string();
                let payload = String::from_utf8_lossy(frame.payload.as_deref().unwrap_or_default())
                    .to_string();
                shared.acks.lock().unwrap().push((id, payload));
            }
            _ => {}
        }
    }
    writer.abort();
    let mut link = shared.link.lock().unwrap();
    if shared.links.load(Ordering::SeqCst) == number {
        *link = None;
    }
}

impl FakeFeishu {
    /// Starts the stand-in on a free port of 127.0.0.1; the Open Platform is at `base`.
    pub async fn start() -> FakeFeishu {
        let shared = Arc::new(Shared::default());
        let router = Router::new()
            .route(
                "/open-apis/auth/v3/tenant_access_token/internal",
                post(tenant_token),
            )
            .route("/open-apis/bot/v3/info", get(bot_info))
            .route("/callback/ws/endpoint", post(endpoint))
            .route("/open-apis/im/v1/messages", post(send_message))
            .route("/open-apis/im/v1/messages/{id}", patch(update_message))
            .route("/ws", get(link))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        shared.port.store(u64::from(port), Ordering::SeqCst);
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeFeishu {
            base: format!("http://127.0.0.1:{port}"),
            shared,
        }
    }

    /// How many long connections Hark has opened.
    pub fn links(&self) -> u64 {
        self.shared.links.load(Ordering::SeqCst)
    }

    /// Waits (bounded) until Hark has a connection open, the `n`th (from 1) or later.
    pub async fn wait_link(&self, n: u64) {
        for _ in 0..300 {
            if self.links() >= n && self.shared.link.lock().unwrap().is_some() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "Hark did not open Feishu connection {n} (opened {})",
            self.links()
        );
    }

    /// The services Hark's pings named, in order.
    pub fn pings(&self) -> Vec<i32> {
        self.shared.pings.lock().unwrap().clone()
    }

    /// Sends the schema 2.0 event `event_type` with `event`, in `pieces` data frames; returns
    /// the frames' `message_id`. The same `message_id` again plays Feishu sending it twice.
    pub fn event_as(&self, message_id: &str, event_type: &str, event: Value, pieces: usize) {
        let payload = json!({
            "schema": "2.0",
            "header": {"event_id": format!("ev_{message_id}"), "event_type": event_type,
                       "create_time": "1800000000000", "token": "", "app_id": APP_ID,
                       "tenant_key": "736588c9260f175d"},
            "event": event,
        })
        .to_string()
        .into_bytes();
        let size = payload.len().div_ceil(pieces.max(1));
        let link = self.shared.link.lock().unwrap();
        let link = link.as_ref().expect("a connection is open");
        for (seq, piece) in payload.chunks(size).enumerate() {
            let frame = WireFrame::new(
                1,
                &[
                    ("type", "event".into()),
                    ("message_id", message_id.into()),
                    ("sum", pieces.to_string()),
                    ("seq", seq.to_string()),
                    ("trace_id", format!("tr_{message_id}")),
                ],
                Some(piece.to_vec()),
            );
            link.send(Message::Binary(frame.encode_to_vec().into()))
                .unwrap();
        }
    }

    fn event(&self, event_type: &str, event: Value) -> String {
        let id = format!("mid_{}", rand::random::<u64>());
        self.event_as(&id, event_type, event, 1);
        id
    }

    /// The `im.message.receive_v1` event of `user` writing `text` to the bot (a reply to
    /// `parent` if any).
    pub fn message_event(user: &str, text: &str, parent: Option<&str>) -> Value {
        json!({
            "sender": {"sender_id": {"open_id": user, "union_id": "on_x", "user_id": "u1"},
                       "sender_type": "user", "tenant_key": "736588c9260f175d"},
            "message": {"message_id": format!("om_in_{}", rand::random::<u64>()),
                        "root_id": parent.unwrap_or_default(), "parent_id": parent.unwrap_or_default(),
                        "create_time": "1800000001000", "chat_id": "oc_hark", "chat_type": "p2p",
                        "message_type": "text", "content": json!({"text": text}).to_string()}
        })
    }

    /// `user` writes `text` to the bot in a direct message (replying to `parent` if any).
    pub fn dm(&self, user: &str, text: &str, parent: Option<&str>) -> String {
        self.event(
            "im.message.receive_v1",
            Self::message_event(user, text, parent),
        )
    }

    /// `user` taps `button` of the card `message` (with `form` when the button submits a
    /// form).
    pub fn tap(&self, user: &str, message: &str, button: &Value, form: Option<Value>) -> String {
        let mut action = json!({"value": button["behaviors"][0]["value"], "tag": "button",
                                "name": button["name"]});
        if let Some(form) = form {
            action["form_value"] = form;
        }
        self.event(
            "card.action.trigger",
            json!({"operator": {"tenant_key": "736588c9260f175d", "user_id": "u1", "open_id": user},
                   "token": format!("c-{}", rand::random::<u32>()),
                   "action": action, "host": "im_message",
                   "context": {"open_message_id": message, "open_chat_id": "oc_hark"}}),
        )
    }

    /// Feishu stops answering (a proxy's 502), or answers again.
    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, Ordering::SeqCst);
    }

    /// The connection drops without a word.
    pub fn drop_link(&self) {
        if let Some(link) = self.shared.link.lock().unwrap().take() {
            let _ = link.send(Message::Close(None));
        }
    }

    /// Every message Hark sent, in order.
    pub fn sent(&self) -> Vec<Sent> {
        self.shared.sent.lock().unwrap().clone()
    }

    /// Every update of message `id`, in order.
    pub fn updates_of(&self, id: &str) -> Vec<Value> {
        self.shared
            .updates
            .lock()
            .unwrap()
            .iter()
            .filter(|(of, _)| of == id)
            .map(|(_, content)| content.clone())
            .collect()
    }

    /// Every call, as text.
    pub fn all_calls(&self) -> String {
        self.shared.calls.lock().unwrap().join("\n")
    }

    /// Waits (bounded) for the `nth` (from 0) message sent that `matches`.
    pub async fn wait_sent(&self, nth: usize, matches: impl Fn(&Sent) -> bool) -> Sent {
        for _ in 0..300 {
            if let Some(found) = self.sent().into_iter().filter(|s| matches(s)).nth(nth) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no matching message; sent: {:?}", self.sent());
    }

    /// Waits (bounded) for an update of message `id` that `matches`.
    pub async fn wait_update(&self, id: &str, matches: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            if let Some(found) = self.updates_of(id).into_iter().find(|c| matches(c)) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no matching update of {id}: {:?}", self.updates_of(id));
    }

    /// Waits (bounded) until Hark acknowledged the event frame `id`; the ack's payload.
    pub async fn wait_ack(&self, id: &str) -> String {
        for _ in 0..300 {
            if let Some((_, payload)) = self
                .shared
                .acks
                .lock()
                .unwrap()
                .iter()
                .find(|(acked, _)| acked == id)
            {
                return payload.clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("event {id} was not acknowledged");
    }

    /// How many times the event frame `id` was acknowledged.
    pub fn acks_of(&self, id: &str) -> usize {
        self.shared
            .acks
            .lock()
            .unwrap()
            .iter()
            .filter(|(acked, _)| acked == id)
            .count()
    }
}

/// Every element of a card, forms' elements included.
fn elements(card: &Value) -> Vec<Value> {
    fn walk(elements: &Value, into: &mut Vec<Value>) {
        for element in elements.as_array().into_iter().flatten() {
            into.push(element.clone());
            walk(&element["elements"], into);
        }
    }
    let mut all = Vec::new();
    walk(&card["body"]["elements"], &mut all);
    all
}

/// The button whose text contains `label`.
pub fn button(card: &Value, label: &str) -> Value {
    elements(card)
        .into_iter()
        .find(|element| {
            element["tag"] == "button"
                && element["text"]["content"]
                    .as_str()
                    .is_some_and(|text| text.contains(label))
        })
        .unwrap_or_else(|| panic!("no button {label} in {card}"))
}

/// Whether a card holds any control.
pub fn has_controls(card: &Value) -> bool {
    elements(card)
        .iter()
        .any(|element| matches!(element["tag"].as_str(), Some("button" | "form" | "input")))
}

/// A card's or a text's words.
pub fn text_of(content: &Value) -> String {
    content.to_string()
}
