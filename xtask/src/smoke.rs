//! Smoke runs of a build of Hark, here: for another OS or CPU through its emulator (wine for
//! Windows, qemu-user for Linux on ARM), the npm packages through `npx`, or a native binary (as
//! the release workflow runs each platform's). The daemon starts, answers `/api/health`, takes a
//! question and its answer (over REST, or through `hark mcp` speaking MCP on stdio), and stops
//! when `hark stop` asks. The checks talk to it as its user's tools do, with `curl` and the MCP
//! shim's own stdio.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the emulated daemon may take to print its address: wine sets up a new prefix on
/// its first start (tens of seconds on this machine).
const START_TIMEOUT: Duration = Duration::from_secs(300);
/// How long any one exchange may take under emulation.
const STEP_TIMEOUT: Duration = Duration::from_secs(60);

/// A build of Hark and how to run it here.
pub struct Foreign {
    /// What it is, for messages ("Windows under wine").
    pub name: &'static str,
    /// The command before Hark's own arguments: the emulator and the binary, or `npx` and the
    /// package.
    pub program: Vec<OsString>,
    /// Extra environment.
    pub env: Vec<(OsString, OsString)>,
    /// Where it runs from.
    pub folder: PathBuf,
    /// `HARK_HOME` on this machine, and as the binary is given it (a Windows path under wine).
    pub home: PathBuf,
    pub home_as_given: OsString,
}

/// What to check beyond start, health and stop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// A question asked and answered over REST, the answer collected by `/wait`.
    Rest,
    /// `ask_user` called through `hark mcp`, answered over REST.
    Mcp,
}

impl Foreign {
    fn command(&self, args: &[&str], port: u16) -> Command {
        let (program, rest) = self.program.split_first().expect("a program");
        let mut command = Command::new(program);
        command
            .args(rest)
            .args(args)
            .current_dir(&self.folder)
            .env("HARK_HOME", &self.home_as_given)
            .env("HARK_PORT", port.to_string())
            .env("HARK_LOG", "info")
            .envs(self.env.iter().map(|(key, value)| (key, value)));
        command
    }
}

/// Runs the smoke checks; the daemon is stopped (or killed) whatever happens.
pub fn run(foreign: &Foreign, round: Round) -> Result<(), String> {
    eprintln!("\n$ smoke run: {}", foreign.name);
    let started = Instant::now();
    std::fs::create_dir_all(&foreign.home)
        .map_err(|error| format!("cannot create {}: {error}", foreign.home.display()))?;
    // No browser opened, no notification shown on the machine running the checks.
    let config = foreign.home.join("config.json");
    std::fs::write(&config, r#"{"autoOpenBrowser":false,"notification":false}"#)
        .map_err(|error| format!("cannot write {}: {error}", config.display()))?;
    let port = free_port()?;
    let mut serve = foreign
        .command(&["serve"], port)
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|error| format!("{}: cannot start serve: {error}", foreign.name))?;
    let result = checks(foreign, round, port, &mut serve);
    if result.is_err() {
        // What was started may be a launcher (npx, wine) with the daemon its grandchild: ask
        // the daemon itself to stop first, then end the launcher.
        let _ = foreign.command(&["stop"], port).output();
        let _ = serve.kill();
    }
    let _ = serve.wait();
    result?;
    eprintln!(
        "smoke run passed: {} in {:.0} s",
        foreign.name,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn checks(foreign: &Foreign, round: Round, port: u16, serve: &mut Child) -> Result<(), String> {
    let stdout = serve.stdout.take().expect("piped");
    let lines = lines_of(stdout);
    let address = lines
        .recv_timeout(START_TIMEOUT)
        .map_err(|_| format!("{}: the daemon printed no address", foreign.name))?;
    if !address.trim().ends_with(&format!(":{port}")) {
        return Err(format!("{}: the daemon printed {address:?}", foreign.name));
    }
    let daemon = Daemon {
        base: format!("http://127.0.0.1:{port}"),
        token: read_token(&foreign.home)?,
    };
    let health = daemon.get("/api/health")?;
    if !health.contains("\"version\"") {
        return Err(format!("{}: /api/health said {health}", foreign.name));
    }
    match round {
        Round::Rest => rest_round(&daemon)?,
        Round::Mcp => mcp_round(foreign, &daemon, port)?,
    }
    let stop = foreign
        .command(&["stop"], port)
        .output()
        .map_err(|error| format!("{}: cannot run hark stop: {error}", foreign.name))?;
    if !stop.status.success() {
        return Err(format!(
            "{}: hark stop failed: {}",
            foreign.name,
            String::from_utf8_lossy(&stop.stderr)
        ));
    }
    let deadline = Instant::now() + STEP_TIMEOUT;
    while Instant::now() < deadline {
        if serve
            .try_wait()
            .map_err(|error| error.to_string())?
            .is_some()
        {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err(format!(
        "{}: the daemon did not stop when asked",
        foreign.name
    ))
}

const YES_NO: &str =
    r#"{"questions":[{"question":"Ship it?","options":[{"label":"Yes"},{"label":"No"}]}]}"#;
const PICK_YES: &str = r#"{"answers":[{"selected":["Yes"]}]}"#;

fn rest_round(daemon: &Daemon) -> Result<(), String> {
    let created = daemon.post("/api/questions", YES_NO)?;
    let id = string_field(&created, &["id"]).ok_or(format!("no id in {created}"))?;
    daemon.post(&format!("/api/questions/{id}/answer"), PICK_YES)?;
    let waited = daemon.get(&format!("/api/questions/{id}/wait"))?;
    if !waited.contains("\"Yes\"") {
        return Err(format!("the answer did not come back: {waited}"));
    }
    Ok(())
}

fn mcp_round(foreign: &Foreign, daemon: &Daemon, port: u16) -> Result<(), String> {
    let mut shim = foreign
        .command(&["mcp"], port)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start hark mcp: {error}"))?;
    let result = (|| {
        let mut stdin = shim.stdin.take().expect("piped");
        let replies = lines_of(shim.stdout.take().expect("piped"));
        let mut send = |message: &str| {
            writeln!(stdin, "{message}").map_err(|error| format!("hark mcp's stdin: {error}"))
        };
        let reply = |id: u32| -> Result<String, String> {
            let deadline = Instant::now() + STEP_TIMEOUT;
            while let Some(left) = deadline.checked_duration_since(Instant::now()) {
                let line = replies
                    .recv_timeout(left)
                    .map_err(|_| format!("hark mcp did not answer request {id}"))?;
                let reply: Option<serde_json::Value> = serde_json::from_str(&line).ok();
                if reply.is_some_and(|reply| reply["id"] == id) {
                    return Ok(line);
                }
            }
            Err(format!("hark mcp did not answer request {id}"))
        };
        send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"xtask-smoke","version":"1"}}}"#,
        )?;
        reply(1)?;
        send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)?;
        let tools = reply(2)?;
        if !tools.contains("\"ask_user\"") {
            return Err(format!("tools/list has no ask_user: {tools}"));
        }
        send(&format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"ask_user","arguments":{YES_NO}}}}}"#
        ))?;
        let id = pending_question(daemon)?;
        daemon.post(&format!("/api/questions/{id}/answer"), PICK_YES)?;
        let result = reply(3)?;
        if !result.contains("Yes") || result.contains("\"isError\":true") {
            return Err(format!("ask_user returned {result}"));
        }
        Ok(())
    })();
    let _ = shim.kill();
    let _ = shim.wait();
    result.map_err(|error| format!("{}: {error}", foreign.name))
}

/// The id of the first question waiting, once one is.
fn pending_question(daemon: &Daemon) -> Result<String, String> {
    let deadline = Instant::now() + STEP_TIMEOUT;
    while Instant::now() < deadline {
        let listed = daemon.get("/api/questions")?;
        if let Some(id) = string_field(&listed, &["questions", "0", "id"]) {
            return Ok(id);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err("no question arrived from ask_user".into())
}

struct Daemon {
    base: String,
    token: String,
}

impl Daemon {
    fn get(&self, path: &str) -> Result<String, String> {
        self.curl(&[], path)
    }

    fn post(&self, path: &str, body: &str) -> Result<String, String> {
        self.curl(
            &[
                "-X",
                "POST",
                "-H",
                "content-type: application/json",
                "--data",
                body,
            ],
            path,
        )
    }

    /// A request with the token, as a program of another account would need to send it
    /// (an emulated daemon may not recognise this machine's processes as its user's).
    fn curl(&self, args: &[&str], path: &str) -> Result<String, String> {
        let output = Command::new("curl")
            .args(["-sS", "--fail-with-body", "--max-time", "60"])
            .args(["-H", &format!("authorization: Bearer {}", self.token)])
            .args(args)
            .arg(format!("{}{path}", self.base))
            .output()
            .map_err(|error| format!("cannot run curl: {error}"))?;
        let body = String::from_utf8_lossy(&output.stdout).into_owned();
        if output.status.success() {
            Ok(body)
        } else {
            Err(format!(
                "{path}: {} {body}",
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }
}

fn read_token(home: &Path) -> Result<String, String> {
    let file = home.join("token");
    std::fs::read_to_string(&file)
        .map(|token| token.trim().to_string())
        .map_err(|error| format!("cannot read {}: {error}", file.display()))
}

/// The lines a child prints, as they come, from a thread of their own.
fn lines_of(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Waits until the daemon on `port` answers `/api/health` (this machine's own, no token).
pub fn wait_for_health(port: u16) -> Result<(), String> {
    let deadline = Instant::now() + STEP_TIMEOUT;
    while Instant::now() < deadline {
        let health = Command::new("curl")
            .args(["-sf", "--max-time", "2"])
            .arg(format!("http://127.0.0.1:{port}/api/health"))
            .output();
        if health.is_ok_and(|output| output.status.success()) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err(format!("the daemon on port {port} did not come up"))
}

/// The string at `path` (object keys and array indexes) in a JSON text.
fn string_field(json: &str, path: &[&str]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    let mut at = &value;
    for step in path {
        at = match step.parse::<usize>() {
            Ok(index) => at.get(index)?,
            Err(_) => at.get(step)?,
        };
    }
    at.as_str().map(str::to_string)
}

/// A port free on 127.0.0.1 now.
pub fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|error| format!("no free port: {error}"))
}

#[cfg(test)]
mod tests {
    use super::string_field;

    #[test]
    fn a_string_field_is_read_from_json_text() {
        let json = r#"{"questions":[{"id":"q_01","status":"pending"}],"id":"x"}"#;
        assert_eq!(
            string_field(json, &["questions", "0", "id"]).as_deref(),
            Some("q_01")
        );
        assert_eq!(string_field(json, &["id"]).as_deref(), Some("x"));
        assert_eq!(string_field(json, &["missing"]), None);
        assert_eq!(string_field("not json", &["id"]), None);
    }
}
