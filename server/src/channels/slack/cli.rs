//! `hark slack setup` and `hark slack unpair`: connecting the running daemon's Slack app from a
//! shell. The tokens come from `--bot-token` / `--app-token`, or prompts that do not echo them;
//! the daemon checks both with Slack, keeps them in `secrets.json`, and makes the pairing code
//! this command shows, then waits (at most the code's ten minutes) for the person to send it.

use crate::client::{ClientError, DaemonClient};
use crate::daemon::home;
use hark_core::model::ChannelName;
use hark_core::model::channels::slack::{SlackReport, SlackSetup};
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

/// `hark slack setup`.
pub async fn setup(
    bot_token: Option<String>,
    app_token: Option<String>,
    port: Option<u16>,
) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let before = match client.channels().await {
        Ok(report) => report.slack,
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
    let tokens =
        read_token(bot_token, &format!("Bot User OAuth Token, xoxb-…{keep}: ")).and_then(|bot| {
            Ok((
                bot,
                read_token(app_token, &format!("App-level token, xapp-…{keep}: "))?,
            ))
        });
    let (bot_token, app_token) = match tokens {
        Ok(tokens) => tokens,
        Err(error) => {
            eprintln!("hark: cannot read the tokens: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = match client
        .channel_action::<SlackReport>(
            ChannelName::Slack,
            "setup",
            &SlackSetup {
                bot_token,
                app_token,
            },
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
        .map_or_else(|| "your Slack app".to_string(), |bot| format!("@{bot}"));
    let Some(pairing) = report.pairing else {
        eprintln!("hark: the daemon made no pairing code; try again");
        return ExitCode::FAILURE;
    };
    println!("The tokens work: {bot}.");
    println!();
    println!("To pair, send this to {bot} in a direct message in Slack within 10 minutes:");
    println!();
    println!("    pair {}", pairing.code);
    println!();
    println!("Waiting… (Ctrl+C stops waiting; the code stays valid)");
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        match client.channels().await {
            Ok(report) if report.slack.pairings > before.pairings => {
                println!("Paired. Questions from your agents now go to {bot} too.");
                return ExitCode::SUCCESS;
            }
            Ok(report) if report.slack.pairing.is_none() => {
                eprintln!(
                    "hark: the code is no longer valid (used, replaced or expired); run `hark slack setup` again"
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
    eprintln!("hark: nobody sent the code within 10 minutes; run `hark slack setup` again");
    ExitCode::FAILURE
}

/// `hark slack unpair`.
pub async fn unpair(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<SlackReport>(ChannelName::Slack, "unpair", &serde_json::json!({}))
        .await
    {
        Ok(_) => {
            println!(
                "Slack is unpaired; the app answers nobody until someone pairs again (`hark slack setup`)."
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
