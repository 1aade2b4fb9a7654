//! `/api/ws`: the event stream. Sends `init` on connect, then every store event in order; a
//! subscriber that falls behind gets a fresh `init` instead of a gap. A stream opened with the
//! token ends when the token is rotated. A ping every `PING_EVERY` finds peers that vanished
//! (a phone asleep, a dropped Wi-Fi): one silent for `SILENT_FOR` is closed, so dead sockets do
//! not pile up. The page says one thing back: that the person is typing an answer (`PageSays`),
//! which keeps the question's time limit waiting for them.

use crate::http::listen::ConnectionPlace;
use crate::http::state::AppState;
use crate::security::access::Paired;
use axum::Extension;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures::{Sink, SinkExt, Stream, StreamExt};
use hark_core::model::{Event, PageSays};
use hark_core::store::Store;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

/// Upgrades the connection (the Origin and the token were already checked by the security
/// layer).
pub async fn upgrade(
    State(state): State<AppState>,
    paired: Option<Extension<Paired>>,
    place: Option<Extension<ConnectionPlace>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let rotations = paired.map(|_| state.access.tokens.rotations());
    upgrade
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        .on_upgrade(move |socket: WebSocket| async move {
            // The socket counts against its connection's budget until it closes.
            let _place = place;
            let (sink, stream) = socket.split();
            serve(state.store, sink, stream, rotations).await;
        })
}

/// The largest message or frame a page may send: it sends only pongs and a short `PageSays`,
/// so anything bigger is abuse and closes the socket (1009) before it is buffered.
pub const MAX_INCOMING: usize = 4 * 1024;

/// How often the daemon pings each subscriber.
pub const PING_EVERY: Duration = Duration::from_secs(30);
/// A subscriber silent this long (no pong, no message) is taken for gone.
pub const SILENT_FOR: Duration = Duration::from_secs(90);

/// Resolves when the token is rotated; never for a stream that needed no token.
async fn rotated(rotations: &mut Option<watch::Receiver<u64>>) {
    match rotations {
        Some(rotations) => {
            let _ = rotations.changed().await;
        }
        None => std::future::pending().await,
    }
}

/// An event as the stream sends it: its questions' texts rendered for the page.
fn encode(event: &Event) -> Message {
    Message::Text(
        serde_json::to_string(&crate::http::page::event_for_page(event))
            .unwrap_or_else(|_| String::from("{}"))
            .into(),
    )
}

/// What the page said; anything else it sends is ignored.
fn heard(store: &Store, text: &str) {
    match serde_json::from_str::<PageSays>(text) {
        Ok(PageSays::Typing { id }) => {
            store.typing(id);
        }
        Err(error) => tracing::debug!(%error, "ignored a message from a page"),
    }
}

/// Streams events to one subscriber until it leaves or the daemon shuts down.
pub async fn serve<Out, In, E>(
    store: Store,
    mut outgoing: Out,
    mut incoming: In,
    mut rotations: Option<watch::Receiver<u64>>,
) where
    Out: Sink<Message> + Unpin,
    In: Stream<Item = Result<Message, E>> + Unpin,
{
    let _counted = store.browser_connected();
    // Subscribe before the snapshot, so no change falls between the two.
    let mut events = store.subscribe();
    if outgoing
        .send(encode(&Event::Init(store.snapshot().await)))
        .await
        .is_err()
    {
        return;
    }
    let shutdown = store.shutdown_token().clone();
    let mut heartbeat =
        tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        let received = tokio::select! {
            received = events.recv() => received,
            from_client = incoming.next() => match from_client {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(message)) => {
                    last_heard = tokio::time::Instant::now();
                    if let Message::Text(text) = message {
                        heard(&store, &text);
                    }
                    continue;
                }
            },
            _ = heartbeat.tick() => {
                if last_heard.elapsed() >= SILENT_FOR {
                    tracing::debug!("closing a WebSocket whose peer stopped answering pings");
                    break;
                }
                if outgoing.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
                continue;
            }
            () = shutdown.cancelled() => {
                let _ = outgoing.send(Message::Close(None)).await;
                break;
            }
            () = rotated(&mut rotations) => {
                tracing::info!("closing a WebSocket paired with the replaced token");
                let _ = outgoing.send(Message::Close(None)).await;
                break;
            }
        };
        let message = match received {
            Ok(event) => encode(&event),
            Err(RecvError::Lagged(skipped)) => {
                tracing::debug!(skipped, "a WebSocket subscriber lagged; resyncing");
                // Start over from now: the snapshot covers everything still buffered.
                events = events.resubscribe();
                encode(&Event::Init(store.snapshot().await))
            }
            Err(RecvError::Closed) => break,
        };
        if outgoing.send(message).await.is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::channel::mpsc;
    use hark_core::model::{AskRequest, SubQuestion};
    use tokio_util::sync::CancellationToken;

    fn decode(message: Message) -> Event {
        let Message::Text(text) = message else {
            panic!("expected text, got {message:?}");
        };
        serde_json::from_str(&text).unwrap()
    }

    fn ask() -> AskRequest {
        AskRequest {
            questions: vec![SubQuestion::text("Still there?")],
            ..AskRequest::default()
        }
    }

    #[tokio::test]
    async fn a_subscriber_that_falls_behind_is_resynced_with_a_fresh_init() {
        let (store, _) = Store::open(None, CancellationToken::new());
        let (outgoing, mut received) = mpsc::channel::<Message>(0);
        let (_client, incoming) = mpsc::unbounded::<Result<Message, ()>>();
        let server = tokio::spawn(serve(store.clone(), outgoing, incoming, None));
        let Event::Init(first) = decode(received.next().await.unwrap()) else {
            panic!("the first message is init");
        };
        assert!(first.questions.is_empty());

        // More changes than the broadcast buffer holds, while the subscriber reads nothing.
        let changes = hark_core::store::EVENT_BUFFER + 100;
        for _ in 0..changes / 2 {
            let created = store.create(ask()).await.unwrap();
            store
                .close(
                    created.question().id,
                    hark_core::store::Outcome::Withdrawn { note: None },
                    None,
                )
                .await
                .unwrap();
        }
        let mut resynced = None;
        for _ in 0..changes {
            match decode(received.next().await.unwrap()) {
                Event::Init(init) => {
                    resynced = Some(init);
                    break;
                }
                Event::QuestionCreated(_) | Event::QuestionClosed(_) => continue,
                other => panic!("unexpected {other:?}"),
            }
        }
        let resynced = resynced.expect("a lagged subscriber gets a fresh init");
        assert_eq!(
            resynced.questions.len(),
            hark_core::model::limits::HISTORY_PAGE,
            "nothing pending, and the newest page of the history"
        );

        // And it keeps streaming afterwards.
        let created = store.create(ask()).await.unwrap();
        let Event::QuestionCreated(question) = decode(received.next().await.unwrap()) else {
            panic!("live events continue after the resync");
        };
        // As the store has it, plus its headlines for the page's lists.
        let mut expected = created.question().clone();
        expected.shown = Some(hark_core::model::Shown {
            headline: hark_text::question::headline(&expected),
            first_question: hark_text::question::first_question(&expected),
            ..Default::default()
        });
        assert_eq!(question, expected);
        assert_eq!(store.browser_clients(), 1);
        drop(received);
        store.create(ask()).await.unwrap();
        server.await.unwrap();
        assert_eq!(store.browser_clients(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_stops_answering_pings_is_dropped_and_one_that_answers_is_kept() {
        let (store, _) = Store::open(None, CancellationToken::new());
        let (outgoing, mut received) = mpsc::channel::<Message>(16);
        let (client, incoming) = mpsc::unbounded::<Result<Message, ()>>();
        let server = tokio::spawn(serve(store.clone(), outgoing, incoming, None));
        assert!(matches!(
            decode(received.next().await.unwrap()),
            Event::Init(_)
        ));
        // Answering each ping keeps it open well past the silence limit.
        for _ in 0..5 {
            assert!(matches!(received.next().await, Some(Message::Ping(_))));
            client
                .unbounded_send(Ok(Message::Pong(Default::default())))
                .unwrap();
        }
        assert!(!server.is_finished());
        // Then silence: closed after SILENT_FOR.
        let closed = tokio::time::timeout(SILENT_FOR * 2, async {
            while received.next().await.is_some() {}
        })
        .await;
        assert!(closed.is_ok(), "a silent peer is dropped");
        server.await.unwrap();
        assert_eq!(store.browser_clients(), 0);
    }

    #[tokio::test]
    async fn shutdown_closes_the_stream() {
        let shutdown = CancellationToken::new();
        let (store, _) = Store::open(None, shutdown.clone());
        let (outgoing, mut received) = mpsc::channel::<Message>(4);
        let (_client, incoming) = mpsc::unbounded::<Result<Message, ()>>();
        let server = tokio::spawn(serve(store, outgoing, incoming, None));
        assert!(matches!(
            decode(received.next().await.unwrap()),
            Event::Init(_)
        ));
        shutdown.cancel();
        server.await.unwrap();
        assert!(matches!(received.next().await, Some(Message::Close(_))));
    }
}
