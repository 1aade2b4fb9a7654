//! The `hark` command line: parses arguments, starts tracing, and calls the library.

use clap::{Parser, Subcommand};
use hark::cli::chat_app::ChatAction;
use hark::cli::chat_app::discord::DiscordCredentials;
use hark::cli::chat_app::feishu::FeishuCredentials;
use hark::cli::chat_app::slack::SlackCredentials;
use hark::cli::chat_app::telegram::TelegramCredentials;
use hark::home;
use std::process::ExitCode;

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
    Serve(hark::ServeOptions),
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
        /// Return "pending" (the model then continues with get_answer) a little before a
        /// client that cuts long tool calls would: `auto` knows Codex, Claude Desktop and
        /// Cursor and lets other clients wait as long as it takes; `off` always waits; a number
        /// hands off after that many seconds.
        #[arg(
            long,
            env = "HARK_MAX_WAIT",
            value_name = "auto|off|SECS",
            default_value = "auto"
        )]
        max_wait: hark::mcp::deadlines::MaxWait,
        /// A client's limit on a tool call as you configured it (Codex's `tool_timeout_sec`,
        /// say), so `auto` hands off before that instead: NAME=SECS, repeatable (in
        /// HARK_CLIENT_LIMITS, separated by commas).
        #[arg(
            long = "client-limit",
            env = "HARK_CLIENT_LIMITS",
            value_name = "NAME=SECS",
            value_delimiter = ','
        )]
        client_limits: Vec<hark::mcp::deadlines::ClientLimit>,
    },
    /// Ask a question from the shell and print the answer.
    #[command(
        after_help = "Exit codes: 0 answered, 1 error, 3 declined (skipped), 4 timed out, \
                      5 cancelled, 130 interrupted (the question is withdrawn).\n\n\
                      Example: hark ask \"Deploy now?\" -o Yes -o No --timeout 300"
    )]
    Ask {
        #[command(flatten)]
        ask: hark::cli::ask::AskArgs,
        #[command(flatten)]
        daemon: DaemonArgs,
    },
    /// An agent's hook command: asks its own questions, plans, forms and permission prompts in
    /// Hark. Without an answer in time it leaves them to the agent's own dialog.
    Hook {
        /// The agent whose hook this is: claude (Claude Code), codex (Codex), gemini (Gemini CLI),
        /// cursor (Cursor) or copilot (GitHub Copilot CLI).
        agent: String,
        /// The event's JSON as an argument rather than on stdin, as Codex's `notify` program
        /// is given it.
        #[arg(value_name = "EVENT")]
        event: Option<String>,
        /// Give up after this many seconds (below the agent's hook timeout: Claude Code's is
        /// 60 s, Codex's the `timeout` in its config, 600 s unless set).
        #[arg(long, value_name = "SECS", default_value_t = hark::cli::hook::DEFAULT_WAIT.as_secs())]
        wait: u64,
        #[command(flatten)]
        daemon: DaemonArgs,
    },
    /// Run an ACP agent (Agent Client Protocol) for an editor such as Zed, asking its permission
    /// requests in Hark too: the first answer, in Hark or in the editor, counts.
    #[command(after_help = "Example, as the editor's agent command: hark acp -- gemini --acp")]
    Acp {
        #[command(flatten)]
        daemon: DaemonArgs,
        /// The agent's command and its arguments, after `--`.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "AGENT"
        )]
        command: Vec<String>,
    },
    /// Write every question kept, newest first, to stdout: JSON or Markdown.
    Export {
        /// json or markdown.
        #[arg(long, default_value = "json")]
        format: String,
        /// questions, or messages (those left for agents).
        #[arg(long, default_value = "questions")]
        of: String,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Print the page's addresses; with LAN mode on, the phone's pairing URL and its QR code.
    Url {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Open the page (or one question, by its id) in this computer's browser, logged in once.
    Open {
        /// The question to open; the inbox without one.
        id: Option<hark_core::model::QuestionId>,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Channels beyond this computer (Telegram, WeChat, Slack, Feishu/Lark, Discord, ntfy, webhooks): `hark channel test ntfy` sends a test
    /// message now and says how it went.
    Channel {
        #[command(subcommand)]
        action: ChannelAction,
    },
    /// The Telegram bot: `hark telegram setup` checks and keeps its token (from @BotFather) and
    /// pairs your chat; `hark telegram unpair` forgets the chat.
    Telegram {
        #[command(subcommand)]
        action: ChatAction<TelegramCredentials>,
    },
    /// WeChat: `hark wechat setup` shows a QR code to scan with WeChat and keeps the login;
    /// `hark wechat unpair` logs out.
    Wechat {
        #[command(subcommand)]
        action: WechatAction,
    },
    /// Slack: `hark slack setup` checks and keeps the app's two tokens and pairs you by a code
    /// sent in a direct message; `hark slack unpair` forgets you.
    Slack {
        #[command(subcommand)]
        action: ChatAction<SlackCredentials>,
    },
    /// Feishu/Lark: `hark feishu setup` checks and keeps the app's App ID and App Secret and
    /// pairs you by a code sent to its bot; `hark feishu unpair` forgets you.
    Feishu {
        #[command(subcommand)]
        action: ChatAction<FeishuCredentials>,
    },
    /// Discord: `hark discord setup` checks and keeps the bot's token and pairs you by a code
    /// sent in a direct message; `hark discord unpair` forgets you.
    Discord {
        #[command(subcommand)]
        action: ChatAction<DiscordCredentials>,
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

#[derive(Subcommand)]
enum ChannelAction {
    /// Send a test message on a channel: telegram, wechat, slack, feishu, discord, ntfy or webhook.
    Test {
        channel: hark_core::model::ChannelName,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
}

#[derive(Subcommand)]
enum WechatAction {
    /// Log in by scanning a QR code with WeChat: questions then arrive there as text, and only
    /// the account that scanned can answer.
    Setup {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Log out: forget the account and the bot token.
    Unpair {
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
    fn connection(self) -> hark::client::connection::Connection {
        match self.url {
            Some(url) => hark::client::connection::Connection::remote(url, self.token),
            None => {
                let home = home::hark_home();
                let port = self.port.unwrap_or_else(|| home::config_port(&home));
                hark::client::connection::Connection::local(home, port)
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon logs what it does; the shim and the CLI speak only when something is wrong.
    let default_filter = match cli.command {
        Command::Serve(_) => "info",
        _ => "warn",
    };
    tracing_subscriber::fmt()
        // Every secret the daemon holds is taken out of what it logs.
        .with_writer(|| hark::security::redact::RedactedStderr)
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
            Command::Serve(options) => match hark::daemon::serve::serve(options).await {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("hark: {error}");
                    ExitCode::FAILURE
                }
            },
            Command::Export { format, of, port } => {
                hark::cli::status::export(format, of, port).await
            }
            Command::Url { port } => hark::cli::pair::url(port).await,
            Command::Open { id, port } => hark::cli::pair::open(id, port).await,
            Command::Token { rotate, port } => hark::cli::pair::token(rotate, port).await,
            Command::Status { port } => hark::cli::status::status(port).await,
            Command::Channel {
                action: ChannelAction::Test { channel, port },
            } => hark::cli::status::test_channel(channel, port).await,
            Command::Telegram { action } => action.run().await,
            Command::Wechat {
                action: WechatAction::Setup { port },
            } => hark::cli::chat_app::wechat::setup(port).await,
            Command::Wechat {
                action: WechatAction::Unpair { port },
            } => hark::cli::chat_app::wechat::unpair(port).await,
            Command::Slack { action } => action.run().await,
            Command::Feishu { action } => action.run().await,
            Command::Discord { action } => action.run().await,
            Command::Stop { port } => hark::cli::status::stop(port).await,
            Command::Mcp {
                daemon,
                max_wait,
                client_limits,
            } => {
                let hand_off = hark::mcp::deadlines::HandOff {
                    max_wait,
                    client_limits,
                };
                let server = hark::mcp::server::HarkMcp::new(daemon.connection(), hand_off);
                match hark::mcp::server::serve_stdio(server).await {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(error) => {
                        eprintln!("hark mcp: {error}");
                        ExitCode::FAILURE
                    }
                }
            }
            Command::Ask { ask, daemon } => hark::cli::ask::run(daemon.connection(), ask).await,
            Command::Acp { daemon, command } => {
                hark::cli::acp::run(daemon.connection(), command).await
            }
            Command::Hook {
                agent,
                event,
                wait,
                daemon,
            } => {
                let agent = match hark::cli::hook::HookAgent::named(&agent) {
                    Ok(agent) => agent,
                    Err(error) => {
                        eprintln!("{error}");
                        return ExitCode::FAILURE;
                    }
                };
                hark::cli::hook::run(
                    daemon.connection(),
                    agent,
                    event,
                    std::time::Duration::from_secs(wait),
                )
                .await
            }
        }
    })
}
