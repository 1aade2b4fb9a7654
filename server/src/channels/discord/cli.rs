//! `hark discord setup` and `hark discord unpair`: connecting the running daemon's Discord bot
//! from a shell. The token comes from `--bot-token`, or a prompt that does not echo it; the
//! daemon checks it with Discord, keeps it in `secrets.json`, and makes the pairing code this
//! command shows, then waits (at most the code's ten minutes) for the person to send it.

use crate::client::{ClientError, DaemonClient};
use crate::daemon::home;
use hark_core::model::ChannelName;
use hark_core::model::channels::discord::{DiscordReport, DiscordSetup};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// How often, and how many times at most, the pairing is looked for: ten minutes in all.
const LOOK_EVERY: Duration = Duration::from_secs(1);
const LOOKS: u32 = 600;

fn unreachable(port: u16) -> ExitCode {
    eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
    ExitCode::FAILURE
}

/// A token: the flag's, else typed at a hidden prompt (on a terminal); `None` keeps the saved
/// one.
fn read_token(flag: Option<String>, prompt: &str) -> std::io::Result<Option<String>> {
    if let Some(token) = flag {
        return Ok(Some(token));
    }
    if !std::io::stdin().is_terminal() {
        return Ok(None);
    }
    let typed = rpassword::prompt_password(prompt)?;
    Ok(Some(typed.trim().to_string()).filter(|typed| !typed.is_empty()))
}

/// `hark discord setup`.
pub async fn setup(bot_token: Option<String>, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let before = match client.channels().await {
        Ok(report) => report.discord,
        Err(ClientError::Unreachable { .. }) => return unreachable(port),
        Err(error) => {
            eprintln!("hark: {error}");
            return ExitCode::FAILURE;
        }
    };
    let keep = if before.token {
        " (Enter keeps the saved one)"
    } else {
        ""
    };
    let bot_token = match read_token(
        bot_token,
        &format!("Bot token from the Developer Portal{keep}: "),
    ) {
        Ok(token) => token,
        Err(error) => {
            eprintln!("hark: cannot read the token: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = match client
        .channel_action::<DiscordReport>(ChannelName::Discord, "setup", &DiscordSetup { bot_token })
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
        .map_or_else(|| "your Discord bot".to_string(), |bot| format!("@{bot}"));
    let Some(pairing) = report.pairing else {
        eprintln!("hark: the daemon made no pairing code; try again");
        return ExitCode::FAILURE;
    };
    println!("The token works: {bot}.");
    println!();
    println!("To pair, send this to {bot} in a direct message in Discord within 10 minutes:");
    println!();
    println!("    pair {}", pairing.code);
    println!();
    println!("Waiting… (Ctrl+C stops waiting; the code stays valid)");
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        match client.channels().await {
            Ok(report) if report.discord.pairings > before.pairings => {
                println!("Paired. Questions from your agents now go to {bot} too.");
                return ExitCode::SUCCESS;
            }
            Ok(report) if report.discord.pairing.is_none() => {
                eprintln!(
                    "hark: the code is no longer valid (used, replaced or expired); run `hark discord setup` again"
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
    eprintln!("hark: nobody sent the code within 10 minutes; run `hark discord setup` again");
    ExitCode::FAILURE
}

/// `hark discord unpair`.
pub async fn unpair(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<DiscordReport>(ChannelName::Discord, "unpair", &serde_json::json!({}))
        .await
    {
        Ok(_) => {
            println!(
                "Discord is unpaired; the bot answers nobody until someone pairs again (`hark discord setup`)."
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
