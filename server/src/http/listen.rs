//! Accepting connections with limits, so that slow, idle or crowding clients cannot starve the
//! daemon. Request headers must arrive within `HEADER_TIMEOUT` (which also closes idle
//! keep-alive connections), request bodies within `body_limits::BODY_TIMEOUT` (a deadline set by
//! `security`). Connections come from three budgets, and none can take another's share:
//! - this machine (loopback, but not another account's: `PeerOwner`): most of them, not capped
//!   per address, since every waiting agent holds a long poll and a thousand may wait at once;
//! - paired devices (addresses that presented the token, `Access::is_paired_peer`): a share,
//!   `PAIRED_PER_PEER` from each;
//! - strangers (every other address, which can do nothing but pair): a small share,
//!   `STRANGERS_PER_PEER` from each, and `STRANGER_HEADER_TIMEOUT` to send a request.
//!
//! The budgets are sized under the open-files limit (`open_files::raise`), with a reserve for
//! the database, the log and the daemon's own files. A connection keeps its place until it
//! closes, also after it became a WebSocket (`ConnectionPlace`, which the upgrade carries).
//! Each request carries its peer's address (`ConnectInfo`) and owner for the access policy.

use crate::security::access::Access;
use crate::security::peer_owner::{OwnerLookups, PeerOwner};
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
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TaskTrackerToken;
use tower::ServiceExt;

/// How long a client may take to send a request's headers (or stay idle between requests).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(15);
/// The same for a stranger: an address that never presented the token.
pub const STRANGER_HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections from this machine at most (a thousand waiting agents, their shims, the pages).
pub const MAX_LOCAL: usize = 4096;
/// Connections from paired devices at most, and from each one.
pub const MAX_PAIRED: usize = 1024;
pub const PAIRED_PER_PEER: usize = 64;
/// Connections from strangers at most, and from each one (enough to open the pairing link).
pub const MAX_STRANGERS: usize = 128;
pub const STRANGERS_PER_PEER: usize = 8;
/// Open files kept for the database, its readers, the log and the runtime.
const FILES_RESERVED: u64 = 128;
/// How long open connections get to finish once the daemon stops.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
/// Refused connections are logged at most this often per budget (a flood must not flood the
/// log).
const REFUSALS_LOGGED_EVERY: Duration = Duration::from_secs(60);

/// How many connections each kind of peer may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    pub local: usize,
    pub paired: usize,
    pub strangers: usize,
}

impl Budgets {
    /// The budgets that fit under `open_files`, the process's limit: strangers get a sixteenth
    /// and paired devices a quarter of what is left after the reserve, each up to its maximum,
    /// and this machine the rest.
    pub fn within(open_files: u64) -> Budgets {
        let usable = usize::try_from(open_files.saturating_sub(FILES_RESERVED))
            .unwrap_or(usize::MAX)
            .max(32);
        let strangers = (usable / 16).clamp(4, MAX_STRANGERS);
        let paired = (usable / 4).clamp(8, MAX_PAIRED);
        let local = (usable - strangers - paired).min(MAX_LOCAL);
        Budgets {
            local,
            paired,
            strangers,
        }
    }
}

/// Serves `router` on `listener` until `shutdown`, then lets open connections finish briefly.
/// A connection's failure ends only that connection; the listener's errors are logged.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: CancellationToken,
    access: Arc<Access>,
) {
    let open_files = crate::security::open_files::raise();
    let budgets = Budgets::within(open_files);
    tracing::info!(open_files, ?budgets, "connection budgets");
    let pools = Arc::new(Pools {
        local: Pool::new("this machine", budgets.local, None),
        paired: Pool::new("paired devices", budgets.paired, Some(PAIRED_PER_PEER)),
        strangers: Pool {
            by_network: true,
            ..Pool::new("strangers", budgets.strangers, Some(STRANGERS_PER_PEER))
        },
    });
    let lookups = OwnerLookups::default();
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
        let ip = peer.ip();
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let shutdown = shutdown.clone();
        let (pools, access, lookups) = (pools.clone(), access.clone(), lookups.clone());
        let draining = tasks.clone();
        tasks.spawn(async move {
            // Once per connection, for every request on it: whose it is. Linux answers in
            // microseconds; the table lookups of Windows and macOS run in this connection's
            // task, never in the accept loop. Another account's connections take the budgets of
            // other devices, not this user's; where the owner cannot be known, this machine
            // keeps its budget (and the token is still asked).
            let owner = match stream.local_addr() {
                Ok(ours) => lookups.look_up(peer, ours).await,
                Err(_) => PeerOwner::Unknown,
            };
            let Some((place, header_timeout)) = pools.admit(ip, owner, &access, &draining) else {
                return;
            };
            let carried = place.clone();
            let service = router.map_request(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request.extensions_mut().insert(owner);
                request.extensions_mut().insert(carried.clone());
                request.map(Body::new)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .with_upgrades();
            let mut connection = pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%error, peer = %ip, "connection ended with an error");
                    }
                }
                () = shutdown.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            // A WebSocket made of this connection still holds its own copy.
            drop(place);
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

struct Pools {
    local: Pool,
    paired: Pool,
    strangers: Pool,
}

impl Pools {
    /// A place for a connection from `ip` whose owner is `owner`, in the budget it belongs to,
    /// with the time it gets to send a request; `None` when that budget is full.
    fn admit(
        &self,
        ip: IpAddr,
        owner: PeerOwner,
        access: &Access,
        draining: &TaskTracker,
    ) -> Option<(ConnectionPlace, Duration)> {
        let (pool, header_timeout) =
            if crate::security::network::is_loopback(ip) && owner != PeerOwner::Another {
                (&self.local, HEADER_TIMEOUT)
            } else if owner != PeerOwner::Another && access.is_paired_peer(ip) {
                (&self.paired, HEADER_TIMEOUT)
            } else {
                (&self.strangers, STRANGER_HEADER_TIMEOUT)
            };
        Some((pool.admit(ip, draining)?, header_timeout))
    }
}

/// One budget: its connections, and per address when capped.
struct Pool {
    name: &'static str,
    open: Arc<Semaphore>,
    per_peer: Option<usize>,
    /// Counts an IPv6 peer by its /64: one machine may hold a whole /64 of addresses.
    by_network: bool,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    last_logged: Mutex<Option<Instant>>,
}

impl Pool {
    fn new(name: &'static str, size: usize, per_peer: Option<usize>) -> Pool {
        Pool {
            name,
            open: Arc::new(Semaphore::new(size)),
            per_peer,
            by_network: false,
            counts: Arc::default(),
            last_logged: Mutex::new(None),
        }
    }

    /// A place for one more connection from `peer`, if the budget has one; a stopping daemon
    /// drains it (`draining`) also once it has been upgraded.
    fn admit(&self, peer: IpAddr, draining: &TaskTracker) -> Option<ConnectionPlace> {
        let Ok(permit) = self.open.clone().try_acquire_owned() else {
            self.log_refusal(peer, "too many open connections");
            return None;
        };
        let slot = match self.per_peer {
            None => None,
            Some(cap) => {
                let counted = if self.by_network {
                    network_of(peer)
                } else {
                    peer
                };
                let Some(slot) = PeerSlot::take(&self.counts, counted, cap) else {
                    self.log_refusal(peer, "too many from this address");
                    return None;
                };
                Some(slot)
            }
        };
        Some(ConnectionPlace {
            _held: Arc::new(Place {
                _permit: permit,
                _slot: slot,
                _drained: draining.token(),
            }),
        })
    }

    fn log_refusal(&self, peer: IpAddr, reason: &str) {
        let mut last = self
            .last_logged
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if last.is_none_or(|at| at.elapsed() >= REFUSALS_LOGGED_EVERY) {
            *last = Some(Instant::now());
            tracing::warn!(%peer, budget = self.name, reason, "connections refused (logged once a minute)");
        } else {
            tracing::debug!(%peer, budget = self.name, reason, "connection refused");
        }
    }
}

/// The address a peer is counted under: an IPv6 address's /64 (what one machine may hold),
/// an IPv4 address (or an IPv4-mapped one) as it is.
fn network_of(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_none() => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(std::net::Ipv6Addr::from(segments))
        }
        other => other,
    }
}

/// A connection's place in its budget, given back when the last copy is dropped: the
/// connection's task holds one, and a WebSocket or a wait upgraded from it another
/// (`ws::upgrade`, `api::wait`).
#[derive(Clone)]
pub struct ConnectionPlace {
    _held: Arc<Place>,
}

struct Place {
    _permit: OwnedSemaphorePermit,
    _slot: Option<PeerSlot>,
    /// Counted among the open connections a stopping daemon waits for.
    _drained: TaskTrackerToken,
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
        cap: usize,
    ) -> Option<PeerSlot> {
        let mut map = counts.lock().unwrap_or_else(|poison| poison.into_inner());
        let count = map.entry(peer).or_insert(0);
        if *count >= cap {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_fit_under_the_open_files_limit_and_never_starve_this_machine() {
        for limit in [64, 256, 1024, 4096, 20_000, 1 << 20] {
            let budgets = Budgets::within(limit);
            let total = (budgets.local + budgets.paired + budgets.strangers) as u64;
            assert!(
                total + FILES_RESERVED <= limit.max(FILES_RESERVED + 32),
                "{limit}: {budgets:?}"
            );
            assert!(budgets.local > budgets.paired, "{limit}: {budgets:?}");
            assert!(budgets.paired > budgets.strangers, "{limit}: {budgets:?}");
        }
        assert_eq!(
            Budgets::within(1 << 20),
            Budgets {
                local: MAX_LOCAL,
                paired: MAX_PAIRED,
                strangers: MAX_STRANGERS
            }
        );
        let macos = Budgets::within(256);
        assert!(
            macos.strangers <= STRANGERS_PER_PEER && macos.local >= 64,
            "{macos:?}"
        );
    }

    #[test]
    fn strangers_on_ipv6_are_counted_by_their_network() {
        let pool = Pool {
            by_network: true,
            ..Pool::new("test", 16, Some(2))
        };
        let draining = TaskTracker::new();
        let places: Vec<_> = ["2001:db8::1", "2001:db8::2"]
            .iter()
            .map(|peer| pool.admit(peer.parse().unwrap(), &draining).unwrap())
            .collect();
        assert!(
            pool.admit("2001:db8::3".parse().unwrap(), &draining)
                .is_none(),
            "same /64"
        );
        assert!(
            pool.admit("2001:db8:0:1::1".parse().unwrap(), &draining)
                .is_some(),
            "another /64"
        );
        assert!(
            pool.admit("192.168.1.50".parse().unwrap(), &draining)
                .is_some()
        );
        drop(places);
    }

    #[test]
    fn a_place_is_given_back_only_when_its_last_holder_lets_go() {
        let pool = Pool::new("test", 2, Some(1));
        let draining = TaskTracker::new();
        let peer: IpAddr = "192.168.1.50".parse().unwrap();
        let place = pool.admit(peer, &draining).unwrap();
        assert!(pool.admit(peer, &draining).is_none(), "one per address");
        let websocket = place.clone();
        drop(place);
        assert!(
            pool.admit(peer, &draining).is_none(),
            "the WebSocket still holds it"
        );
        assert_eq!(
            draining.len(),
            1,
            "a stopping daemon waits for the WebSocket"
        );
        drop(websocket);
        assert!(draining.is_empty());
        assert!(pool.admit(peer, &draining).is_some());
    }
}
