//! The TCP sockets of macOS with each one's process, as rows for `matching`: `listeners` walks
//! every process's socket descriptors through libproc (`proc_pidfdinfo`), which only shows the
//! processes this user may inspect, so another account's client is never found (and so is a
//! stranger). libproc gives a socket's local end only; the client's is unique on loopback.

use super::matching::Row;
use listeners::{Protocol, SocketState};
use std::io;

/// Every TCP socket this process may see, with the process holding it.
///
/// # Errors
/// When the processes cannot be listed.
pub fn tcp_rows() -> io::Result<Vec<Row>> {
    let sockets = listeners::get_all().map_err(|error| io::Error::other(error.to_string()))?;
    Ok(sockets
        .into_iter()
        .filter(|socket| socket.protocol == Protocol::TCP)
        .map(|socket| Row {
            local: socket.socket,
            remote: None,
            listening: socket.state == SocketState::Listen,
            pid: socket.process.pid,
        })
        .collect())
}
