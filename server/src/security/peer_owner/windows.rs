//! The TCP table of Windows with each socket's process (`GetExtendedTcpTable` through
//! `netstat2`), as rows for `matching`.

use super::matching::Row;
use netstat2::{
    AddressFamilyFlags, ProtocolFlags, ProtocolSocketInfo, TcpState, iterate_sockets_info,
};
use std::io;
use std::net::SocketAddr;

/// Every TCP socket of the machine (IPv4 and IPv6) with the process holding it.
///
/// # Errors
/// When the table cannot be read.
pub fn tcp_rows() -> io::Result<Vec<Row>> {
    let sockets = iterate_sockets_info(
        AddressFamilyFlags::IPV4 | AddressFamilyFlags::IPV6,
        ProtocolFlags::TCP,
    )
    .map_err(io::Error::other)?;
    Ok(sockets
        .filter_map(Result::ok)
        .filter_map(|socket| {
            let ProtocolSocketInfo::Tcp(tcp) = socket.protocol_socket_info else {
                return None;
            };
            let listening = tcp.state == TcpState::Listen;
            Some(Row {
                local: SocketAddr::new(tcp.local_addr, tcp.local_port),
                remote: (!listening).then(|| SocketAddr::new(tcp.remote_addr, tcp.remote_port)),
                listening,
                pid: *socket.associated_pids.first()?,
            })
        })
        .collect())
}
