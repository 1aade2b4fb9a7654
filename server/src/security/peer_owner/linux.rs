//! The owner of one TCP socket, asked of the kernel by its exact four addresses over netlink's
//! sock_diag (`SOCK_DIAG_BY_FAMILY` without `NLM_F_DUMP`): one socket's answer, a few
//! microseconds whatever the machine holds. Reading `/proc/net/tcp` instead walks every socket,
//! `TIME_WAIT` ones included (about 10 ms a connection on a busy machine, measured), and a table
//! read in pieces can skip the row it looks for. The messages are the `rust-netlink` crates'.

use netlink_packet_core::{NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
use netlink_packet_sock_diag::SockDiagMessage;
use netlink_packet_sock_diag::constants::{
    AF_INET, AF_INET6, IPPROTO_TCP, TCP_LISTEN, TCP_TIME_WAIT,
};
use netlink_packet_sock_diag::inet::{
    ExtensionFlags, InetRequest, InetResponseHeader, SocketId, StateFlags,
};
use netlink_sys::protocols::NETLINK_SOCK_DIAG;
use netlink_sys::{Socket, SocketAddr as NetlinkAddr};
use std::io;
use std::net::{IpAddr, SocketAddr};

/// "Any socket with these addresses", not one socket incarnation (`INET_DIAG_NOCOOKIE`).
const NO_COOKIE: [u8; 8] = [0xff; 8];

/// Whether the client's socket of the connection from `peer` to `ours` belongs to this
/// process's user (its effective uid); `None` when there is no such socket.
///
/// # Errors
/// When netlink cannot be used here or answers something else.
pub fn owner_is_us(peer: SocketAddr, ours: SocketAddr) -> io::Result<Option<bool>> {
    let own = nix::unistd::geteuid().as_raw();
    Ok(socket_owner(peer, ours)?.map(|owner| owner == own))
}

/// Whether the socket listening on `address` (a daemon's) belongs to this process's user;
/// `None` when nothing listens there.
///
/// # Errors
/// When netlink cannot be used here or answers something else.
pub fn listener_is_ours(address: SocketAddr) -> io::Result<Option<bool>> {
    let own = nix::unistd::geteuid().as_raw();
    let ip = address.ip().to_canonical();
    let anywhere = SocketAddr::new(
        match ip {
            IpAddr::V4(_) => IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED),
            IpAddr::V6(_) => IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED),
        },
        0,
    );
    // With no remote end, the kernel's lookup finds the listener on the address and port.
    let found = ask_kernel(SocketAddr::new(ip, address.port()), anywhere)?;
    Ok(found
        .filter(|found| found.state == TCP_LISTEN && found.socket_id.source_port == address.port())
        .map(|found| found.uid == own))
}

/// The uid owning the socket whose local end is `peer` and whose remote end is `ours`: the
/// client's socket, not the daemon's end of the connection. `None` when there is no such
/// socket (it closed, or it lives in another network namespace).
///
/// # Errors
/// When netlink cannot be used here or answers something else.
fn socket_owner(peer: SocketAddr, ours: SocketAddr) -> io::Result<Option<u32>> {
    let (peer_ip, our_ip) = (peer.ip().to_canonical(), ours.ip().to_canonical());
    let Some(found) = ask_kernel(peer, ours)? else {
        return Ok(None);
    };
    // The kernel's exact lookup falls back to a listening socket on the same address and port,
    // and a closed connection's `TIME_WAIT` remnant belongs to no one (uid 0, no inode):
    // neither is the client.
    let id = &found.socket_id;
    let same_socket = (id.source_address.to_canonical(), id.source_port) == (peer_ip, peer.port())
        && (id.destination_address.to_canonical(), id.destination_port) == (our_ip, ours.port());
    let connected = found.state != TCP_LISTEN && found.state != TCP_TIME_WAIT && found.inode != 0;
    Ok((same_socket && connected).then_some(found.uid))
}

/// The kernel's record of the TCP socket whose local end is `local` and remote end `remote`
/// (or what its lookup falls back to); `None` when it has none.
fn ask_kernel(local: SocketAddr, remote: SocketAddr) -> io::Result<Option<InetResponseHeader>> {
    // A dual-stack listener sees an IPv4 client as `::ffff:a.b.c.d`; its socket is IPv4.
    let (local_ip, remote_ip) = (local.ip().to_canonical(), remote.ip().to_canonical());
    let family = match (local_ip, remote_ip) {
        (IpAddr::V4(_), IpAddr::V4(_)) => AF_INET,
        (IpAddr::V6(_), IpAddr::V6(_)) => AF_INET6,
        _ => return Ok(None),
    };
    let mut header = NetlinkHeader::default();
    header.flags = NLM_F_REQUEST;
    let mut request = NetlinkMessage::new(
        header,
        SockDiagMessage::InetRequest(InetRequest {
            family,
            protocol: IPPROTO_TCP,
            extensions: ExtensionFlags::empty(),
            states: StateFlags::all(),
            socket_id: SocketId {
                source_port: local.port(),
                destination_port: remote.port(),
                source_address: local_ip,
                destination_address: remote_ip,
                interface_id: 0,
                cookie: NO_COOKIE,
            },
        })
        .into(),
    );
    request.finalize();
    let mut sent = vec![0; request.buffer_len()];
    request.serialize(&mut sent);

    let mut socket = Socket::new(NETLINK_SOCK_DIAG)?;
    socket.bind_auto()?;
    socket.connect(&NetlinkAddr::new(0, 0))?;
    socket.send(&sent, 0)?;
    // The kernel answers while handling the send, so the reply is queued already: a read that
    // would wait means there is none, and the connection is never held up by it.
    socket.set_non_blocking(true)?;
    let mut received = vec![0; 8192];
    let length = socket.recv(&mut &mut received[..], 0)?;
    record_in(&received[..length])
}

/// The socket record in the kernel's answer: an inet_diag message, or an error message
/// (`ENOENT`: no such socket).
fn record_in(answer: &[u8]) -> io::Result<Option<InetResponseHeader>> {
    let message = NetlinkMessage::<SockDiagMessage>::deserialize(answer)
        .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error.to_string()))?;
    match message.payload {
        NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(response)) => {
            Ok(Some(response.header))
        }
        NetlinkPayload::Error(error) => match error.code {
            Some(code) => match io::Error::from_raw_os_error(-code.get()) {
                gone if gone.kind() == io::ErrorKind::NotFound => Ok(None),
                failed => Err(failed),
            },
            None => Ok(None),
        },
        other => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("sock_diag answered {other:?}"),
        )),
    }
}
