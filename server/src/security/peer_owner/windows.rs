//! Whether a loopback connection's client runs as the daemon's user, on Windows: the TCP table
//! with owning processes (`GetExtendedTcpTable` through `netstat2`), the client's row found by
//! `matching`, then the users of both processes compared by SID (`sysinfo`, which reads each
//! process's token; the daemon's own is read once). A process whose token cannot be read (another user's, or an elevated one,
//! for a daemon that is not elevated) counts as another account.

use super::matching::{Row, client_pid};
use netstat2::{AddressFamilyFlags, ProtocolFlags, ProtocolSocketInfo, iterate_sockets_info};
use std::io;
use std::net::SocketAddr;
use std::sync::OnceLock;
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, Uid, UpdateKind};

/// `Some(true)` when the client's process runs as this process's user, `Some(false)` when it
/// runs as another (or cannot be read), `None` when the client's socket is not in the table.
///
/// # Errors
/// When the table cannot be read.
pub fn owner_is_us(peer: SocketAddr, ours: SocketAddr) -> io::Result<Option<bool>> {
    let sockets = iterate_sockets_info(
        AddressFamilyFlags::IPV4 | AddressFamilyFlags::IPV6,
        ProtocolFlags::TCP,
    )
    .map_err(io::Error::other)?;
    let rows = sockets.filter_map(Result::ok).filter_map(|socket| {
        let ProtocolSocketInfo::Tcp(tcp) = socket.protocol_socket_info else {
            return None;
        };
        Some(Row {
            local: SocketAddr::new(tcp.local_addr, tcp.local_port),
            remote: SocketAddr::new(tcp.remote_addr, tcp.remote_port),
            pid: *socket.associated_pids.first()?,
        })
    });
    let Some(client) = client_pid(rows, peer, ours) else {
        return Ok(None);
    };
    if client == std::process::id() {
        return Ok(Some(true));
    }
    Ok(Some(match (user_of(client), own_user()) {
        (Some(theirs), Some(mine)) => theirs == mine,
        _ => false,
    }))
}

/// The user process `pid` runs as (its token's SID), where Windows lets this process read it.
pub fn user_of(pid: u32) -> Option<Uid> {
    let pid = Pid::from_u32(pid);
    let mut system = System::new().ok()?;
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing().with_user(UpdateKind::Always),
    );
    system.process(pid)?.user_id().cloned()
}

/// The user this process runs as, read once.
pub fn own_user() -> Option<Uid> {
    static OWN: OnceLock<Option<Uid>> = OnceLock::new();
    OWN.get_or_init(|| user_of(std::process::id())).clone()
}
