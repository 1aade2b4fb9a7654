//! A stand-in for Telegram's Bot API on 127.0.0.1: it serves `getMe`, `getUpdates` (a real long
//! poll that answers as soon as an update is injected), `sendMessage`, `editMessageText`,
//! `editMessageReplyMarkup` and `answerCallbackQuery` as Telegram does, records every call, and
//! lets the test play the person: `/start`, button taps and replies. It can also be down (502).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The bot token the stand-in accepts.
pub const TOKEN: &str = "4242424242:AAHfakeTokenForHarkTests_abcdefghijkl";
/// The person's private chat.
pub const ME: i64 = 7_000_001;

#[derive(Default)]
struct Inner {
    updates: Vec<Value>,
    next_update: i64,
    next_message: i64,
    calls: Vec<(String, Value)>,
}

#[derive(Default)]
struct Shared {
    inner: Mutex<Inner>,
    news: Notify,
    down: AtomicBool,
}

/// The running stand-in.
#[derive(Clone)]
pub struct FakeTelegram {
    pub base: String,
    shared: Arc<Shared>,
}

fn ok(result: Value) -> Response {
    axum::Json(json!({"ok": true, "result": result})).into_response()
}

fn refused(code: u16, description: &str) -> Response {
    (
        StatusCode::from_u16(code).unwrap(),
        axum::Json(json!({"ok": false, "error_code": code, "description": description})),
    )
        .into_response()
}

async fn method(
    State(shared): State<Arc<Shared>>,
    Path((bot, method)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    if shared.down.load(Ordering::SeqCst) {
        return (StatusCode::BAD_GATEWAY, "<html>502 Bad Gateway</html>").into_response();
    }
    if bot != format!("bot{TOKEN}") {
        return refused(401, "Unauthorized");
    }
    let mut params: Value = serde_json::from_slice(&body).unwrap_or(json!({}));
    if method != "getUpdates" {
        let mut inner = shared.inner.lock().unwrap();
        if method == "sendMessage" {
            // The id the message gets, recorded with the call for the test to tap on.
            inner.next_message += 1;
            params["message_id"] = json!(inner.next_message);
        }
        inner.calls.push((method.clone(), params.clone()));
    }
    let now = chrono::Utc::now().timestamp();
    match method.as_str() {
        "getMe" => ok(json!({
            "id": 4242424242_i64, "is_bot": true, "first_name": "Hark test", "username": "hark_test_bot"
        })),
        "getUpdates" => {
            let offset = params["offset"].as_i64().unwrap_or(0);
            let wait = params["timeout"].as_u64().unwrap_or(0).min(30);
            let deadline = tokio::time::Instant::now() + Duration::from_secs(wait);
            loop {
                let news = shared.news.notified();
                {
                    let mut inner = shared.inner.lock().unwrap();
                    inner
                        .updates
                        .retain(|update| update["update_id"].as_i64().unwrap() >= offset);
                    if !inner.updates.is_empty() {
                        return ok(Value::Array(inner.updates.clone()));
                    }
                }
                if tokio::time::timeout_at(deadline, news).await.is_err() {
                    return ok(json!([]));
                }
                // Going down cuts the polls in progress, as a failing gateway would.
                if shared.down.load(Ordering::SeqCst) {
                    return (StatusCode::BAD_GATEWAY, "<html>502 Bad Gateway</html>")
                        .into_response();
                }
            }
        }
        "sendMessage" | "editMessageText" | "editMessageReplyMarkup" => {
            let message_id = params["message_id"].as_i64().unwrap_or(0);
            ok(json!({
                "message_id": message_id, "date": now,
                "chat": {"id": params["chat_id"], "type": "private"},
                "text": params["text"]
            }))
        }
        "answerCallbackQuery" => ok(json!(true)),
        _ => refused(404, "Not Found: method not found"),
    }
}

impl FakeTelegram {
    /// Starts the stand-in on a free port of 127.0.0.1.
    pub async fn start() -> FakeTelegram {
        let shared = Arc::new(Shared::default());
        let router = Router::new()
            .route("/{bot}/{method}", post(method))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeTelegram { base, shared }
    }

    /// Telegram goes down (every call answers 502) or comes back.
    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, Ordering::SeqCst);
        self.shared.news.notify_waiters();
    }

    fn inject(&self, mut update: Value) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.next_update += 1;
        update["update_id"] = json!(1000 + inner.next_update);
        inner.updates.push(update);
        drop(inner);
        self.shared.news.notify_waiters();
    }

    /// The person (or someone else, from `chat`) sends `text`, maybe as a reply.
    pub fn say(&self, chat: i64, kind: &str, text: &str, reply_to: Option<i64>) {
        let mut message = json!({
            "message_id": 900_000 + rand::random::<u16>() as i64,
            "date": chrono::Utc::now().timestamp(),
            "chat": {"id": chat, "type": kind, "first_name": "Me"},
            // In a group the sender is a person, whose id is positive.
            "from": {"id": chat.unsigned_abs(), "is_bot": false, "first_name": "Me"},
            "text": text
        });
        if let Some(reply_to) = reply_to {
            message["reply_to_message"] = json!({
                "message_id": reply_to, "date": 0, "chat": {"id": chat, "type": kind}
            });
        }
        self.inject(json!({ "message": message }));
    }

    /// The person (or someone else, from `chat`) taps a button of `message`.
    pub fn tap(&self, chat: i64, message: i64, data: &str) -> String {
        let id = format!("cb{}", rand::random::<u32>());
        self.inject(json!({"callback_query": {
            "id": id,
            "from": {"id": chat, "is_bot": false, "first_name": "Me"},
            "chat_instance": "1",
            "message": {"message_id": message, "date": 0, "chat": {"id": chat, "type": "private"}},
            "data": data
        }}));
        id
    }

    /// Every call of `method` so far.
    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.shared
            .inner
            .lock()
            .unwrap()
            .calls
            .iter()
            .filter(|(name, _)| name == method)
            .map(|(_, params)| params.clone())
            .collect()
    }

    /// Waits (bounded) for a call of `method` that `matches`, and returns it.
    pub async fn wait_for(&self, method: &str, matches: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            if let Some(found) = self.calls(method).into_iter().find(|call| matches(call)) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "no matching {method} arrived; calls: {:#?}",
            self.shared.inner.lock().unwrap().calls
        );
    }
}

/// The buttons of a call's inline keyboard: (text, callback data), row by row.
pub fn buttons(call: &Value) -> Vec<(String, String)> {
    call["reply_markup"]["inline_keyboard"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row.as_array().cloned().unwrap_or_default())
        .map(|button| {
            (
                button["text"].as_str().unwrap_or_default().to_string(),
                button["callback_data"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

/// The callback data of the button whose text contains `text`.
pub fn button(call: &Value, text: &str) -> String {
    buttons(call)
        .into_iter()
        .find(|(label, _)| label.contains(text))
        .unwrap_or_else(|| panic!("no button {text} in {call:#}"))
        .1
}
