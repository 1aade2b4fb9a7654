//! `/api/ws`: the event stream. Sends `init` on connect, then every store event in order; a
//! subscriber that falls behind gets a fresh `init` instead of a gap.

use crate::state::AppState;
use app::model::Event;
use app::store::Store;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures::{Sink, SinkExt, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

/// Upgrades the connection (the Origin was already checked by the security layer).
pub async fn upgrade(State(state): State<AppState>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket: WebSocket| async move {
        let (sink, stream) = socket.split();
        serve(state.store, sink, stream).await;
    })
}

fn encode(event: &Event) -> Message {
    Message::Text(
        serde_json::to_string(event)
            .unwrap_or_else(|_| String::from("{}"))
            .into(),
    )
}

/// Streams events to one subscriber until it leaves or the daemon shuts down.
pub async fn serve<Out, In, E>(store: Store, mut outgoing: Out, mut incoming: In)
where
    Out: Sink<Message> + Unpin,
    In: Stream<Item = Result<Message, E>> + Unpin,
{
    let _counted = store.browser_connected();
    // Subscribe before the snapshot, so no change falls between the two.
    let mut events = store.subscribe();
    if outgoing
        .send(encode(&Event::Init(store.snapshot())))
        .await
        .is_err()
    {
        return;
    }
    let shutdown = store.shutdown_token().clone();
    loop {
        let message = tokio::select! {
            received = events.recv() => match received {
                Ok(event) => encode(&event),
                Err(RecvError::Lagged(skipped)) => {
                    tracing::debug!(skipped, "a WebSocket subscriber lagged; resyncing");
                    encode(&Event::Init(store.snapshot()))
                }
                Err(RecvError::Closed) => break,
            },
            from_client = incoming.next() => match from_client {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
            () = shutdown.cancelled() => {
                let _ = outgoing.send(Message::Close(None)).await;
                break;
            }
        };
        if outgoing.send(message).await.is_err() {
            break;
        }
    }
}
