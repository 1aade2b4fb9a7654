//! `hark serve --detach`, `hark status` and `hark stop`, as a person types them.

use std::process::Command;

fn hark(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(args)
        .env("HARK_HOME", home)
        .env_remove("HARK_PORT")
        .env("HARK_LOG", "warn")
        .env("BROWSER", "true")
        .output()
        .expect("hark runs")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn detach_status_stop() {
    let home = tempfile::tempdir().unwrap();
    let port = free_port().to_string();
    let status = hark(home.path(), &["status", "--port", &port]);
    assert!(!status.status.success());
    assert!(String::from_utf8_lossy(&status.stdout).contains("not running"));

    let started = hark(home.path(), &["serve", "--detach", "--port", &port]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    assert!(String::from_utf8_lossy(&started.stdout).contains("started"));
    assert!(home.path().join("daemon.pid").exists());
    assert!(home.path().join("daemon.log").exists());

    let again = hark(home.path(), &["serve", "--detach", "--port", &port]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("already running"));

    // status and stop find the port from the running daemon's files.
    let status = hark(home.path(), &["status"]);
    assert!(status.status.success());
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("is running") && text.contains("0 pending"),
        "{text}"
    );

    let stopped = hark(home.path(), &["stop"]);
    assert!(stopped.status.success());
    assert!(String::from_utf8_lossy(&stopped.stdout).contains("Stopped"));
    assert!(
        !home.path().join("daemon.pid").exists(),
        "the daemon removed its pid file"
    );
    let status = hark(home.path(), &["status", "--port", &port]);
    assert!(!status.status.success());
    let stop_again = hark(home.path(), &["stop", "--port", &port]);
    assert!(String::from_utf8_lossy(&stop_again.stdout).contains("not running"));
}

#[test]
fn a_port_held_by_another_program_is_named() {
    let home = tempfile::tempdir().unwrap();
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = holder.local_addr().unwrap().port().to_string();
    let serve = hark(home.path(), &["serve", "--port", &port]);
    assert!(!serve.status.success());
    let stderr = String::from_utf8_lossy(&serve.stderr);
    assert!(
        stderr.contains(&port) && stderr.contains("HARK_PORT"),
        "{stderr}"
    );
}

#[test]
fn stop_asks_the_daemon_over_its_api_with_the_token() {
    let home = tempfile::tempdir().unwrap();
    let port = free_port().to_string();
    let started = Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["serve", "--detach", "--require-token", "--port", &port])
        .env("HARK_HOME", home.path())
        .env("HARK_LOG", "info")
        .env("BROWSER", "true")
        .output()
        .unwrap();
    assert!(started.status.success());
    // Without the token nobody stops it.
    let refused = Command::new("curl")
        .args(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST"])
        .arg(format!("http://127.0.0.1:{port}/api/stop"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&refused.stdout), "401");
    assert!(hark(home.path(), &["status"]).status.success());

    let stopped = hark(home.path(), &["stop"]);
    assert!(
        String::from_utf8_lossy(&stopped.stdout).contains("Stopped"),
        "{}",
        String::from_utf8_lossy(&stopped.stderr)
    );
    let log = std::fs::read_to_string(home.path().join("daemon.log")).unwrap();
    assert!(log.contains("asked to stop over the API"), "{log}");
    assert!(!home.path().join("daemon.pid").exists());
}
