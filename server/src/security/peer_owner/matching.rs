//! Finding a connection's client in a table of the machine's TCP sockets with their owning
//! processes, as Windows (`GetExtendedTcpTable`) and macOS (every process's socket
//! descriptors) list them: every connection appears twice, once from each end, and listeners
//! once. The client's row is the one whose local end is the peer (and whose remote end is the
//! daemon, where the table says). Kept apart from the OS calls so it is tested on every OS.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

/// One socket of the table: its ends, whether it listens, and the process that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub local: SocketAddr,
    /// The other end, where the table gives it (macOS's descriptor table does not).
    pub remote: Option<SocketAddr>,
    pub listening: bool,
    pub pid: u32,
}

/// The process owning the client's socket of the connection from `peer` to `ours`; `None` when
/// no row is it (the client has gone) or two disagree.
pub fn client_pid(
    rows: impl IntoIterator<Item = Row>,
    peer: SocketAddr,
    ours: SocketAddr,
) -> Option<u32> {
    let (peer, ours) = (canonical(peer), canonical(ours));
    only_pid(rows.into_iter().filter(|row| {
        !row.listening
            && canonical(row.local) == peer
            && row.remote.is_none_or(|remote| canonical(remote) == ours)
    }))
}

/// Every process listening where a connection to `address` could land: on it, or on every
/// address with its port. More than one means a more specific listener may be taking the
/// connections; the caller trusts the daemon only when all of them are its user's.
pub fn listener_pids(rows: impl IntoIterator<Item = Row>, address: SocketAddr) -> Vec<u32> {
    let address = canonical(address);
    let mut pids: Vec<u32> = rows
        .into_iter()
        .filter(|row| {
            let local = canonical(row.local);
            row.listening
                && local.port() == address.port()
                && (local.ip() == address.ip() || local.ip().is_unspecified())
                && same_family(local.ip(), address.ip())
        })
        .map(|row| row.pid)
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

fn only_pid(rows: impl Iterator<Item = Row>) -> Option<u32> {
    let mut found = None;
    for row in rows {
        match found {
            None => found = Some(row.pid),
            Some(pid) if pid == row.pid => {}
            Some(_) => return None,
        }
    }
    found
}

/// A wildcard listener of the other family does not take this address: `0.0.0.0` is not `::1`
/// (but a dual-stack `::` takes both, so an IPv6 wildcard matches any address).
fn same_family(listening: IpAddr, address: IpAddr) -> bool {
    match (listening, address) {
        (IpAddr::V4(_), IpAddr::V6(_)) => false,
        (IpAddr::V6(any), IpAddr::V4(_)) => any == Ipv6Addr::UNSPECIFIED,
        _ => true,
    }
}

/// A dual-stack listener sees an IPv4 client as `::ffff:a.b.c.d`; the tables write it plainly.
fn canonical(address: SocketAddr) -> SocketAddr {
    SocketAddr::new(address.ip().to_canonical(), address.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(local: &str, remote: Option<&str>, pid: u32) -> Row {
        Row {
            local: local.parse().unwrap(),
            remote: remote.map(|remote| remote.parse().unwrap()),
            listening: false,
            pid,
        }
    }

    fn listening(local: &str, pid: u32) -> Row {
        Row {
            listening: true,
            ..row(local, None, pid)
        }
    }

    fn at(address: &str) -> SocketAddr {
        address.parse().unwrap()
    }

    #[test]
    fn the_clients_end_is_found_not_the_daemons() {
        let table = [
            listening("127.0.0.1:13390", 10),
            row("127.0.0.1:13390", Some("127.0.0.1:50123"), 10),
            row("127.0.0.1:50123", Some("127.0.0.1:13390"), 42),
            row("127.0.0.1:50124", Some("127.0.0.1:13390"), 43),
        ];
        let ours = at("127.0.0.1:13390");
        assert_eq!(client_pid(table, at("127.0.0.1:50123"), ours), Some(42));
        assert_eq!(client_pid(table, at("127.0.0.1:50125"), ours), None);
    }

    #[test]
    fn a_table_without_remote_ends_finds_the_client_by_its_own_end() {
        // macOS: the daemon's accepted socket is 13390 locally, the client's is its own port.
        let table = [
            listening("127.0.0.1:13390", 10),
            row("127.0.0.1:13390", None, 10),
            row("127.0.0.1:50123", None, 42),
        ];
        let ours = at("127.0.0.1:13390");
        assert_eq!(client_pid(table, at("127.0.0.1:50123"), ours), Some(42));
    }

    #[test]
    fn a_listener_on_the_peers_port_is_not_the_peer() {
        let table = [listening("127.0.0.1:50123", 7)];
        let ours = at("127.0.0.1:13390");
        assert_eq!(client_pid(table, at("127.0.0.1:50123"), ours), None);
    }

    #[test]
    fn a_mapped_address_matches_its_plain_form() {
        let table = [row("127.0.0.1:50123", Some("127.0.0.1:13390"), 42)];
        let peer = at("[::ffff:127.0.0.1]:50123");
        let ours = at("[::ffff:127.0.0.1]:13390");
        assert_eq!(client_pid(table, peer, ours), Some(42));
    }

    #[test]
    fn rows_that_disagree_name_no_one() {
        let table = [
            row("127.0.0.1:50123", Some("127.0.0.1:13390"), 42),
            row("127.0.0.1:50123", Some("127.0.0.1:13390"), 7),
        ];
        let ours = at("127.0.0.1:13390");
        assert_eq!(client_pid(table, at("127.0.0.1:50123"), ours), None);
    }

    #[test]
    fn the_listener_is_found_on_its_address_or_the_wildcard() {
        let daemon = at("127.0.0.1:13390");
        let exact = [
            listening("127.0.0.1:13390", 10),
            row("127.0.0.1:13390", Some("127.0.0.1:50123"), 10),
            row("127.0.0.1:50123", Some("127.0.0.1:13390"), 42),
        ];
        assert_eq!(listener_pids(exact, daemon), [10]);
        assert_eq!(
            listener_pids([listening("0.0.0.0:13390", 11)], daemon),
            [11]
        );
        assert_eq!(listener_pids([listening("[::]:13390", 12)], daemon), [12]);
        let ipv6 = at("[::1]:13390");
        assert!(listener_pids([listening("0.0.0.0:13390", 11)], ipv6).is_empty());
        assert!(listener_pids([listening("127.0.0.1:13391", 11)], daemon).is_empty());
        assert!(listener_pids([listening("127.0.0.2:13390", 11)], daemon).is_empty());
    }

    #[test]
    fn a_more_specific_listener_beside_the_daemon_is_named_too() {
        // Where an OS lets another account bind 127.0.0.1:13390 beside a daemon on
        // 0.0.0.0:13390, the more specific listener takes the connections.
        let table = [
            listening("0.0.0.0:13390", 10),
            listening("127.0.0.1:13390", 66),
            listening("127.0.0.1:13390", 66),
        ];
        assert_eq!(listener_pids(table, at("127.0.0.1:13390")), [10, 66]);
    }
}
