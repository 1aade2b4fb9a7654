//! Another process of this machine, by its pid, the way each OS offers: whether it still runs,
//! and ending it when asking it over the API failed (`hark stop`'s fallback). On Unix a signal
//! (SIGTERM, which the daemon treats as a clean stop); on Windows, which has no signals for
//! this, `TerminateProcess` through `sysinfo`: the history is safe anyway, every acknowledged
//! write being on disk already.

/// Whether process `pid` still runs.
pub fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        // Signal 0 checks the process exists (and is ours to signal) without touching it.
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok()
    }
    #[cfg(windows)]
    {
        windows::process(pid).is_some()
    }
}

/// Asks process `pid` to end (SIGTERM), or on Windows ends it.
///
/// # Errors
/// When the OS refuses.
pub fn terminate(pid: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let pid = i32::try_from(pid).map_err(std::io::Error::other)?;
        match nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGTERM,
        ) {
            Ok(()) | Err(nix::Error::ESRCH) => Ok(()),
            Err(error) => Err(std::io::Error::from(error)),
        }
    }
    #[cfg(windows)]
    {
        match windows::process(pid) {
            Some(system) if !windows::kill(&system, pid) => Err(std::io::Error::other(format!(
                "Windows would not end process {pid}"
            ))),
            _ => Ok(()),
        }
    }
}

#[cfg(windows)]
mod windows {
    use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

    /// A view of the system holding process `pid`, if it runs.
    pub fn process(pid: u32) -> Option<System> {
        let mut system = System::new().ok()?;
        let pid = Pid::from_u32(pid);
        system.refresh_processes_specifics(
            ProcessesToUpdate::Some(&[pid]),
            true,
            ProcessRefreshKind::nothing(),
        );
        system.process(pid).is_some().then_some(system)
    }

    pub fn kill(system: &System, pid: u32) -> bool {
        system
            .process(Pid::from_u32(pid))
            .is_some_and(sysinfo::Process::kill)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn this_process_runs_and_a_finished_one_does_not() {
        assert!(alive(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!alive(pid));
        assert!(terminate(pid).is_ok(), "ending what has ended is no error");
    }
}
