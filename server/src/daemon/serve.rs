//! `hark serve` as a library function: reads the config, binds the port (stepping aside when
//! another Hark already holds it), opens the store, and serves until SIGINT or SIGTERM; or
//! starts the daemon in the background with `--detach`. `main` only parses and calls it.

use crate::client::detach;
use crate::client::{DaemonClient, Probe};
use crate::home;
use hark_core::store::{ConfigFile, OpenError, Store};
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;

/// How `hark serve` was asked to run: its flags, and the home they apply to.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ServeOptions {
    /// Port to listen on (0 picks a free one) [default: config "port", else 13390].
    #[arg(long, env = "HARK_PORT")]
    pub port: Option<u16>,
    /// Run in the background, logging to $HARK_HOME/daemon.log.
    #[arg(long)]
    pub detach: bool,
    /// Listen on every network interface, so a paired phone can answer (config "lan").
    /// Devices other than this computer must present the token (see `hark url`).
    #[arg(long)]
    pub lan: bool,
    /// Ask for the token from every program and browser, this computer's too (for shared
    /// machines, where other users' programs could reach 127.0.0.1).
    #[arg(long, env = "HARK_REQUIRE_TOKEN", value_parser = clap::builder::BoolishValueParser::new())]
    pub require_token: bool,
    /// Keep the history in memory only (forgotten on restart) instead of $HARK_HOME/hark.db.
    #[arg(long)]
    pub memory: bool,
    /// Open the page in the browser once the daemon listens.
    #[arg(long)]
    pub open: bool,
    /// `HARK_HOME`: the config, token, database and pid files; `None` keeps the token in
    /// memory (tests that build the router alone).
    #[arg(skip)]
    pub home: Option<PathBuf>,
}

/// Why `hark serve` could not run; each says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot use {home} as HARK_HOME: {source}")]
    Home {
        home: PathBuf,
        source: std::io::Error,
    },
    #[error("--detach needs a fixed port, so that shims and `hark status` find it")]
    DetachNeedsPort,
    #[error("{0}")]
    Detach(String),
    #[error(
        "cannot listen on {address}:{port}: {source}. Is Hark already running (`hark status`)? \
         Another port: --port or HARK_PORT."
    )]
    Bind {
        address: &'static str,
        port: u16,
        source: std::io::Error,
    },
    #[error("cannot create the token in HARK_HOME ({home}): {source}")]
    Token {
        home: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{source}. Is HARK_HOME ({home}) writable? `hark serve --memory` runs without keeping \
         history."
    )]
    Store { home: PathBuf, source: OpenError },
    #[error("the server failed: {0}")]
    Server(std::io::Error),
}

/// Runs `hark serve` with `options` (its `home` defaults to `HARK_HOME`).
///
/// # Errors
/// When the home, the port, the token or the database cannot be used, or the server fails.
pub async fn serve(mut options: ServeOptions) -> Result<(), ServeError> {
    home::keep_new_files_private();
    // Before the first connection: `listen` sizes its budgets under the limit then in force.
    crate::security::open_files::raise();
    let home = options.home.clone().unwrap_or_else(home::hark_home);
    options.home = Some(home.clone());
    home::ensure_home(&home).map_err(|source| ServeError::Home {
        home: home.clone(),
        source,
    })?;
    let (config, report) = ConfigFile::load(Some(&home));
    for problem in report {
        tracing::warn!("config: {problem}");
    }
    let config = config.current();
    let port = options.port.unwrap_or(config.port);
    options.lan |= config.lan;
    if options.detach {
        return detach(&options, home, port).await;
    }
    let address = if options.lan { "0.0.0.0" } else { "127.0.0.1" };
    let listener = match tokio::net::TcpListener::bind((address, port)).await {
        Ok(listener) => listener,
        Err(error) if error.kind() == std::io::ErrorKind::AddrInUse && hark_answers(port).await => {
            // Several shims may start a daemon at the same instant; the first one to bind
            // serves everyone, and the others step aside.
            say(&format!(
                "Hark is already running at http://127.0.0.1:{port}"
            ));
            return Ok(());
        }
        Err(source) => {
            return Err(ServeError::Bind {
                address,
                port,
                source,
            });
        }
    };
    let bound = listener
        .local_addr()
        .map(|addr| addr.port())
        .unwrap_or(port);
    // Always: this user's programs send it (the daemon asks it of other accounts, and of this
    // one where a connection's owner cannot be found).
    crate::security::token::read_or_create(&home.join(crate::security::token::TOKEN_FILE))
        .map_err(|source| ServeError::Token {
            home: home.clone(),
            source,
        })?;
    // The first line on stdout: tests, `--detach` and the shim read the port from it.
    say(&format!("Hark listening on http://127.0.0.1:{bound}"));
    if options.lan {
        say("Other devices on this network may answer once paired: run `hark url`.");
    }
    // Only the daemon that won the port opens the database: several started at once (by shims)
    // must not migrate it side by side. The store's token is the one shutdown signal.
    let shutdown = CancellationToken::new();
    let (store, _) = if options.memory {
        Store::open(Some(&home), shutdown.clone())
    } else {
        Store::open_persistent(&home, shutdown.clone())
            .await
            .map_err(|source| ServeError::Store {
                home: home.clone(),
                source,
            })?
    };
    if let Err(error) = detach::write_pid_files(&home, bound) {
        tracing::warn!("cannot write the pid file: {error}");
    }
    tokio::spawn(stop_on_signal(shutdown));
    let served = crate::run(store.clone(), listener, options).await;
    // Writes queued by the last requests (a withdrawn question, a time-out) reach the disk, and
    // the database is closed whole: only hark.db is left, its WAL folded in.
    store.close_log().await;
    detach::remove_pid_files(&home);
    served.map_err(ServeError::Server)?;
    tracing::info!("stopped");
    Ok(())
}

/// Starts the daemon in the background (or finds it running) and says where it is.
async fn detach(options: &ServeOptions, home: PathBuf, port: u16) -> Result<(), ServeError> {
    if port == 0 {
        return Err(ServeError::DetachNeedsPort);
    }
    let flags: Vec<&str> = [
        (options.lan, "--lan"),
        (options.require_token, "--require-token"),
        (options.memory, "--memory"),
    ]
    .into_iter()
    .filter_map(|(on, flag)| on.then_some(flag))
    .collect();
    let (health, already) = detach::detach(&home, port, &flags)
        .await
        .map_err(|error| ServeError::Detach(error.to_string()))?;
    let state = if already {
        "is already running"
    } else {
        "started"
    };
    println!(
        "Hark {} {state} at http://127.0.0.1:{port} ({} pending)",
        health.version, health.pending
    );
    if options.open {
        let client = crate::client::DaemonClient::local(port);
        let base = client.base().to_string();
        let url = match client.one_time_login().await {
            Ok(login) => login.url(&base, "/"),
            Err(error) => {
                tracing::warn!(%error, "no one-time login for the page opened");
                format!("{base}/")
            }
        };
        crate::daemon::desktop::open_page(&url);
    }
    Ok(())
}

/// Prints a line for whoever started the daemon. Whoever that is may stop reading (a test or a
/// script that took the first line): the daemon carries on, where `println!` would panic.
fn say(line: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
}

/// True when a Hark daemon answers on `port` (waiting briefly for one that is starting).
async fn hark_answers(port: u16) -> bool {
    let client = DaemonClient::local(port);
    for _ in 0..20 {
        match client.probe().await {
            Probe::Hark(_) => return true,
            Probe::Foreign => return false,
            Probe::Nothing => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
    false
}

/// Cancels `shutdown` on SIGINT or SIGTERM.
async fn stop_on_signal(shutdown: CancellationToken) {
    // A daemon with no console (detached on Windows) may be refused Ctrl-C handling: that is
    // no reason to stop.
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
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
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
    shutdown.cancel();
}
