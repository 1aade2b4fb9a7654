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
        /// Listen on every network interface, so a paired phone can answer (config "lan").
        /// Devices other than this computer must present the token (see `hark url`).
        #[arg(long)]
        lan: bool,
        /// Ask for the token from every program and browser, this computer's too (for shared
        /// machines, where other users' programs could reach 127.0.0.1).
        #[arg(long, env = "HARK_REQUIRE_TOKEN", value_parser = clap::builder::BoolishValueParser::new())]
        require_token: bool,
        /// Keep the history in memory only (forgotten on restart) instead of $HARK_HOME/hark.db.
        #[arg(long)]
        memory: bool,
        /// Open the page in the browser once the daemon listens.
        #[arg(long)]
        open: bool,
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
    /// The MCP stdio server that MCP clients start (tools ask_user and get_answer). Starts the
    /// daemon when none answers.
    Mcp {
        #[command(flatten)]
        daemon: DaemonArgs,
        /// Return "pending" after this many seconds without an answer, for clients that cut
        /// long tool calls; the model then continues with get_answer. Default: wait as long as
        /// it takes.
        #[arg(long, env = "HARK_MAX_WAIT", value_name = "SECS")]
        max_wait: Option<u64>,
    },
    /// Ask a question from the shell and print the answer.
    #[command(
        after_help = "Exit codes: 0 answered, 1 error, 3 declined (skipped), 4 timed out, \
                      5 cancelled, 130 interrupted (the question is withdrawn).\n\n\
                      Example: hark ask \"Deploy now?\" -o Yes -o No --timeout 300"
    )]
    Ask {
        #[command(flatten)]
        ask: hark::ask_cli::AskArgs,
        #[command(flatten)]
        daemon: DaemonArgs,
    },
    /// Write every question kept, newest first, to stdout: JSON or Markdown.
    Export {
        /// json or markdown.
        #[arg(long, default_value = "json")]
        format: String,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Print the page's addresses; with LAN mode on, the phone's pairing URL and its QR code.
    Url {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Print the token that pairs other devices, or replace it with --rotate.
    Token {
        /// Replace the token: every paired phone and browser must pair again, at once.
        #[arg(long)]
        rotate: bool,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
}

/// Which daemon the shim and `hark ask` use.
#[derive(clap::Args)]
struct DaemonArgs {
    /// The local daemon's port [default: config "port", else 13390].
    #[arg(long, env = "HARK_PORT")]
    port: Option<u16>,
    /// Use the daemon at this URL (never starts one), e.g. http://192.168.1.20:13390.
    #[arg(long, env = "HARK_URL")]
    url: Option<String>,
    /// The token of a daemon elsewhere (see `hark url` on that machine).
    #[arg(long, env = "HARK_TOKEN", hide_env_values = true)]
    token: Option<String>,
}

impl DaemonArgs {
    fn connection(self) -> hark::connection::Connection {
        match self.url {
            Some(url) => hark::connection::Connection::remote(url, self.token),
            None => {
                let home = home::hark_home();
                let port = self.port.unwrap_or_else(|| home::config_port(&home));
                hark::connection::Connection::local(home, port)
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon logs what it does; the shim and the CLI speak only when something is wrong.
    let default_filter = match cli.command {
        Command::Serve { .. } => "info",
        _ => "warn",
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HARK_LOG")
                .unwrap_or_else(|_| default_filter.into()),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("hark: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        match cli.command {
            Command::Serve {
                port,
                detach,
                lan,
                require_token,
                memory,
                open,
            } => serve(port, detach, lan, require_token, memory, open).await,
            Command::Export { format, port } => export(format, port).await,
            Command::Url { port } => hark::pair_cli::url(port).await,
            Command::Token { rotate, port } => hark::pair_cli::token(rotate, port).await,
            Command::Status { port } => status(port).await,
            Command::Stop { port } => stop(port).await,
            Command::Mcp { daemon, max_wait } => {
                let server = hark::mcp::HarkMcp::new(
                    daemon.connection(),
                    max_wait.map(std::time::Duration::from_secs),
                );
                match hark::mcp::serve_stdio(server).await {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(error) => {
                        eprintln!("hark mcp: {error}");
                        ExitCode::FAILURE
                    }
                }
            }
            Command::Ask { ask, daemon } => hark::ask_cli::run(daemon.connection(), ask).await,
        }
    })
}

async fn serve(
    port: Option<u16>,
    detach: bool,
    lan: bool,
    require_token: bool,
    memory: bool,
    open: bool,
) -> ExitCode {
    let home = home::hark_home();
    if let Err(error) = home::ensure_home(&home) {
        eprintln!("hark: cannot use {} as HARK_HOME: {error}", home.display());
        return ExitCode::FAILURE;
    }
    let (config, report) = hark_core::store::ConfigFile::load(Some(&home));
    for problem in report {
        tracing::warn!("config: {problem}");
    }
    let config = config.current();
    let port = port.unwrap_or(config.port);
    let lan = lan || config.lan;
    if detach {
        if port == 0 {
            eprintln!("hark: --detach needs a fixed port, so that shims and `hark status` find it");
            return ExitCode::FAILURE;
        }
        let mut flags = Vec::new();
        if lan {
            flags.push("--lan");
        }
        if require_token {
            flags.push("--require-token");
        }
        if memory {
            flags.push("--memory");
        }
        return match daemon::detach(&home, port, &flags).await {
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
                if open {
                    hark::desktop::open_page(&format!("http://127.0.0.1:{port}/"));
                }
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("hark: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let address = if lan { "0.0.0.0" } else { "127.0.0.1" };
    let listener = match tokio::net::TcpListener::bind((address, port)).await {
        Ok(listener) => listener,
        Err(error) if error.kind() == std::io::ErrorKind::AddrInUse && hark_answers(port).await => {
            // Several shims may start a daemon at the same instant; the first one to bind
            // serves everyone, and the others step aside.
            println!("Hark is already running at http://127.0.0.1:{port}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!(
                "hark: cannot listen on {address}:{port}: {error}. \
                 Is Hark already running (`hark status`)? Another port: --port or HARK_PORT."
            );
            return ExitCode::FAILURE;
        }
    };
    let bound = listener
        .local_addr()
        .map(|addr| addr.port())
        .unwrap_or(port);
    if (lan || require_token)
        && let Err(error) = hark::token::read_or_create(&home.join(hark::token::TOKEN_FILE))
    {
        eprintln!(
            "hark: cannot create the token in {}: {error}",
            home.display()
        );
        return ExitCode::FAILURE;
    }
    println!("Hark listening on http://127.0.0.1:{bound}");
    if lan {
        println!("Other devices on this network may answer once paired: run `hark url`.");
    }
    if open {
        let page = format!("http://127.0.0.1:{bound}/");
        tokio::task::spawn_blocking(move || hark::desktop::open_page(&page));
    }
    // Only the daemon that won the port opens the database: several started at once (by shims)
    // must not migrate it side by side.
    let shutdown = CancellationToken::new();
    let opened = if memory {
        Ok(hark_core::store::Store::open(Some(&home), shutdown.clone()))
    } else {
        hark_core::store::Store::open_persistent(&home, shutdown.clone()).await
    };
    let store = match opened {
        Ok((store, _)) => store,
        Err(error) => {
            eprintln!(
                "hark: {error}. Is HARK_HOME ({}) writable? `hark serve --memory` runs without \
                 keeping history.",
                home.display()
            );
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = daemon::write_pid_files(&home, bound) {
        tracing::warn!("cannot write the pid file: {error}");
    }
    tokio::spawn(stop_on_signal(shutdown.clone()));
    let options = hark::ServeOptions {
        home: Some(home.clone()),
        lan,
        require_token,
    };
    let served = hark::run(store, listener, shutdown, options).await;
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

async fn export(format: String, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port).export(&format).await {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(hark::client::ClientError::Unreachable { .. }) => {
            eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn status(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
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
    let (home, port) = home::for_command(port);
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
