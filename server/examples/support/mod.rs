//! What the examples share: driving a `hark mcp` shim over its stdio, and reading a process's
//! memory from /proc.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// Starts `binary serve` on a free port in `home`; returns the running daemon and its port.
pub async fn start_daemon(binary: &str, home: &std::path::Path) -> (Child, u16) {
    start_daemon_with(binary, home, &[]).await
}

/// Starts `binary serve` with extra flags (`--memory`) on a free port in `home`.
pub async fn start_daemon_with(
    binary: &str,
    home: &std::path::Path,
    flags: &[&str],
) -> (Child, u16) {
    let mut daemon = Command::new(binary)
        .args(["serve", "--port", "0"])
        .args(flags)
        .env("HARK_HOME", home)
        .env(
            "HARK_LOG",
            std::env::var("HARK_LOG").unwrap_or_else(|_| "warn".into()),
        )
        // The daemon would open a browser for each question while no page is open.
        .env("BROWSER", "true")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("hark serve starts");
    let first = BufReader::new(daemon.stdout.take().unwrap())
        .lines()
        .next_line()
        .await
        .unwrap()
        .unwrap();
    let port = first.rsplit(':').next().unwrap().parse().unwrap();
    (daemon, port)
}

/// A running `hark mcp` spoken to in JSON-RPC lines.
pub struct Shim {
    pub child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

impl Shim {
    pub fn spawn(binary: &str, home: &std::path::Path, port: u16) -> Shim {
        let mut child = Command::new(binary)
            .arg("mcp")
            .env("HARK_HOME", home)
            .env("HARK_PORT", port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("hark mcp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Shim {
            child,
            stdin,
            stdout,
        }
    }

    pub async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.unwrap();
    }

    /// The next message from the shim, `None` once it closes its output.
    pub async fn next_message(&mut self) -> Option<Value> {
        let line = self.stdout.next_line().await.ok()??;
        serde_json::from_str(&line).ok()
    }

    /// Reads messages until the response with `id`.
    pub async fn response(&mut self, id: u64) -> Value {
        loop {
            let line = self
                .stdout
                .next_line()
                .await
                .unwrap()
                .expect("the shim answers");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    pub async fn handshake(&mut self) {
        self.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}}),
        )
        .await;
        self.response(0).await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
}

pub fn status_kib(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(key))
                .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Resident memory, and the private part of it: the rest is the binary's pages, shared by
/// every shim and the daemon.
pub fn memory(pid: u32) -> String {
    format!(
        "{} KiB resident, {} KiB private",
        status_kib(pid, "VmRSS:"),
        status_kib(pid, "RssAnon:")
    )
}
