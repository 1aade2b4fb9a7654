//! Whose a connection from this machine is (SPEC §16): a loopback peer counts as "this machine"
//! only when its socket belongs to the daemon's own OS user, so another account on a shared
//! machine needs the token like any stranger. On Linux the owner is the uid column of the peer's
//! socket in `/proc/net/tcp` (or `tcp6`), read once per connection when it is accepted, never per
//! request. Hand-written: it is a dozen lines of a documented procfs format, where the crates
//! that read it (`procfs`) bring a whole process-inspection API. Elsewhere the owner is not known
//! yet, and an unknown owner is a stranger.

use std::net::SocketAddr;

/// What the listener found out about a connection's owner; carried on each of its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerOwner {
    /// The daemon's own user.
    Same,
    /// Another user, or an owner that could not be found (both need the token).
    Other,
}

impl PeerOwner {
    /// The owner of the connection from `peer` to `ours` (both as the connection sees them).
    pub fn of(peer: SocketAddr, ours: SocketAddr) -> PeerOwner {
        match socket_owner(peer, ours) {
            Some(uid) if uid == own_uid() => PeerOwner::Same,
            _ => PeerOwner::Other,
        }
    }
}

/// The daemon's user: the owner of its own `/proc/self` (its effective uid).
#[cfg(target_os = "linux")]
fn own_uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or(u32::MAX, |own| own.uid())
}

#[cfg(not(target_os = "linux"))]
fn own_uid() -> u32 {
    u32::MAX
}

/// The uid owning the socket whose local end is `peer` and whose remote end is `ours`.
#[cfg(target_os = "linux")]
fn socket_owner(peer: SocketAddr, ours: SocketAddr) -> Option<u32> {
    let (local, remote) = (hex_address(peer), hex_address(ours));
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .into_iter()
        .find_map(|table| {
            let text = std::fs::read_to_string(table).ok()?;
            owner_in(&text, &local, &remote)
        })
}

#[cfg(not(target_os = "linux"))]
fn socket_owner(_peer: SocketAddr, _ours: SocketAddr) -> Option<u32> {
    None
}

/// The uid of the row of `table` (procfs's text) whose local and remote ends are the given ones,
/// written as procfs writes them (`hex_address`).
fn owner_in(table: &str, local: &[String], remote: &[String]) -> Option<u32> {
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (row_local, row_remote, uid) = (fields.get(1)?, fields.get(2)?, fields.get(7)?);
        let matches = local
            .iter()
            .any(|form| form.eq_ignore_ascii_case(row_local))
            && remote
                .iter()
                .any(|form| form.eq_ignore_ascii_case(row_remote));
        matches.then(|| uid.parse().ok()).flatten()
    })
}

/// `address` as `/proc/net/tcp` (IPv4) and `tcp6` write it: the address's bytes in 32-bit words
/// of the kernel's byte order (little-endian on every target Hark builds for), a colon, the port
/// in hex. An IPv4 address is also written as `tcp6` writes it mapped (`::ffff:a.b.c.d`).
fn hex_address(address: SocketAddr) -> Vec<String> {
    let words = |bytes: &[u8]| -> String {
        bytes
            .chunks(4)
            .map(|word| {
                format!(
                    "{:08X}",
                    u32::from_le_bytes([word[0], word[1], word[2], word[3]])
                )
            })
            .collect()
    };
    let port = address.port();
    match address.ip() {
        std::net::IpAddr::V4(v4) => vec![
            format!("{}:{port:04X}", words(&v4.octets())),
            format!("{}:{port:04X}", words(&v4.to_ipv6_mapped().octets())),
        ],
        std::net::IpAddr::V6(v6) => vec![format!("{}:{port:04X}", words(&v6.octets()))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:3432 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 0100007F:D431 0100007F:3432 01 00000000:00000000 00:00000000 00000000  1000        0 2 1 0 20 4 30 10 -1
   2: 0100007F:3432 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 20 4 30 10 -1";

    #[test]
    fn the_peers_row_gives_its_owner() {
        let peer: SocketAddr = "127.0.0.1:54321".parse().unwrap();
        let ours: SocketAddr = "127.0.0.1:13362".parse().unwrap();
        assert_eq!(hex_address(peer)[0], "0100007F:D431");
        assert_eq!(
            owner_in(TABLE, &hex_address(peer), &hex_address(ours)),
            Some(1000),
            "the client's socket, not the daemon's end of it"
        );
        let elsewhere: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(
            owner_in(TABLE, &hex_address(elsewhere), &hex_address(ours)),
            None
        );
    }

    #[test]
    fn ipv6_is_written_in_words() {
        let loopback: SocketAddr = "[::1]:80".parse().unwrap();
        assert_eq!(
            hex_address(loopback),
            ["00000000000000000000000001000000:0050"]
        );
        let mapped = hex_address("127.0.0.1:80".parse().unwrap());
        assert_eq!(mapped[1], "0000000000000000FFFF00000100007F:0050");
    }

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
}
