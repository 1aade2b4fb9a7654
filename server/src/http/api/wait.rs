//! `GET /api/questions/{id}/wait`, the long poll: answered over HTTP, or over the bare
//! connection once it has switched protocols (`Upgrade: hark-wait`, `WAIT_UPGRADE`), as the
//! shim's and the CLI's waits ask. hyper keeps a read and a write buffer of 8 KB for every
//! HTTP/1 connection while a request is in flight, which no setting of its lowers; a wait that
//! has switched holds only its socket and its future, so a thousand waiting agents cost the
//! daemon a few megabytes, not tens.

use super::questions::IdPath;
use crate::http::error::ApiError;
use crate::http::listen::ConnectionPlace;
use crate::http::query::ApiQuery;
use crate::http::state::AppState;
use axum::body::Body;
use axum::extract::{OptionalFromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use hark_core::model::{QuestionId, WAIT_UPGRADE, WaitResult};
use hark_core::store::{StoreError, Waited};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The longest a single `/wait` holds the connection when the client names a timeout.
pub const MAX_WAIT_SECS: u64 = 60;

/// `/wait`'s parameters.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WaitQuery {
    /// Seconds to wait at most (capped at `MAX_WAIT_SECS`); none: until the question closes.
    timeout: Option<u64>,
    /// `true` (or `1`): the question is withdrawn if the connection drops mid-wait.
    cancel_on_disconnect: Option<String>,
    /// `true` (or `1`): the result takes along the messages for the agent that asked.
    messages: Option<String>,
}

/// A flag in a query: `true` or `1`.
fn flag(value: Option<&str>) -> bool {
    value.is_some_and(|value| value == "true" || value == "1")
}

/// Long-poll. Without `timeout` it waits until the question closes, as the Node reference did;
/// with one it waits at most that many seconds (capped at 60) and answers 204 if still pending.
/// With `cancelOnDisconnect=true` (the shim's waits), a connection that drops mid-wait
/// means its asker is gone: the question stays answerable for `lateSecs`, then is withdrawn.
/// With `messages=true` (the shim's waits too), the closed result carries the messages the
/// person left for the asking agent, delivered with it: no second round trip to collect them.
/// Asked to switch (`Switch`), it answers `101` for a question it knows and waits on the bare
/// connection; an unknown id is still refused over HTTP.
pub(super) async fn wait(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    ApiQuery(query): ApiQuery<WaitQuery>,
    place: Option<Extension<ConnectionPlace>>,
    switch: Option<Switch>,
) -> Result<Response, ApiError> {
    let Some(Switch(switched)) = switch else {
        return Ok(match waited(&state, id, &query).await? {
            Some(result) => Json(result).into_response(),
            None => StatusCode::NO_CONTENT.into_response(),
        });
    };
    if state.store.get(id).await.is_none() {
        return Err(StoreError::NotFound(id).into());
    }
    tokio::spawn(async move {
        // The socket counts against its connection's budget until it closes.
        let _place = place;
        match switched.await {
            Ok(connection) => wait_on(state, id, query, TokioIo::new(connection)).await,
            Err(error) => tracing::debug!(%id, %error, "a wait's switch of protocols failed"),
        }
    });
    let switching = Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, WAIT_UPGRADE)
        .body(Body::empty());
    Ok(switching.unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()))
}

/// The wait itself: `Some` once closed, `None` when its time ran out. Dropped mid-wait (its
/// connection closed), a wait with `cancelOnDisconnect` leaves the question abandoned.
async fn waited(
    state: &AppState,
    id: QuestionId,
    query: &WaitQuery,
) -> Result<Option<WaitResult>, ApiError> {
    let timeout = query
        .timeout
        .map(|secs| Duration::from_secs(secs.min(MAX_WAIT_SECS)));
    let cancel_on_disconnect = flag(query.cancel_on_disconnect.as_deref());
    let mut guard = cancel_on_disconnect.then(|| CancelIfAbandoned {
        store: state.store.clone(),
        id,
        armed: true,
    });
    let waited = state.store.wait(id, timeout).await;
    if let Some(guard) = guard.as_mut() {
        guard.armed = false;
    }
    let Waited::Closed(mut result) = waited? else {
        return Ok(None);
    };
    // The agent takes the images along: their bytes go with the result.
    if let Some(answers) = result.answers.as_mut() {
        state.store.fill_image_data(id, answers).await;
    }
    if flag(query.messages.as_deref()) {
        // The answer matters more than the messages: should the disk refuse their marks, they
        // wait for the agent's next call and the answer goes now.
        match state.store.deliver_with_answer(id).await {
            Ok(messages) => result.messages = messages,
            Err(error) => {
                tracing::warn!(%id, %error, "the messages stay for the agent's next call")
            }
        }
    }
    Ok(Some(result))
}

/// A wait on a connection that has switched protocols: the line `<status> <body>` once it
/// ends, unless the client left first (it closed its side, or broke the protocol by sending).
async fn wait_on(
    state: AppState,
    id: QuestionId,
    query: WaitQuery,
    mut connection: TokioIo<Upgraded>,
) {
    let outcome = tokio::select! {
        outcome = waited(&state, id, &query) => outcome,
        () = left(&mut connection) => return,
    };
    let line = match outcome {
        Ok(Some(result)) => line(StatusCode::OK, Some(&result)),
        Ok(None) => line(StatusCode::NO_CONTENT, None::<&()>),
        Err(error) => line(error.status, Some(&error.body)),
    };
    let written = async {
        connection.write_all(&line).await?;
        connection.shutdown().await
    };
    if let Err(error) = written.await {
        tracing::debug!(%id, %error, "the waiting client left before its result");
    }
}

/// `<status> <body>\n`, or `<status>\n` without a body.
fn line(status: StatusCode, body: Option<&impl serde::Serialize>) -> Vec<u8> {
    let mut line = status.as_str().as_bytes().to_vec();
    if let Some(body) = body {
        line.push(b' ');
        // The daemon's own types always serialize.
        let _ = serde_json::to_writer(&mut line, body);
    }
    line.push(b'\n');
    line
}

/// Resolves once the client closes its side or sends anything: after its request it has
/// nothing to say, so either means it is gone.
async fn left(connection: &mut TokioIo<Upgraded>) {
    let mut byte = [0u8; 1];
    let _ = connection.read(&mut byte).await;
}

/// A request to wait on the bare connection: `Connection: upgrade` and `Upgrade: hark-wait`.
pub(super) struct Switch(OnUpgrade);

impl<S: Send + Sync> OptionalFromRequestParts<S> for Switch {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Option<Self>, Infallible> {
        let has = |name: header::HeaderName, token: &str| {
            parts.headers.get_all(name).iter().any(|value| {
                (value.to_str().unwrap_or_default().split(','))
                    .any(|listed| listed.trim().eq_ignore_ascii_case(token))
            })
        };
        if !(has(header::CONNECTION, "upgrade") && has(header::UPGRADE, WAIT_UPGRADE)) {
            return Ok(None);
        }
        Ok(parts.extensions.remove::<OnUpgrade>().map(Switch))
    }
}

/// Marks a question whose asker vanished mid-wait as abandoned (answerable for `lateSecs`,
/// then withdrawn): when the waiting connection closes, the server drops the wait before it
/// finishes, and this guard's drop does it. A finished wait disarms it first.
struct CancelIfAbandoned {
    store: hark_core::store::Store,
    id: QuestionId,
    armed: bool,
}

impl Drop for CancelIfAbandoned {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        // A drop cannot wait for the disk: the withdrawal runs as a task of its own.
        let (store, id) = (self.store.clone(), self.id);
        tokio::spawn(async move {
            let _ = store.abandon(id).await;
        });
    }
}
