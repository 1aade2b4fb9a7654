//! This machine on the network, for LAN mode: the names and addresses a phone may use to reach
//! the daemon (the Host allow-list), and the address the pairing URL shows.

use std::net::{IpAddr, Ipv4Addr};

/// Host names that always mean this machine.
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Every non-loopback address of this machine's interfaces.
pub fn lan_addresses() -> Vec<IpAddr> {
    if_addrs::get_if_addrs()
        .map(|interfaces| {
            interfaces
                .into_iter()
                .map(|interface| interface.ip())
                .filter(|ip| !ip.is_loopback())
                .collect()
        })
        .unwrap_or_default()
}

/// The names a phone may use for this machine: its host name, and the same under `.local`
/// (mDNS).
pub fn host_names() -> Vec<String> {
    let name = gethostname::gethostname()
        .to_string_lossy()
        .to_ascii_lowercase();
    if name.is_empty() {
        return Vec::new();
    }
    let short = name.split('.').next().unwrap_or(&name).to_string();
    let mut names = vec![name.clone(), format!("{short}.local")];
    if short != name {
        names.push(short);
    }
    names
}

/// Every Host name this daemon answers to: loopback always; in LAN mode also the machine's own
/// names and addresses (IPv6 in brackets, as a Host header writes it) and the `configured`
/// ones (config `hosts`).
pub fn allowed_hosts(lan: bool, configured: &[String]) -> Vec<String> {
    let mut hosts: Vec<String> = LOOPBACK_HOSTS.iter().map(|host| host.to_string()).collect();
    if lan {
        hosts.extend(host_names());
        hosts.extend(configured.iter().cloned());
        hosts.extend(lan_addresses().into_iter().map(|ip| match ip {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        }));
    }
    hosts
}

/// The address to show in the pairing URL: a private IPv4 address if there is one (what a
/// phone on the same Wi-Fi reaches), else any non-loopback IPv4 address.
pub fn pairing_address() -> Option<Ipv4Addr> {
    let candidates: Vec<Ipv4Addr> = lan_addresses()
        .into_iter()
        .filter_map(|ip| match ip {
            IpAddr::V4(v4) if !v4.is_link_local() && !v4.is_unspecified() => Some(v4),
            _ => None,
        })
        .collect();
    candidates
        .iter()
        .copied()
        .find(Ipv4Addr::is_private)
        .or_else(|| candidates.first().copied())
}

/// Whether a peer is this machine.
pub fn is_loopback(peer: IpAddr) -> bool {
    match peer {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_peers_in_every_spelling() {
        for peer in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            assert!(is_loopback(peer.parse().unwrap()), "{peer}");
        }
        for peer in ["192.168.1.20", "10.0.0.2", "::ffff:192.168.1.2", "fe80::1"] {
            assert!(!is_loopback(peer.parse().unwrap()), "{peer}");
        }
    }

    #[test]
    fn lan_mode_adds_this_machines_names_only() {
        let configured = ["desk.example.lan".to_string()];
        let local = allowed_hosts(false, &configured);
        assert_eq!(
            local,
            ["localhost", "127.0.0.1", "[::1]"],
            "configured names need LAN mode"
        );
        let lan = allowed_hosts(true, &configured);
        assert!(lan.len() > local.len());
        assert!(lan.contains(&"desk.example.lan".to_string()));
        assert!(!lan.iter().any(|host| host == "evil.example"));
    }
}
