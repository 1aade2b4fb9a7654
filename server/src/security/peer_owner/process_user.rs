//! Which user a process runs as, on Windows (its token's SID) and macOS (its uid), through
//! `sysinfo`, for the lookups that find a socket's process rather than its owner
//! (`peer_owner/windows.rs`, `peer_owner/macos.rs`). The daemon's own user is read once.

use std::sync::OnceLock;
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, Uid, UpdateKind};

/// The user process `pid` runs as, where the OS lets this process read it.
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

/// Whether process `pid` runs as this process's user. A process whose user cannot be read
/// (another account's, or an elevated one for a daemon that is not) is not.
pub fn runs_as_us(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    match (user_of(pid), own_user()) {
        (Some(theirs), Some(mine)) => theirs == mine,
        _ => false,
    }
}
