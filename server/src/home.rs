//! Where Hark keeps its files (`HARK_HOME`, default `~/.hark`, on Windows
//! `%LOCALAPPDATA%\Hark`) and which port it uses.

use std::path::{Path, PathBuf};

/// The default port of SPEC §1.
pub const DEFAULT_PORT: u16 = 13390;

/// `HARK_HOME`, else the OS's place for it (`default_home`).
pub fn hark_home() -> PathBuf {
    match std::env::var_os("HARK_HOME").filter(|value| !value.is_empty()) {
        Some(home) => PathBuf::from(home),
        None => default_home(),
    }
}

/// On Linux and macOS `~/.hark`, beside the agents' own `~/.claude` and `~/.codex` (a path a
/// terminal user types, without `Application Support`'s space); on Windows
/// `%LOCALAPPDATA%\Hark`, where a program keeps what belongs to this machine and user. Else
/// `.hark` in the working directory.
pub fn default_home() -> PathBuf {
    #[cfg(windows)]
    let place = dirs::data_local_dir().map(|local| local.join("Hark"));
    #[cfg(not(windows))]
    let place = dirs::home_dir().map(|home| home.join(".hark"));
    place.unwrap_or_else(|| PathBuf::from(".hark"))
}

/// Creates the home directory, private to this user: mode 0700 on Unix, an access list for
/// this user alone on Windows (inherited by everything created in it).
///
/// # Errors
/// When it cannot be created or made private.
pub fn ensure_home(home: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(home)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700))?;
    }
    #[cfg(windows)]
    private_windows::restrict(home)?;
    Ok(())
}

#[cfg(windows)]
#[path = "home/private_windows.rs"]
pub mod private_windows;

/// Makes every file and directory this process creates from now on private to this user
/// (umask 077): the database's `-wal` and `-shm` files hold recent questions and answers, and
/// SQLite creates them with the process's umask, not with the database's mode.
pub fn keep_new_files_private() {
    #[cfg(unix)]
    {
        use nix::sys::stat::{Mode, umask};
        umask(Mode::S_IRWXG | Mode::S_IRWXO);
    }
}

/// The pid file of a running daemon.
pub fn pid_file(home: &Path) -> PathBuf {
    home.join("daemon.pid")
}

/// The port file of a running daemon (it may have been started with `--port`).
pub fn port_file(home: &Path) -> PathBuf {
    home.join("daemon.port")
}

/// The log of a detached daemon.
pub fn log_file(home: &Path) -> PathBuf {
    home.join("daemon.log")
}

/// The port a command should use: the flag or `HARK_PORT` (clap passes either as `explicit`),
/// else the port of the running daemon, else the config's, else 13390.
pub fn resolve_port(explicit: Option<u16>, home: &Path, config_port: u16) -> u16 {
    explicit
        .or_else(|| running_port(home))
        .unwrap_or(if config_port == 0 {
            DEFAULT_PORT
        } else {
            config_port
        })
}

/// The port the config in `home` names.
pub fn config_port(home: &Path) -> u16 {
    hark_core::store::ConfigFile::load(Some(home))
        .0
        .current()
        .port
}

/// `HARK_HOME` and the port a client command (`status`, `url`, `export`…) should talk to.
pub fn for_command(explicit: Option<u16>) -> (PathBuf, u16) {
    let home = hark_home();
    let port = resolve_port(explicit, &home, config_port(&home));
    (home, port)
}

/// The port recorded by a daemon that is (or was) running from this home.
pub fn running_port(home: &Path) -> Option<u16> {
    std::fs::read_to_string(port_file(home))
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .filter(|port| *port != 0)
}
