//! The browser's event stream: the connection the page's first script opened, read once the
//! page has hydrated, reopened with backoff whenever it ends. What the page says back (`say`)
//! goes over the stream open now.

mod socket;

use super::{Connection, Listener, Live, PageEvent};
use gloo_timers::future::TimeoutFuture;
use hark_core::model::{Event, PageSays};
use leptos::prelude::*;
use socket::Socket;

/// How often relative ages ("3 min ago") are refreshed.
const AGE_TICK_MS: u32 = 20_000;
const FIRST_RETRY_MS: u32 = 500;
const MAX_RETRY_MS: u32 = 15_000;
/// After this many failed attempts in a row the dot says "offline" rather than "reconnecting".
const ATTEMPTS_BEFORE_OFFLINE: u32 = 4;

thread_local! {
    /// What `connect` starts once hydration is over.
    static WHEN_HYDRATED: std::cell::RefCell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::RefCell::new(None) };
    /// The stream open now, for what the page says back.
    static OUTBOX: std::cell::RefCell<Option<web_sys::WebSocket>> =
        const { std::cell::RefCell::new(None) };
}

/// Says `said` to the daemon over the stream open now; dropped while none is (it is said again
/// soon enough).
pub fn say(said: &PageSays) {
    let Ok(text) = crate::json::write(said) else {
        return;
    };
    OUTBOX.with(|outbox| {
        if let Some(socket) = outbox.borrow().as_ref()
            && socket.ready_state() == web_sys::WebSocket::OPEN
        {
            let _ = socket.send_with_str(&text);
        }
    });
}

pub fn connect(live: Live, listener: Listener) {
    let opened = Socket::take_early().or_else(open);
    WHEN_HYDRATED.with(|start| {
        *start.borrow_mut() = Some(Box::new(move || {
            if let Some(body) = document().body() {
                let _ = body.set_attribute("data-hydrated", "true");
            }
            leptos::task::spawn_local(run(live, listener, opened));
            leptos::task::spawn_local(async move {
                loop {
                    TimeoutFuture::new(AGE_TICK_MS).await;
                    live.now.set(chrono::Utc::now());
                }
            });
        }));
    });
}

/// Called by the entry point once every island has hydrated, the lazily loaded ones included.
/// Only then is the event stream read (the socket keeps what arrives until then): hydration
/// must find exactly the nodes the server sent, and an event applied while a lazy island's code
/// is still loading would change what that island renders (a question closed meanwhile, quick
/// replies that arrived with the config), which breaks hydration.
pub fn hydration_finished() {
    if let Some(start) = WHEN_HYDRATED.with(|start| start.borrow_mut().take()) {
        start();
    }
}

fn events_url() -> Option<String> {
    let location = window().location();
    let scheme = if location.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Some(format!("{scheme}://{}/api/ws", location.host().ok()?))
}

/// A new connection to the event stream; it keeps what arrives until it is read.
fn open() -> Option<Socket> {
    events_url().and_then(|url| Socket::open(&url))
}

/// Reads the stream from `opened` on, reconnecting whenever it ends.
async fn run(live: Live, listener: Listener, mut opened: Option<Socket>) {
    let mut retry_ms = FIRST_RETRY_MS;
    let mut failures = 0;
    loop {
        if let Some(mut socket) = opened.take().or_else(open) {
            OUTBOX.with(|slot| *slot.borrow_mut() = Some(socket.raw()));
            while let Some(text) = socket.next().await {
                let Ok(event) = crate::json::read::<PageEvent>(&text) else {
                    continue;
                };
                listener(live, &event);
                if matches!(event, Event::Init(_)) {
                    live.connection.set(Connection::Live);
                    retry_ms = FIRST_RETRY_MS;
                    failures = 0;
                }
                live.apply(event);
            }
            OUTBOX.with(|slot| slot.borrow_mut().take());
        }
        failures += 1;
        live.connection.set(if failures >= ATTEMPTS_BEFORE_OFFLINE {
            Connection::Offline
        } else {
            Connection::Reconnecting
        });
        TimeoutFuture::new(retry_ms).await;
        retry_ms = (retry_ms * 2).min(MAX_RETRY_MS);
    }
}
