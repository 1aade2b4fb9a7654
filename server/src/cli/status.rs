//! `hark status`, `hark stop`, `hark export` and `hark channel test`: talking to the running
//! daemon from a shell.

use crate::client::detach;
use crate::client::{DaemonClient, Probe};
use crate::home;
use std::process::ExitCode;

/// `hark export`: the history from the running daemon, to stdout.
pub async fn export(format: String, of: String, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port).export(&format, &of).await {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(crate::client::ClientError::Unreachable { .. }) => {
            eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `hark status`: whether a daemon runs, its version, port and pending count, its channels,
/// and each agent session with what it is doing since when.
pub async fn status(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port).probe().await {
        Probe::Hark(health) => {
            println!(
                "Hark {} is running at http://127.0.0.1:{port}: {} pending, {} agent wait(s) open, \
                 {} browser(s) connected",
                health.version, health.pending, health.waits, health.browser_clients
            );
            if let Ok(report) = DaemonClient::local(port).channels().await {
                for line in &report.summaries {
                    println!("{}: {}", line.channel, line.summary);
                }
                for channel in &report.channels {
                    println!("{}", channel_line(channel));
                }
            }
            for session in DaemonClient::local(port)
                .sessions()
                .await
                .unwrap_or_default()
            {
                println!(
                    "agent {}: {} since {}",
                    session.agent.label(),
                    session.state.name(),
                    session.since.format("%Y-%m-%d %H:%M UTC")
                );
            }
            ExitCode::SUCCESS
        }
        Probe::Foreign => {
            println!("Port {port} is used by another program, not by Hark.");
            ExitCode::FAILURE
        }
        Probe::Nothing => {
            println!("Hark is not running on port {port}.");
            ExitCode::FAILURE
        }
    }
}

/// `hark stop`: stops the running daemon.
pub async fn stop(port: Option<u16>) -> ExitCode {
    let (home, port) = home::for_command(port);
    match detach::stop(&home, port).await {
        Ok(detach::Stopped::Stopped(pid)) => {
            println!("Stopped Hark (pid {pid}).");
            ExitCode::SUCCESS
        }
        Ok(detach::Stopped::NotRunning) => {
            println!("Hark is not running.");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}

/// One channel's status in a line: what it reached, and its last failure if it is failing.
fn channel_line(status: &hark_core::model::ChannelStatus) -> String {
    let mut line = format!(
        "{} {}: {} sent, {} failed attempts",
        status.channel, status.target, status.sent, status.failures
    );
    if status.failing()
        && let Some(error) = &status.last_error
    {
        line.push_str(&format!("; failing now: {error}"));
    }
    line
}

/// `hark channel test <channel>`: a test message on `channel`, now.
pub async fn test_channel(channel: hark_core::model::ChannelName, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port).test_channel(channel).await {
        Ok(result) => {
            println!("{}", result.message);
            ExitCode::SUCCESS
        }
        Err(crate::client::ClientError::Unreachable { .. }) => {
            eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}
