//! The official MCP Python SDK as a client of the real `hark mcp` shim, at each revision Hark
//! speaks (the initialize handshake and 2026-07-28): `xtask/python/sdk_client.py`, run in a
//! virtual environment under `target/python-sdk` that holds the SDK pinned in
//! `xtask/python/requirements.txt` (installed from PyPI once, and again when the pins change).

use crate::{root, run_command, smoke};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment's Python.
fn python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts/python.exe")
    } else {
        venv.join("bin/python")
    }
}

/// A virtual environment with the pinned SDK; made, or brought up to the pins, when needed.
fn environment() -> Result<PathBuf, String> {
    let pins = root().join("xtask/python/requirements.txt");
    let wanted =
        std::fs::read_to_string(&pins).map_err(|error| format!("{}: {error}", pins.display()))?;
    let venv = root().join("target/python-sdk");
    let stamp = venv.join("installed-requirements.txt");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(venv);
    }
    if !python(&venv).exists() {
        let system = if cfg!(windows) { "python" } else { "python3" };
        run_command(Command::new(system).args(["-m", "venv"]).arg(&venv))
            .map_err(|error| format!("cannot make a Python environment: {error}"))?;
    }
    run_command(
        Command::new(python(&venv))
            .args(["-m", "pip", "install", "--quiet", "--requirement"])
            .arg(&pins),
    )
    .map_err(|error| format!("cannot install the MCP Python SDK: {error}"))?;
    std::fs::write(&stamp, wanted).map_err(|error| format!("{}: {error}", stamp.display()))?;
    Ok(venv)
}

/// Runs the SDK's client against the debug binary the tests built, in a home of its own.
pub fn run() -> Result<(), String> {
    let venv = environment()?;
    let home = root().join("target/python-sdk-home");
    if home.exists() {
        std::fs::remove_dir_all(&home).map_err(|error| format!("{}: {error}", home.display()))?;
    }
    std::fs::create_dir_all(&home).map_err(|error| format!("{}: {error}", home.display()))?;
    let port = smoke::free_port()?;
    run_command(
        Command::new(python(&venv))
            .arg(root().join("xtask/python/sdk_client.py"))
            .arg(root().join("target/debug/hark"))
            .arg(&home)
            .arg(port.to_string()),
    )
    .map_err(|error| format!("MCP Python SDK: {error}"))
}
