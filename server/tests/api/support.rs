//! Starting a real daemon for a test, and small helpers to talk to it.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `hark serve` with its own temporary home; stopped when dropped.
pub struct Daemon {
    pub child: Child,
    pub port: u16,
    pub home: tempfile::TempDir,
    pub http: reqwest::Client,
}

impl Daemon {
    /// Starts a daemon on a free port.
    pub fn start() -> Daemon {
        Self::start_in(tempfile::tempdir().expect("temporary HARK_HOME"))
    }

    /// Starts a daemon in an existing home.
    pub fn start_in(home: tempfile::TempDir) -> Daemon {
        Self::start_with(home, &[])
    }

    /// Starts a daemon with extra environment variables.
    pub fn start_with(home: tempfile::TempDir, env: &[(&str, &str)]) -> Daemon {
        Self::spawn(home, env, &[], Stdio::inherit())
    }

    /// Starts a daemon with extra `hark serve` flags and environment variables.
    pub fn start_flags(home: tempfile::TempDir, env: &[(&str, &str)], flags: &[&str]) -> Daemon {
        Self::spawn(home, env, flags, Stdio::inherit())
    }

    /// Kills the daemon at once (SIGKILL: no shutdown, as in a crash) and starts a new one on
    /// the same home.
    pub fn crash_and_restart(mut self) -> Daemon {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let home = std::mem::replace(&mut self.home, tempfile::tempdir().unwrap());
        drop(self);
        Daemon::start_in(home)
    }

    /// Starts a daemon logging at `info` into `log`, for tests that read what it did.
    pub fn start_logging(
        home: tempfile::TempDir,
        env: &[(&str, &str)],
        log: &std::path::Path,
    ) -> Daemon {
        let file = std::fs::File::create(log).expect("a log file");
        let mut env = env.to_vec();
        env.push(("HARK_LOG", "info"));
        Self::spawn(home, &env, &[], Stdio::from(file))
    }

    /// Starts a daemon through `wrapper` (a program that runs the rest of its arguments, such
    /// as `prlimit --nofile=256:512`), with extra `hark serve` flags.
    pub fn start_wrapped(home: tempfile::TempDir, wrapper: &[&str], flags: &[&str]) -> Daemon {
        Self::spawn_with(home, wrapper, &[], flags, Stdio::inherit())
    }

    fn spawn(
        home: tempfile::TempDir,
        env: &[(&str, &str)],
        flags: &[&str],
        stderr: Stdio,
    ) -> Daemon {
        Self::spawn_with(home, &[], env, flags, stderr)
    }

    fn spawn_with(
        home: tempfile::TempDir,
        wrapper: &[&str],
        env: &[(&str, &str)],
        flags: &[&str],
        stderr: Stdio,
    ) -> Daemon {
        let hark = env!("CARGO_BIN_EXE_hark");
        let (program, wrapper_args) = match wrapper.split_first() {
            Some((program, rest)) => (*program, rest),
            None => (hark, &[][..]),
        };
        let mut command = Command::new(program);
        command.args(wrapper_args);
        if !wrapper.is_empty() {
            command.arg(hark);
        }
        let mut child = command
            .args(["serve", "--port", "0"])
            .args(flags)
            .env("HARK_HOME", home.path())
            .env_remove("HARK_PORT")
            .env("HARK_LOG", "warn")
            .env("BROWSER", "true")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("hark serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the daemon prints its address");
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        let http = reqwest::Client::builder()
            .pool_idle_timeout(hark::client::IDLE_CONNECTION)
            .timeout(Duration::from_secs(30))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Daemon {
            child,
            port,
            home,
            http,
        }
    }

    /// The daemon's token, as its user's programs read it.
    pub fn token(&self) -> String {
        std::fs::read_to_string(self.home.path().join("token"))
            .expect("the daemon writes its token at start")
            .trim()
            .to_string()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http.get(self.url(path)).send().await.unwrap()
    }

    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    pub async fn put(&self, path: &str, body: &Value) -> reqwest::Response {
        self.http
            .put(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Creates a question and returns its JSON.
    pub async fn ask(&self, body: &Value) -> Value {
        let response = self.post("/api/questions", body).await;
        assert_eq!(response.status(), 201, "create failed");
        response.json().await.unwrap()
    }

    /// Sends SIGTERM and waits (bounded) for the exit status.
    pub fn terminate(&mut self) -> Option<std::process::ExitStatus> {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A one-question yes/no request.
/// Polls the daemon's health at `health_url` until at least `count` waits for an outcome are
/// open (bounded): the waiters have reached the store.
pub async fn waits_open(http: &reqwest::Client, health_url: &str, count: usize) {
    for _ in 0..400 {
        let health: Value = http
            .get(health_url)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if health["waits"].as_u64().unwrap_or_default() >= count as u64 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("{count} waits did not open");
}

pub fn yes_no() -> Value {
    json!({"questions": [{"question": "Deploy now?", "options": [{"label": "Yes"}, {"label": "No"}]}]})
}

/// The answer picking `label` for a one-question request.
pub fn pick(label: &str) -> Value {
    json!({"answers": [{"selected": [label]}]})
}

/// Asserts a JSON error with status and field.
pub async fn assert_error(response: reqwest::Response, status: u16, field: Option<&str>) -> Value {
    assert_eq!(response.status(), status);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{body}"
    );
    assert_eq!(body["field"].as_str(), field, "{body}");
    body
}

/// POSTs to `path` over a raw connection, writing `body` chunks until the daemon stops reading,
/// and returns what it answered.
pub fn raw_post(port: u16, path: &str, extra_headers: &str, body: &[&[u8]]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: application/json\r\n{extra_headers}\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    for chunk in body {
        if stream.write_all(chunk).is_err() {
            break;
        }
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

/// Whether this test may act as another user.
pub fn can_take_another_uid() -> bool {
    use std::os::unix::fs::MetadataExt;
    let root = std::fs::metadata("/proc/self").is_ok_and(|me| me.uid() == 0);
    if !root {
        eprintln!("skipped: taking another uid needs root");
    }
    root
}

/// `curl` as uid and gid 65534 (`nobody`), answering the status code it got.
pub fn curl_as_nobody(args: &[&str]) -> String {
    let output = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "curl"])
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "--max-time",
            "10",
        ])
        .args(args)
        .output()
        .expect("setpriv and curl run");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
