//! `hark telegram setup` and `hark telegram unpair`: connecting the running daemon's Telegram bot
//! from a shell. The token comes from `--bot-token`, standard input, or a prompt that does not
//! echo it; the daemon checks it with Telegram, keeps it in `secrets.json`, and makes the
//! pairing code this command shows, then waits (at most the code's ten minutes) for the chat.

use crate::client::{ClientError, DaemonClient};
use crate::daemon::home;
use hark_core::model::ChannelName;
use hark_core::model::channels::telegram::{TelegramReport, TelegramSetup};
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

/// How often, and how many times at most, the pairing is looked for: ten minutes in all.
const LOOK_EVERY: Duration = Duration::from_secs(1);
const LOOKS: u32 = 600;

fn unreachable(port: u16) -> ExitCode {
    eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
    ExitCode::FAILURE
}

/// The token: the flag's, else standard input's first line, else typed at a hidden prompt;
/// `None` to keep the saved one.
fn read_token(flag: Option<String>, saved: bool) -> std::io::Result<Option<String>> {
    if let Some(token) = flag {
        return Ok(Some(token));
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        let mut line = String::new();
        stdin.lock().read_line(&mut line)?;
        let line = line.trim().to_string();
        return Ok(Some(line).filter(|line| !line.is_empty()));
    }
    let prompt = if saved {
        "Bot token from @BotFather (Enter keeps the saved one): "
    } else {
        "Bot token from @BotFather (create a bot with /newbot): "
    };
    let typed = rpassword::prompt_password(prompt)?;
    Ok(Some(typed.trim().to_string()).filter(|typed| !typed.is_empty()))
}

/// `hark telegram setup`.
pub async fn setup(bot_token: Option<String>, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let before = match client.channels().await {
        Ok(report) => report.telegram,
        Err(ClientError::Unreachable { .. }) => return unreachable(port),
        Err(error) => {
            eprintln!("hark: {error}");
            return ExitCode::FAILURE;
        }
    };
    let token = match read_token(bot_token, before.token) {
        Ok(token) => token,
        Err(error) => {
            eprintln!("hark: cannot read the bot token: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = match client
        .channel_action::<TelegramReport>(
            ChannelName::Telegram,
            "setup",
            &TelegramSetup { bot_token: token },
        )
        .await
    {
        Ok(report) => report,
        Err(ClientError::Unreachable { .. }) => return unreachable(port),
        Err(error) => {
            eprintln!("hark: {error}");
            return ExitCode::FAILURE;
        }
    };
    let bot = report
        .bot
        .as_deref()
        .map_or_else(|| "your bot".to_string(), |bot| format!("@{bot}"));
    let Some(pairing) = report.pairing else {
        eprintln!("hark: the daemon made no pairing code; try again");
        return ExitCode::FAILURE;
    };
    println!("The bot token works: {bot}.");
    println!();
    println!("To pair your chat, send this to {bot} in Telegram within 10 minutes:");
    println!();
    println!("    /start {}", pairing.code);
    if let Some(link) = &pairing.link {
        println!();
        println!("or open {link}");
    }
    println!();
    println!("Waiting for the chat… (Ctrl+C stops waiting; the code stays valid)");
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        match client.channels().await {
            Ok(report) if report.telegram.pairings > before.pairings => {
                println!("Paired. Questions from your agents now go to {bot} too.");
                return ExitCode::SUCCESS;
            }
            Ok(report) if report.telegram.pairing.is_none() => {
                eprintln!(
                    "hark: the code is no longer valid (used, replaced or expired); run `hark telegram setup` again"
                );
                return ExitCode::FAILURE;
            }
            Ok(_) => {}
            Err(ClientError::Unreachable { .. }) => return unreachable(port),
            Err(error) => {
                eprintln!("hark: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    eprintln!("hark: no chat sent the code within 10 minutes; run `hark telegram setup` again");
    ExitCode::FAILURE
}

/// `hark telegram unpair`.
pub async fn unpair(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<TelegramReport>(ChannelName::Telegram, "unpair", &serde_json::json!({}))
        .await
    {
        Ok(_) => {
            println!(
                "The Telegram chat is unpaired; the bot answers nobody until a chat pairs again (`hark telegram setup`)."
            );
            ExitCode::SUCCESS
        }
        Err(ClientError::Unreachable { .. }) => unreachable(port),
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}
