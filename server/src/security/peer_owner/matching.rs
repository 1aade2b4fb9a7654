//! Finding the client's end of a loopback connection in a table of the machine's TCP sockets,
//! as Windows lists them (every connection appears twice, once from each end): the row whose
//! local end is the peer and whose remote end is the daemon. Kept apart from the OS calls so
//! it is tested on every OS.

use std::net::SocketAddr;

/// One socket of the table: its two ends and the process that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub local: SocketAddr,
    pub remote: SocketAddr,
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
    let mut found = None;
    for row in rows {
        if canonical(row.local) == peer && canonical(row.remote) == ours {
            match found {
                None => found = Some(row.pid),
                Some(pid) if pid == row.pid => {}
                Some(_) => return None,
            }
        }
    }
    found
}

/// A dual-stack listener sees an IPv4 client as `::ffff:a.b.c.d`; the tables write it plainly.
fn canonical(address: SocketAddr) -> SocketAddr {
    SocketAddr::new(address.ip().to_canonical(), address.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(local: &str, remote: &str, pid: u32) -> Row {
        Row {
            local: local.parse().unwrap(),
            remote: remote.parse().unwrap(),
            pid,
        }
    }

    #[test]
    fn the_clients_end_is_found_not_the_daemons() {
        let table = [
            row("127.0.0.1:13390", "0.0.0.0:0", 10),
            row("127.0.0.1:13390", "127.0.0.1:50123", 10),
            row("127.0.0.1:50123", "127.0.0.1:13390", 42),
            row("127.0.0.1:50124", "127.0.0.1:13390", 43),
        ];
        let peer = "127.0.0.1:50123".parse().unwrap();
        let ours = "127.0.0.1:13390".parse().unwrap();
        assert_eq!(client_pid(table, peer, ours), Some(42));
        let gone = "127.0.0.1:50125".parse().unwrap();
        assert_eq!(client_pid(table, gone, ours), None);
    }

    #[test]
    fn a_mapped_address_matches_its_plain_form() {
        let table = [row("127.0.0.1:50123", "127.0.0.1:13390", 42)];
        let peer = "[::ffff:127.0.0.1]:50123".parse().unwrap();
        let ours = "[::ffff:127.0.0.1]:13390".parse().unwrap();
        assert_eq!(client_pid(table, peer, ours), Some(42));
    }

    #[test]
    fn rows_that_disagree_name_no_one() {
        let table = [
            row("127.0.0.1:50123", "127.0.0.1:13390", 42),
            row("127.0.0.1:50123", "127.0.0.1:13390", 7),
        ];
        let peer = "127.0.0.1:50123".parse().unwrap();
        let ours = "127.0.0.1:13390".parse().unwrap();
        assert_eq!(client_pid(table, peer, ours), None);
    }
}
