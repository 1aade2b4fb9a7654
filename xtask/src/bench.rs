//! `cargo xtask bench`: figures, not verdicts. Sizes of the binary and the wasm, the page's
//! first view (bytes over the wire, first paint and live on a slow phone), the daemon's idle
//! memory, round-trip latency of ask → answer → wait over real HTTP, and memory after load.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUND_TRIPS: usize = 500;

pub fn run(root: &Path) -> Result<(), String> {
    print_sizes(root);
    // The page's first view in Chromium, on a fast and on a slow-phone profile.
    crate::run_command(
        Command::new("node")
            .args([
                "bench/first-view.mjs",
                &root.join("target/release/hark").to_string_lossy(),
            ])
            .current_dir(root.join("end2end"))
            .env("PATH", crate::tools::path_with_npm_bin()),
    )
    .map_err(|error| format!("first-view figures: {error}"))?;
    let home = std::env::temp_dir().join(format!("hark-bench-{}", std::process::id()));
    let mut daemon = Command::new(root.join("target/release/hark"))
        .args(["serve", "--port", "0"])
        .env("HARK_HOME", &home)
        .env("HARK_LOG", "warn")
        // The daemon would open a browser for each question while no page is open.
        .env("BROWSER", "true")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start the daemon: {error}"))?;
    let mut line = String::new();
    let stdout = daemon.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|error| error.to_string())?;
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .ok_or_else(|| format!("no port in {line:?}"))?;
    let result = measure(port, daemon.id());
    let _ = daemon.kill();
    let _ = daemon.wait();
    let _ = std::fs::remove_dir_all(home);
    result?;
    // The MCP and WebSocket figures need an MCP and WebSocket client, the load an HTTP client
    // that keeps its connections: the server crate's examples, built with the same release
    // settings as the binary they drive.
    run_example(root, "bench")?;
    run_example(root, "load")
}

/// `cargo xtask soak`: the server crate's soak example against the release binary.
pub fn soak(root: &Path) -> Result<(), String> {
    run_example(root, "soak")
}

/// Runs the server crate's example `name` against the release binary.
fn run_example(root: &Path, name: &str) -> Result<(), String> {
    let binary = root.join("target/release/hark");
    crate::run_command(&mut crate::cargo(&[
        "run",
        "--quiet",
        "--release",
        "-p",
        "hark",
        "--example",
        name,
        "--",
        &binary.to_string_lossy(),
    ]))
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|meta| meta.len()).unwrap_or(0)
}

fn print_sizes(root: &Path) {
    let wasm = root.join("target/site/pkg/hark.wasm");
    println!(
        "binary target/release/hark   {}",
        kib(size(&root.join("target/release/hark")))
    );
    println!(
        "wasm  raw {}  gzip {}  brotli {}",
        kib(size(&wasm)),
        kib(size(&wasm.with_extension("wasm.gz"))),
        kib(size(&wasm.with_extension("wasm.br")))
    );
    let js = root.join("target/site/pkg/hark.js");
    println!(
        "js    raw {}  brotli {}",
        kib(size(&js)),
        kib(size(&js.with_extension("js.br")))
    );
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

/// One HTTP/1.1 request on a fresh connection; returns status and body.
fn http(port: u16, method: &str, path: &str, body: &str) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|error| error.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|error| error.to_string())?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|error| error.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|error| error.to_string())?;
    let status = response
        .get(9..12)
        .and_then(|code| code.parse().ok())
        .ok_or("no status line")?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

fn json_id(body: &str) -> Option<String> {
    let start = body.find("\"id\":\"")? + 6;
    Some(body[start..start + 36].to_string())
}

fn measure(port: u16, pid: u32) -> Result<(), String> {
    std::thread::sleep(Duration::from_secs(1));
    if let Some(rss) = rss_kib(pid) {
        println!("daemon idle RSS              {rss} KiB");
    }
    let ask =
        r#"{"questions":[{"question":"Deploy now?","options":[{"label":"Yes"},{"label":"No"}]}]}"#;
    let mut round_trips = Vec::with_capacity(ROUND_TRIPS);
    for _ in 0..ROUND_TRIPS {
        let started = Instant::now();
        let (status, body) = http(port, "POST", "/api/questions", ask)?;
        if status != 201 {
            return Err(format!("create answered {status}: {body}"));
        }
        let id = json_id(&body).ok_or("no id in the created question")?;
        let answer = r#"{"answers":[{"selected":["Yes"]}]}"#;
        http(port, "POST", &format!("/api/questions/{id}/answer"), answer)?;
        let (status, _) = http(
            port,
            "GET",
            &format!("/api/questions/{id}/wait?timeout=5"),
            "",
        )?;
        if status != 200 {
            return Err(format!("wait answered {status}"));
        }
        round_trips.push(started.elapsed());
    }
    round_trips.sort();
    let percentile =
        |p: usize| round_trips[(round_trips.len() * p / 100).min(round_trips.len() - 1)];
    println!(
        "ask → answer → wait ({ROUND_TRIPS}×, 3 requests each, new connection per request): \
         p50 {:?}  p99 {:?}  max {:?}",
        percentile(50),
        percentile(99),
        round_trips[round_trips.len() - 1]
    );
    if let Some(rss) = rss_kib(pid) {
        println!("daemon RSS after {ROUND_TRIPS} questions  {rss} KiB");
    }
    let (status, _) = http(port, "GET", "/", "")?;
    let started = Instant::now();
    for _ in 0..100 {
        http(port, "GET", "/", "")?;
    }
    println!(
        "server-rendered inbox (status {status}): {:?} per page",
        started.elapsed() / 100
    );
    Ok(())
}
