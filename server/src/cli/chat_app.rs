//! `hark <app> setup` and `hark <app> unpair` for every chat app that pairs by a code
//! (Telegram, Slack, Discord, Feishu/Lark): the app's credentials come from its flags, else
//! from standard input (a secret's first line, when it is not a terminal), else from prompts
//! that do not echo secrets; the daemon checks them with the service, keeps them in
//! `secrets.json` and makes the pairing code this command shows, then waits (at most the code's
//! ten minutes) for the person to send it. What differs per app is its `Setup`: the request's
//! fields, the words of its prompts, and how its pairing command is written: one file per app
//! below (WeChat's logs in by a QR code instead, `wechat`).

pub mod discord;
pub mod feishu;
pub mod slack;
pub mod telegram;
pub mod wechat;

use crate::client::{ClientError, DaemonClient};
use crate::home;
use hark_core::model::channels::PairingCode;
use hark_core::model::{ChannelAction, ChannelName};
use serde::Deserialize;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// How often, and how many times at most, the pairing is looked for: ten minutes in all.
const LOOK_EVERY: Duration = Duration::from_secs(1);
const LOOKS: u32 = 600;

/// One value an app's setup asks for.
pub struct Field {
    /// Its name in the setup request (`botToken`).
    pub name: &'static str,
    /// The prompt's words, without the "keeps the saved one" hint.
    pub prompt: &'static str,
    /// A secret: its prompt does not echo, and standard input may carry it.
    pub secret: bool,
    /// What its flag gave.
    pub given: Option<String>,
}

/// What `hark <app> setup` needs to know of the app.
pub struct Setup {
    pub channel: ChannelName,
    /// The app's name in sentences ("Slack", "Feishu/Lark").
    pub app: &'static str,
    pub fields: Vec<Field>,
    /// Fields of the request that are not asked for (Feishu's address).
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// The words before the code the person sends (`pair`, `/start`).
    pub pair: &'static str,
    /// Where the person sends it ("in a direct message in Slack").
    pub send_where: String,
}

/// What every pairing app's report says (`GET /api/channels`).
#[derive(Deserialize)]
struct Report {
    #[serde(default)]
    token: bool,
    #[serde(default)]
    bot: Option<String>,
    #[serde(default)]
    pairings: u64,
    #[serde(default)]
    pairing: Option<PairingCode>,
}

/// The report of `channel`.
async fn report_of(client: &DaemonClient, channel: ChannelName) -> Result<Report, ClientError> {
    let report = client.channels().await?;
    let value = serde_json::to_value(report).unwrap_or_default();
    Ok(
        serde_json::from_value(value[channel.as_str()].clone()).unwrap_or(Report {
            token: false,
            bot: None,
            pairings: 0,
            pairing: None,
        }),
    )
}

/// Says why a command to the daemon failed.
pub fn failed(error: &ClientError, port: u16) -> ExitCode {
    match error {
        ClientError::Unreachable { .. } => {
            eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
        }
        error => eprintln!("hark: {error}"),
    }
    ExitCode::FAILURE
}

/// A field's value: its flag's, else standard input's next line (a secret, when standard
/// input is not a terminal), else typed at a prompt; `None` keeps the saved one.
fn read(field: Field, saved: bool) -> std::io::Result<Option<String>> {
    if let Some(given) = field.given {
        return Ok(Some(given));
    }
    let stdin = std::io::stdin();
    let typed = if !stdin.is_terminal() {
        if !field.secret {
            return Ok(None);
        }
        let mut line = String::new();
        stdin.lock().read_line(&mut line)?;
        line
    } else {
        let keep = if saved {
            " (Enter keeps the saved one)"
        } else {
            ""
        };
        let prompt = format!("{}{keep}: ", field.prompt);
        if field.secret {
            rpassword::prompt_password(prompt)?
        } else {
            print!("{prompt}");
            std::io::stdout().flush()?;
            let mut line = String::new();
            stdin.lock().read_line(&mut line)?;
            line
        }
    };
    Ok(Some(typed.trim().to_string()).filter(|typed| !typed.is_empty()))
}

/// `hark <app> setup`.
pub async fn setup(setup: Setup, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let channel = setup.channel;
    let before = match report_of(&client, channel).await {
        Ok(report) => report,
        Err(error) => return failed(&error, port),
    };
    let mut request = setup.extra;
    for field in setup.fields {
        let name = field.name;
        match read(field, before.token) {
            Ok(Some(value)) => {
                request.insert(name.to_string(), value.into());
            }
            Ok(None) => {}
            Err(error) => {
                eprintln!("hark: cannot read {name}: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    let report: Report = match client
        .channel_action(channel, ChannelAction::Setup, &request)
        .await
    {
        Ok(report) => report,
        Err(error) => return failed(&error, port),
    };
    let bot = report.bot.as_deref().map_or_else(
        || format!("your {} bot", setup.app),
        |bot| format!("@{bot}"),
    );
    let Some(pairing) = report.pairing else {
        eprintln!("hark: the daemon made no pairing code; try again");
        return ExitCode::FAILURE;
    };
    println!("The credentials work: {bot}.");
    println!();
    println!(
        "To pair, send this to {bot} {} within 10 minutes:",
        setup.send_where
    );
    println!();
    println!("    {} {}", setup.pair, pairing.code);
    if let Some(link) = &pairing.link {
        println!();
        println!("or open {link}");
    }
    println!();
    println!("Waiting… (Ctrl+C stops waiting; the code stays valid)");
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        match report_of(&client, channel).await {
            Ok(report) if report.pairings > before.pairings => {
                println!("Paired. Questions from your agents now go to {bot} too.");
                return ExitCode::SUCCESS;
            }
            Ok(report) if report.pairing.is_none() => {
                eprintln!(
                    "hark: the code is no longer valid (used, replaced or expired); run `hark {channel} setup` again"
                );
                return ExitCode::FAILURE;
            }
            Ok(_) => {}
            Err(error) => return failed(&error, port),
        }
    }
    eprintln!("hark: nobody sent the code within 10 minutes; run `hark {channel} setup` again");
    ExitCode::FAILURE
}

/// `hark <app> unpair`.
pub async fn unpair(channel: ChannelName, app: &str, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<serde_json::Value>(channel, ChannelAction::Unpair, &serde_json::json!({}))
        .await
    {
        Ok(_) => {
            println!(
                "{app} is unpaired; it answers nobody until someone pairs again (`hark {channel} setup`)."
            );
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error, port),
    }
}

/// An app's `setup` flags, and what its setup asks for.
pub trait Credentials: clap::Args {
    const CHANNEL: ChannelName;
    /// The app's name in sentences.
    const APP: &'static str;
    /// What `hark <app> setup` asks for, given these flags.
    fn setup(self) -> Setup;
}

/// `hark <app> …` for a chat app that pairs by a code.
#[derive(clap::Subcommand)]
pub enum ChatAction<C: Credentials> {
    /// Check and keep the app's credentials with its service, and pair yourself with a one-time
    /// code sent to it. What is not given as flags is typed at prompts that do not echo secrets,
    /// or read from standard input (a line per secret).
    Setup {
        #[command(flatten)]
        credentials: C,
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
    /// Forget the paired person: the app answers nobody until someone pairs again.
    Unpair {
        #[arg(long, env = "HARK_PORT")]
        port: Option<u16>,
    },
}

impl<C: Credentials> ChatAction<C> {
    /// Runs the command.
    pub async fn run(self) -> ExitCode {
        match self {
            ChatAction::Setup { credentials, port } => setup(credentials.setup(), port).await,
            ChatAction::Unpair { port } => unpair(C::CHANNEL, C::APP, port).await,
        }
    }
}
