//! Accepting connections with limits, so that slow or idle clients cannot starve the daemon:
//! request headers must arrive within `HEADER_TIMEOUT` (which also closes idle keep-alive
//! connections), request bodies within `BODY_TIMEOUT` (a deadline set by `security`), and at most
//! `MAX_CONNECTIONS` connections are open, `MAX_CONNECTIONS_PER_PEER` from any one other
//! machine. This machine's programs are not capped per address: every waiting agent holds a
//! long poll, and a thousand may wait at once.
//! Each request carries its peer's address (`ConnectInfo`) for the access policy.

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::IpAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// How long a client may take to send a request's headers (or stay idle between requests).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a client may take to send a request's whole body, from the end of its headers.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Open connections at most (a thousand waiting agents, their shims, and the pages).
pub const MAX_CONNECTIONS: usize = 4096;
/// Open connections from one other machine at most (a phone keeps a handful).
pub const MAX_CONNECTIONS_PER_PEER: usize = 64;
/// How long open connections get to finish once the daemon stops.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves `router` on `listener` until `shutdown`, then lets open connections finish briefly.
/// A connection's failure ends only that connection; the listener's errors are logged.
pub async fn serve(listener: TcpListener, router: Router, shutdown: CancellationToken) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let per_peer: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    let tasks = TaskTracker::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = shutdown.cancelled() => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tracing::warn!(peer = %peer.ip(), "connection refused: too many open connections");
            continue;
        };
        let Some(slot) =
            PeerSlot::take(&per_peer, peer.ip(), crate::network::is_loopback(peer.ip()))
        else {
            tracing::warn!(peer = %peer.ip(), "connection refused: too many from this address");
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = router
            .clone()
            .map_request(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request.map(Body::new)
            });
        let shutdown = shutdown.clone();
        tasks.spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .with_upgrades();
            let mut connection = pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%error, peer = %peer.ip(), "connection ended with an error");
                    }
                }
                () = shutdown.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop((permit, slot));
        });
    }
    tasks.close();
    if tokio::time::timeout(DRAIN_TIMEOUT, tasks.wait())
        .await
        .is_err()
    {
        tracing::info!("stopping with connections still open");
    }
}

/// One connection's place in its address's count, given back when the connection ends.
struct PeerSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    peer: IpAddr,
}

impl PeerSlot {
    fn take(
        counts: &Arc<Mutex<HashMap<IpAddr, usize>>>,
        peer: IpAddr,
        uncapped: bool,
    ) -> Option<PeerSlot> {
        let mut map = counts.lock().unwrap_or_else(|poison| poison.into_inner());
        let count = map.entry(peer).or_insert(0);
        if *count >= MAX_CONNECTIONS_PER_PEER && !uncapped {
            return None;
        }
        *count += 1;
        Some(PeerSlot {
            counts: counts.clone(),
            peer,
        })
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let mut map = self
            .counts
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(count) = map.get_mut(&self.peer) {
            *count -= 1;
            if *count == 0 {
                map.remove(&self.peer);
            }
        }
    }
}
