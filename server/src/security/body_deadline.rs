//! A deadline for a request's whole body (`body_limits::BODY_TIMEOUT` from the end of its headers),
//! so a client that trickles a byte at a time is cut like one that sends nothing. Hand-written
//! because tower-http's `RequestBodyTimeout` restarts its timer on every chunk, and no
//! maintained crate offers a deadline for the whole body; it is one `poll_frame`.

use axum::body::Body;
use http_body::{Frame, SizeHint};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Sleep;

/// The error a body reports once its deadline passed; `json::read_body` turns it into a 408.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {} s", .0.as_secs())]
pub struct BodyTooSlow(pub Duration);

/// `inner`, failing with `BodyTooSlow` once `limit` has passed since it was wrapped.
pub fn with_deadline(inner: Body, limit: Duration) -> Body {
    Body::new(Deadline {
        inner,
        limit,
        deadline: Box::pin(tokio::time::sleep(limit)),
    })
}

struct Deadline {
    inner: Body,
    limit: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl http_body::Body for Deadline {
    type Data = axum::body::Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if self.deadline.as_mut().poll(context).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTooSlow(self.limit)))));
        }
        Pin::new(&mut self.inner)
            .poll_frame(context)
            .map_err(Into::into)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
