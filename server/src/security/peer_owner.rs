//! Whose a connection from this machine is (SPEC §16): a loopback peer counts as "this machine"
//! only when its socket belongs to the daemon's own OS user, so another account on a shared
//! machine needs the token like any stranger. Looked up once per connection when it is
//! accepted, never per request. On Linux the kernel is asked for exactly the peer's socket
//! (`peer_owner/linux.rs`, sock_diag, microseconds); on Windows and macOS a table of the
//! machine's TCP sockets names the client's process (`peer_owner/windows.rs`,
//! `peer_owner/macos.rs`, found by `peer_owner/matching.rs`), whose user is compared
//! (`peer_owner/process_user.rs`). Those tables take milliseconds, so they are read off the
//! accept loop (`PeerOwner::look_up`). An owner that cannot be found is a stranger.

use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

#[cfg(target_os = "linux")]
#[path = "peer_owner/linux.rs"]
mod lookup;
#[cfg(any(windows, target_os = "macos", test))]
#[path = "peer_owner/matching.rs"]
mod matching;
#[cfg(any(windows, target_os = "macos"))]
#[path = "peer_owner/process_user.rs"]
mod process_user;
#[cfg(target_os = "macos")]
#[path = "peer_owner/macos.rs"]
mod table;
#[cfg(windows)]
#[path = "peer_owner/windows.rs"]
mod table;
#[cfg(windows)]
pub use process_user::own_user;

/// What the listener found out about a connection's owner; carried on each of its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerOwner {
    /// The daemon's own user.
    Same,
    /// Another user of this machine: it needs the token, and a one-time login is not for it.
    Another,
    /// Off this machine, or an owner that could not be found: it needs the token.
    Unknown,
}

/// Connections at most waiting for a slow lookup (Windows, macOS); past them a new connection
/// from this machine counts as another account's at once (it fails closed), so a flood cannot
/// pile up work or memory, nor slip its connections into this user's budget. This user's own
/// programs still get in then: they send the token (`client.rs`).
const LOOKUPS_WAITING: usize = 64;

/// Looks owners up for the accept loop.
#[derive(Clone)]
pub struct OwnerLookups {
    waiting: Arc<Semaphore>,
}

impl Default for OwnerLookups {
    fn default() -> Self {
        OwnerLookups {
            waiting: Arc::new(Semaphore::new(LOOKUPS_WAITING)),
        }
    }
}

impl OwnerLookups {
    /// The owner of the connection from `peer` to `ours`. Linux answers in place; a table
    /// lookup runs on the blocking pool, only for a peer on this machine (another has no row
    /// to find), and only while fewer than `LOOKUPS_WAITING` wait.
    pub async fn look_up(&self, peer: SocketAddr, ours: SocketAddr) -> PeerOwner {
        if cfg!(target_os = "linux") {
            return PeerOwner::of(peer, ours);
        }
        if !on_this_machine(peer, ours) {
            return PeerOwner::Unknown;
        }
        let Ok(place) = self.waiting.clone().try_acquire_owned() else {
            tracing::debug!(%peer, "too many connections waiting for an owner lookup");
            return PeerOwner::Another;
        };
        let owner = tokio::task::spawn_blocking(move || PeerOwner::of(peer, ours)).await;
        drop(place);
        owner.unwrap_or(PeerOwner::Another)
    }
}

impl PeerOwner {
    /// The owner of the connection from `peer` to `ours` (both as the daemon's end sees them).
    /// Blocks for as long as the OS takes (see `OwnerLookups::look_up`).
    pub fn of(peer: SocketAddr, ours: SocketAddr) -> PeerOwner {
        // Every peer is looked up, not only loopback ones: another account may come by this
        // machine's LAN address too. A peer elsewhere has no socket here (`Unknown`).
        match owner_is_us(peer, ours) {
            Some(true) => PeerOwner::Same,
            Some(false) => PeerOwner::Another,
            None => PeerOwner::Unknown,
        }
    }
}

#[cfg(target_os = "linux")]
fn owner_is_us(peer: SocketAddr, ours: SocketAddr) -> Option<bool> {
    lookup::owner_is_us(peer, ours).unwrap_or_else(|error| {
        tracing::warn!(%error, "cannot look up who owns a connection; it needs the token");
        None
    })
}

/// From a table: a peer on this machine whose socket no row shows belongs to another account
/// (macOS shows a program only its own user's processes); a peer elsewhere has no row at all.
#[cfg(any(windows, target_os = "macos"))]
fn owner_is_us(peer: SocketAddr, ours: SocketAddr) -> Option<bool> {
    if !on_this_machine(peer, ours) {
        return None;
    }
    match table::tcp_rows() {
        Ok(rows) => {
            Some(matching::client_pid(rows, peer, ours).is_some_and(process_user::runs_as_us))
        }
        Err(error) => {
            tracing::warn!(%error, "cannot look up who owns a connection; it needs the token");
            None
        }
    }
}

/// Whether `peer` is this machine: loopback, or the very address it reached the daemon on.
fn on_this_machine(peer: SocketAddr, ours: SocketAddr) -> bool {
    let ip = peer.ip().to_canonical();
    ip.is_loopback() || ip == ours.ip().to_canonical()
}

#[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
fn owner_is_us(_peer: SocketAddr, _ours: SocketAddr) -> Option<bool> {
    None
}

/// Whether the daemon listening on `address` runs as this user: `Some(false)` when it is
/// another user's (or another user's listener sits beside it), to whom this user's token must
/// not be handed; `None` where it cannot be told (nothing listens, or no lookup for this OS).
#[cfg(target_os = "linux")]
pub fn listener_is_ours(address: SocketAddr) -> Option<bool> {
    lookup::listener_is_ours(address).ok().flatten()
}

/// From a table, a listener nobody visible holds is not ours: macOS hides other users'
/// processes, and where nothing listens at all the request fails anyway.
#[cfg(any(windows, target_os = "macos"))]
pub fn listener_is_ours(address: SocketAddr) -> Option<bool> {
    let pids = matching::listener_pids(table::tcp_rows().ok()?, address);
    Some(!pids.is_empty() && pids.into_iter().all(process_user::runs_as_us))
}

#[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
pub fn listener_is_ours(_address: SocketAddr) -> Option<bool> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn this_test_owns_its_own_connection() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (accepted, peer) = listener.accept().unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        assert_eq!(
            PeerOwner::of(peer, accepted.local_addr().unwrap()),
            PeerOwner::Same
        );
    }

    #[test]
    fn ipv6_loopback_is_looked_up_too() {
        let Ok(listener) = std::net::TcpListener::bind("[::1]:0") else {
            eprintln!("skipped: no IPv6 loopback here");
            return;
        };
        let _client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (accepted, peer) = listener.accept().unwrap();
        assert_eq!(
            PeerOwner::of(peer, accepted.local_addr().unwrap()),
            PeerOwner::Same
        );
    }

    #[test]
    fn a_connection_that_is_gone_has_no_owner() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let ours = listener.local_addr().unwrap();
        // A port nobody connected from.
        let nobody: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(PeerOwner::of(nobody, ours), PeerOwner::Unknown);
    }

    #[test]
    fn this_users_listener_is_ours_and_a_free_port_is_no_ones() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        assert_eq!(listener_is_ours(address), Some(true));
        drop(listener);
        assert_eq!(listener_is_ours(address), None);
    }

    #[test]
    fn a_peer_off_this_machine_has_no_owner_here() {
        let phone: SocketAddr = "192.0.2.50:40000".parse().unwrap();
        let ours: SocketAddr = "192.0.2.2:13390".parse().unwrap();
        assert_eq!(PeerOwner::of(phone, ours), PeerOwner::Unknown);
    }

    #[test]
    fn a_listening_socket_on_the_peers_port_is_not_the_peer() {
        // The kernel's exact lookup falls back to a listener on the asked address and port.
        let decoy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let ours = listener.local_addr().unwrap();
        assert_eq!(
            PeerOwner::of(decoy.local_addr().unwrap(), ours),
            PeerOwner::Unknown
        );
    }
}

#[cfg(test)]
mod machine_tests {
    use super::on_this_machine;

    #[test]
    fn loopback_and_the_daemons_own_address_are_this_machine() {
        let at = |address: &str| address.parse().unwrap();
        let lan = at("192.168.1.20:13390");
        assert!(on_this_machine(at("127.0.0.1:50000"), lan));
        assert!(on_this_machine(at("[::1]:50000"), lan));
        assert!(on_this_machine(at("[::ffff:127.0.0.1]:50000"), lan));
        assert!(on_this_machine(at("192.168.1.20:50000"), lan));
        assert!(on_this_machine(at("[::ffff:192.168.1.20]:50000"), lan));
        assert!(!on_this_machine(at("192.168.1.30:50000"), lan));
    }
}
