//! Running the daemon in the background: `serve --detach`, the pid and port files, `status` and
//! `stop`.

use crate::client::{DaemonClient, Probe};
use crate::home;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// How long `--detach` and `stop` wait for the daemon to come up or go away.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(5);
const POLL_EVERY: Duration = Duration::from_millis(100);

/// Why a background start failed.
#[derive(Debug, thiserror::Error)]
pub enum DetachError {
    #[error(
        "port {0} is used by another program, not by Hark; choose another with --port or HARK_PORT"
    )]
    PortTaken(u16),
    #[error("could not start the daemon: {0}")]
    Spawn(std::io::Error),
    #[error("the daemon did not answer within 5 s; see {0}")]
    NoAnswer(String),
}

/// Starts `hark serve` in the background from this very executable, logging to
/// `daemon.log`, and waits until it says it listens (its first line on stdout, read through a
/// pipe: no polling) and answers. Returns the daemon's health and whether it was
/// already running. `serve_flags` are passed on (`--lan`, `--require-token`).
///
/// # Errors
/// When the port belongs to something else, the spawn fails, or the daemon never answers.
pub async fn detach(
    home: &Path,
    port: u16,
    serve_flags: &[&str],
) -> Result<(hark_core::model::Health, bool), DetachError> {
    let client = DaemonClient::local(port);
    match client.probe().await {
        Probe::Hark(health) => return Ok((health, true)),
        Probe::Foreign => return Err(DetachError::PortTaken(port)),
        Probe::Nothing => {}
    }
    home::ensure_home(home).map_err(DetachError::Spawn)?;
    let log_path = home::log_file(home);
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(DetachError::Spawn)?;
    let exe = std::env::current_exe().map_err(DetachError::Spawn)?;
    let mut command = tokio::process::Command::new(exe);
    command
        .arg("serve")
        .arg("--port")
        .arg(port.to_string())
        .args(serve_flags)
        .env("HARK_HOME", home)
        .stdin(Stdio::null())
        // Its first line says it listens (or that another Hark won the port): no polling.
        .stdout(Stdio::piped())
        .stderr(log);
    // Its own process group: a Ctrl-C in the terminal that started it does not reach it. On
    // Windows also no console of its own (a window would flash up and stay): detached.
    #[cfg(unix)]
    command.process_group(0);
    #[cfg(windows)]
    {
        const DETACHED_PROCESS: u32 = 0x0000_0008;
        const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
        command.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP);
    }
    let mut child = command.spawn().map_err(DetachError::Spawn)?;
    if let Some(stdout) = child.stdout.take() {
        let mut first = String::new();
        let mut reader = tokio::io::BufReader::new(stdout);
        let said = tokio::time::timeout(
            SETTLE_TIMEOUT,
            tokio::io::AsyncBufReadExt::read_line(&mut reader, &mut first),
        )
        .await;
        if matches!(said, Ok(Ok(read)) if read > 0) {
            // Listening: the probe waits in the listen queue while the history opens.
            if let Probe::Hark(health) = client.probe().await {
                return Ok((health, false));
            }
        }
    }
    let attempts = SETTLE_TIMEOUT.as_millis() / POLL_EVERY.as_millis();
    for _ in 0..attempts {
        match client.probe().await {
            Probe::Hark(health) => return Ok((health, false)),
            Probe::Foreign => return Err(DetachError::PortTaken(port)),
            Probe::Nothing => tokio::time::sleep(POLL_EVERY).await,
        }
    }
    Err(DetachError::NoAnswer(log_path.display().to_string()))
}

/// Records this process as the running daemon.
///
/// # Errors
/// When the files cannot be written.
pub fn write_pid_files(home: &Path, port: u16) -> std::io::Result<()> {
    std::fs::write(home::pid_file(home), format!("{}\n", std::process::id()))?;
    std::fs::write(home::port_file(home), format!("{port}\n"))
}

/// Removes the pid and port files if they still name this process.
pub fn remove_pid_files(home: &Path) {
    let ours = std::fs::read_to_string(home::pid_file(home))
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        == Some(std::process::id());
    if ours {
        let _ = std::fs::remove_file(home::pid_file(home));
        let _ = std::fs::remove_file(home::port_file(home));
    }
}

fn recorded_pid(home: &Path) -> Option<u32> {
    std::fs::read_to_string(home::pid_file(home))
        .ok()
        .and_then(|text| text.trim().parse().ok())
}

/// What `hark stop` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Stopped {
    Stopped(u32),
    NotRunning,
}

/// Why `hark stop` failed.
#[derive(Debug, thiserror::Error)]
pub enum StopError {
    #[error("could not end process {0}: {1}")]
    Terminate(u32, std::io::Error),
    #[error("the daemon refused to stop: {0}")]
    Refused(String),
    #[error("process {0} did not stop within 5 s")]
    StillRunning(u32),
}

/// Asks the recorded daemon to stop over its API (with the token, on every OS), ends it the
/// OS's way only when it cannot be asked, and waits until it has gone.
///
/// # Errors
/// When it cannot be ended or does not stop in time.
pub async fn stop(home: &Path, port: u16) -> Result<Stopped, StopError> {
    let Some(pid) = recorded_pid(home) else {
        return Ok(Stopped::NotRunning);
    };
    // A stale pid file may name a process that is not ours any more: only stop a pid whose
    // daemon still answers as Hark on the recorded port.
    let client = DaemonClient::local(port);
    if !matches!(client.probe().await, Probe::Hark(_)) {
        let _ = std::fs::remove_file(home::pid_file(home));
        let _ = std::fs::remove_file(home::port_file(home));
        return Ok(Stopped::NotRunning);
    }
    let pid = match client.stop().await {
        // The daemon that answers is the one to wait for (a pid file can be stale).
        Ok(stopping) => stopping.pid,
        // Only a daemon that cannot be reached is ended the OS's way: one that refused (the
        // token) or is another user's is not this command's to kill.
        Err(error @ crate::client::ClientError::Unreachable { .. }) => {
            tracing::info!(%error, pid, "the daemon could not be asked to stop; ending its process");
            crate::client::process::terminate(pid)
                .map_err(|error| StopError::Terminate(pid, error))?;
            pid
        }
        Err(error) => return Err(StopError::Refused(error.to_string())),
    };
    // Gone once it has removed its pid file (the history closed), or once its process ended.
    let attempts = SETTLE_TIMEOUT.as_millis() / POLL_EVERY.as_millis();
    for _ in 0..attempts {
        if !home::pid_file(home).exists() || !crate::client::process::alive(pid) {
            return Ok(Stopped::Stopped(pid));
        }
        tokio::time::sleep(POLL_EVERY).await;
    }
    Err(StopError::StillRunning(pid))
}
