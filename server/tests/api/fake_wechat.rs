//! A stand-in for Tencent's iLink bot API on 127.0.0.1, speaking its JSON as the
//! `@tencent-weixin/openclaw-weixin` client does: `get_bot_qrcode`, `get_qrcode_status` (a long
//! poll answering the statuses the test scripts), `getupdates` (a long poll with a
//! `get_updates_buf` cursor) and `sendmessage`. It checks every call's headers
//! (`AuthorizationType: ilink_bot_token`, `Authorization: Bearer`, `iLink-App-Id`, a base64
//! `X-WECHAT-UIN`) and `base_info`, records what was sent and which cursors came, and lets the
//! test play WeChat users, go down (503), or end the bot's session (errcode -14).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The bot token the stand-in issues at login.
pub const TOKEN: &str = "ilinkbot-7f3a9c2e-secret-token-for-hark-tests";
/// The person who scans the code.
pub const ME: &str = "o9cq80_me@im.wechat";
/// Someone else writing to the bot.
pub const STRANGER: &str = "o9cq80_stranger@im.wechat";

#[derive(Default)]
struct Inner {
    statuses: VecDeque<Value>,
    verify_codes: Vec<String>,
    /// Messages from users, by sequence number.
    messages: Vec<(u64, Value)>,
    sent: Vec<Value>,
    cursors: Vec<String>,
    problems: Vec<String>,
    status_polls: usize,
    update_polls: usize,
}

#[derive(Default)]
struct Shared {
    inner: Mutex<Inner>,
    news: Notify,
    down: AtomicBool,
    session_ended: AtomicBool,
}

/// The running stand-in.
#[derive(Clone)]
pub struct FakeWechat {
    pub base: String,
    shared: Arc<Shared>,
}

fn unavailable() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, "<html>503</html>").into_response()
}

/// Checks the headers every POST carries, and the token where one is due.
fn check_headers(shared: &Shared, headers: &HeaderMap, endpoint: &str, with_token: bool) {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let mut problems = Vec::new();
    if header("AuthorizationType") != Some("ilink_bot_token") {
        problems.push(format!("{endpoint}: AuthorizationType"));
    }
    if header("iLink-App-Id") != Some("bot") {
        problems.push(format!("{endpoint}: iLink-App-Id"));
    }
    if header("iLink-App-ClientVersion")
        .and_then(|v| v.parse::<u32>().ok())
        .is_none()
    {
        problems.push(format!("{endpoint}: iLink-App-ClientVersion"));
    }
    let uin = header("X-WECHAT-UIN")
        .and_then(|uin| base64::engine::general_purpose::STANDARD.decode(uin).ok())
        .and_then(|digits| String::from_utf8(digits).ok())
        .and_then(|digits| digits.parse::<u32>().ok());
    if uin.is_none() {
        problems.push(format!("{endpoint}: X-WECHAT-UIN"));
    }
    if with_token && header("Authorization") != Some(&format!("Bearer {TOKEN}")) {
        problems.push(format!("{endpoint}: Authorization"));
    }
    shared.inner.lock().unwrap().problems.extend(problems);
}

fn check_base_info(shared: &Shared, body: &Value, endpoint: &str) {
    if !body["base_info"]["channel_version"].is_string() {
        shared
            .inner
            .lock()
            .unwrap()
            .problems
            .push(format!("{endpoint}: base_info"));
    }
}

async fn qrcode(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return unavailable();
    }
    check_headers(&shared, &headers, "get_bot_qrcode", false);
    if query.get("bot_type").map(String::as_str) != Some("3") {
        shared
            .inner
            .lock()
            .unwrap()
            .problems
            .push("bot_type".into());
    }
    axum::Json(json!({
        "qrcode": "qr-1",
        "qrcode_img_content": "https://liteapp.weixin.qq.com/q/7GiQu1?qrcode=qr-1&bot_type=3"
    }))
    .into_response()
}

async fn qrcode_status(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return unavailable();
    }
    {
        let mut inner = shared.inner.lock().unwrap();
        inner.status_polls += 1;
        if query.get("qrcode").map(String::as_str) != Some("qr-1") {
            inner.problems.push("get_qrcode_status: qrcode".into());
        }
        if let Some(code) = query.get("verify_code") {
            inner.verify_codes.push(code.clone());
        }
    }
    // A short long poll: the real one holds up to 35 s.
    let deadline = tokio::time::Instant::now() + Duration::from_millis(500);
    loop {
        let news = shared.news.notified();
        if let Some(status) = shared.inner.lock().unwrap().statuses.pop_front() {
            return axum::Json(status).into_response();
        }
        if tokio::time::timeout_at(deadline, news).await.is_err() {
            return axum::Json(json!({"status": "wait"})).into_response();
        }
    }
}

/// The sequence number a cursor stands for (`c<seq>`).
fn seq_of(cursor: &str) -> u64 {
    cursor
        .strip_prefix('c')
        .and_then(|seq| seq.parse().ok())
        .unwrap_or(0)
}

async fn getupdates(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return unavailable();
    }
    check_headers(&shared, &headers, "getupdates", true);
    let body: Value = serde_json::from_slice(&body).unwrap_or_default();
    check_base_info(&shared, &body, "getupdates");
    if shared.session_ended.load(Ordering::SeqCst) {
        shared.inner.lock().unwrap().update_polls += 1;
        return axum::Json(json!({"ret": -14, "errcode": -14, "errmsg": "session timeout"}))
            .into_response();
    }
    let cursor = body["get_updates_buf"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    {
        let mut inner = shared.inner.lock().unwrap();
        inner.update_polls += 1;
        inner.cursors.push(cursor.clone());
    }
    let after = seq_of(&cursor);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    loop {
        let news = shared.news.notified();
        {
            let inner = shared.inner.lock().unwrap();
            let fresh: Vec<&(u64, Value)> = inner
                .messages
                .iter()
                .filter(|(seq, _)| *seq > after)
                .collect();
            if let Some((last, _)) = fresh.last() {
                return axum::Json(json!({
                    "ret": 0,
                    "msgs": fresh.iter().map(|(_, message)| message.clone()).collect::<Vec<_>>(),
                    "get_updates_buf": format!("c{last}"),
                    "longpolling_timeout_ms": 2000
                }))
                .into_response();
            }
        }
        if tokio::time::timeout_at(deadline, news).await.is_err() {
            return axum::Json(json!({
                "ret": 0, "msgs": [], "get_updates_buf": cursor, "longpolling_timeout_ms": 2000
            }))
            .into_response();
        }
        if shared.down.load(Ordering::SeqCst) {
            return unavailable();
        }
    }
}

async fn sendmessage(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return unavailable();
    }
    check_headers(&shared, &headers, "sendmessage", true);
    let body: Value = serde_json::from_slice(&body).unwrap_or_default();
    check_base_info(&shared, &body, "sendmessage");
    if shared.session_ended.load(Ordering::SeqCst) {
        return axum::Json(json!({"ret": -14, "errmsg": "session timeout"})).into_response();
    }
    let message = body["msg"].clone();
    let shaped = message["message_type"] == 2
        && message["message_state"] == 2
        && message["client_id"].is_string()
        && message["item_list"][0]["type"] == 1
        && message["item_list"][0]["text_item"]["text"].is_string();
    let mut inner = shared.inner.lock().unwrap();
    if !shaped {
        inner.problems.push(format!("sendmessage: {message}"));
    }
    inner.sent.push(message);
    axum::Json(json!({"ret": 0})).into_response()
}

impl FakeWechat {
    /// Starts the stand-in on a free port of 127.0.0.1.
    pub async fn start() -> FakeWechat {
        let shared = Arc::new(Shared::default());
        let router = Router::new()
            .route("/ilink/bot/get_bot_qrcode", post(qrcode))
            .route("/ilink/bot/get_qrcode_status", get(qrcode_status))
            .route("/ilink/bot/getupdates", post(getupdates))
            .route("/ilink/bot/sendmessage", post(sendmessage))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeWechat { base, shared }
    }

    /// `host:port`, as `redirect_host` names it.
    pub fn host(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// The next status polls answer these, in order (then `wait`).
    pub fn script(&self, statuses: &[Value]) {
        self.shared
            .inner
            .lock()
            .unwrap()
            .statuses
            .extend(statuses.iter().cloned());
        self.shared.news.notify_waiters();
    }

    /// The login status that confirms `user`, with the bot's calls sent to `bot_base` if any.
    pub fn confirmed(user: &str, bot_base: Option<&str>) -> Value {
        let mut status = json!({
            "status": "confirmed", "bot_token": TOKEN, "ilink_bot_id": "b0f1@im.bot",
            "ilink_user_id": user
        });
        if let Some(base) = bot_base {
            status["baseurl"] = json!(base);
        }
        status
    }

    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, Ordering::SeqCst);
        self.shared.news.notify_waiters();
    }

    pub fn set_session_ended(&self, ended: bool) {
        self.shared.session_ended.store(ended, Ordering::SeqCst);
        self.shared.news.notify_waiters();
    }

    /// `user` sends `text`, written at `written_ms` (now when `None`).
    pub fn say_at(&self, user: &str, text: &str, written_ms: Option<i64>) {
        let mut inner = self.shared.inner.lock().unwrap();
        let seq = inner.messages.len() as u64 + 1;
        let written = written_ms.unwrap_or_else(|| chrono::Utc::now().timestamp_millis());
        inner.messages.push((
            seq,
            json!({
                "seq": seq,
                // Above 2^53, as WeChat's are.
                "message_id": 7_300_000_000_000_000_000_u64 + seq,
                "from_user_id": user,
                "to_user_id": "b0f1@im.bot",
                "create_time_ms": written,
                "message_type": 1,
                "message_state": 2,
                "item_list": [{"type": 1, "text_item": {"text": text}}],
                "context_token": format!("ctx-{seq}")
            }),
        ));
        drop(inner);
        self.shared.news.notify_waiters();
    }

    pub fn say(&self, user: &str, text: &str) {
        self.say_at(user, text, None);
    }

    /// WeChat delivers the last message again: a new update, the same `message_id`.
    pub fn deliver_again(&self) {
        let mut inner = self.shared.inner.lock().unwrap();
        let seq = inner.messages.len() as u64 + 1;
        let mut again = inner
            .messages
            .last()
            .expect("a message to repeat")
            .1
            .clone();
        again["seq"] = json!(seq);
        inner.messages.push((seq, again));
        drop(inner);
        self.shared.news.notify_waiters();
    }

    /// Every message sent so far.
    pub fn sent(&self) -> Vec<Value> {
        self.shared.inner.lock().unwrap().sent.clone()
    }

    /// The text of a sent message.
    pub fn text(message: &Value) -> &str {
        message["item_list"][0]["text_item"]["text"]
            .as_str()
            .unwrap_or_default()
    }

    /// Waits (bounded) for the `nth` (from 0) sent message that `matches`, and returns it.
    pub async fn wait_sent(&self, nth: usize, matches: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            if let Some(found) = self.sent().into_iter().filter(|m| matches(m)).nth(nth) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no matching message was sent; sent: {:#?}", self.sent());
    }

    /// Waits for a message to `ME` whose text contains `text` (the `nth` such).
    pub async fn wait_text(&self, nth: usize, text: &str) -> Value {
        self.wait_sent(nth, |message| {
            message["to_user_id"] == ME && Self::text(message).contains(text)
        })
        .await
    }

    pub fn cursors(&self) -> Vec<String> {
        self.shared.inner.lock().unwrap().cursors.clone()
    }

    pub fn verify_codes(&self) -> Vec<String> {
        self.shared.inner.lock().unwrap().verify_codes.clone()
    }

    pub fn status_polls(&self) -> usize {
        self.shared.inner.lock().unwrap().status_polls
    }

    pub fn update_polls(&self) -> usize {
        self.shared.inner.lock().unwrap().update_polls
    }

    /// Every header, `base_info` or message shape that was not as iLink wants it.
    pub fn problems(&self) -> Vec<String> {
        self.shared.inner.lock().unwrap().problems.clone()
    }
}
