//! The `hark` command line: parses arguments, starts tracing, and calls the library.

use clap::{Parser, Subcommand};
use hark::client::{DaemonClient, Probe};
use hark::{daemon, home};
use std::process::ExitCode;
use tokio_util::sync::CancellationToken;

/// Hark lets AI agents ask you a question and wait for your answer.
#[derive(Parser)]
#[command(name = "hark", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the daemon: the web page, the REST API and the event stream on 127.0.0.1.
    Serve {
        /// Port to listen on (0 picks a free one) [default: config "port", else 13390].
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
        /// Run in the background, logging to $HARK_HOME/daemon.log.
        #[arg(long)]
        detach: bool,
    },
    /// Tell whether a daemon is running, with its version, port and pending count.
    Status {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Stop the running daemon.
    Stop {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HARK_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("hark: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        match cli.command {
            Command::Serve { port, detach } => serve(port, detach).await,
            Command::Status { port } => status(port).await,
            Command::Stop { port } => stop(port).await,
        }
    })
}

fn config_port(home: &std::path::Path) -> u16 {
    app::store::ConfigFile::load(Some(home)).0.current().port
}

async fn serve(port: Option<u16>, detach: bool) -> ExitCode {
    let home = home::hark_home();
    if let Err(error) = home::ensure_home(&home) {
        eprintln!("hark: cannot use {} as HARK_HOME: {error}", home.display());
        return ExitCode::FAILURE;
    }
    let shutdown = CancellationToken::new();
    let (store, report) = app::store::Store::open(Some(&home), shutdown.clone());
    for problem in report {
        tracing::warn!("config: {problem}");
    }
    let port = port.unwrap_or_else(|| store.config().port);
    if detach {
        return match daemon::detach(&home, port).await {
            Ok((health, already)) => {
                let state = if already {
                    "is already running"
                } else {
                    "started"
                };
                println!(
                    "Hark {} {state} at http://127.0.0.1:{port} ({} pending)",
                    health.version, health.pending
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("hark: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!(
                "hark: cannot listen on 127.0.0.1:{port}: {error}. \
                 Is Hark already running (`hark status`)? Another port: --port or HARK_PORT."
            );
            return ExitCode::FAILURE;
        }
    };
    let bound = listener
        .local_addr()
        .map(|addr| addr.port())
        .unwrap_or(port);
    println!("Hark listening on http://127.0.0.1:{bound}");
    if let Err(error) = daemon::write_pid_files(&home, bound) {
        tracing::warn!("cannot write the pid file: {error}");
    }
    tokio::spawn(stop_on_signal(shutdown.clone()));
    let served = hark::run(store, listener, shutdown).await;
    daemon::remove_pid_files(&home);
    match served {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hark: the server failed: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Cancels `shutdown` on SIGINT or SIGTERM.
async fn stop_on_signal(shutdown: CancellationToken) {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
    shutdown.cancel();
}

async fn status(port: Option<u16>) -> ExitCode {
    let home = home::hark_home();
    let port = home::resolve_port(port, &home, config_port(&home));
    match DaemonClient::local(port).probe().await {
        Probe::Hark(health) => {
            println!(
                "Hark {} is running at http://127.0.0.1:{port}: {} pending, {} browser(s) connected",
                health.version, health.pending, health.browser_clients
            );
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

async fn stop(port: Option<u16>) -> ExitCode {
    let home = home::hark_home();
    let port = home::resolve_port(port, &home, config_port(&home));
    match daemon::stop(&home, port).await {
        Ok(daemon::Stopped::Stopped(pid)) => {
            println!("Stopped Hark (pid {pid}).");
            ExitCode::SUCCESS
        }
        Ok(daemon::Stopped::NotRunning) => {
            println!("Hark is not running.");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}
