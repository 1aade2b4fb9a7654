//! `hark feishu setup` and `hark feishu unpair`: connecting the running daemon's Feishu/Lark
//! app from a shell. The App ID comes from `--app-id` or a prompt, the App Secret from
//! `--app-secret` or a prompt that does not echo it; `--lark` puts the app on Lark
//! (`open.larksuite.com`), `--feishu` back on Feishu; without either it stays where it is. The daemon checks them with Feishu, keeps them in
//! `secrets.json`, and makes the pairing code this command shows, then waits (at most the
//! code's ten minutes) for the person to send it.

use crate::client::{ClientError, DaemonClient};
use crate::daemon::home;
use hark_core::model::ChannelName;
use hark_core::model::channels::feishu::{FeishuReport, FeishuSetup, LARK_API};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// How often, and how many times at most, the pairing is looked for: ten minutes in all.
const LOOK_EVERY: Duration = Duration::from_secs(1);
const LOOKS: u32 = 600;

fn unreachable(port: u16) -> ExitCode {
    eprintln!("hark: Hark is not running on port {port}; start it with `hark serve`.");
    ExitCode::FAILURE
}

/// A value: the flag's, else typed at a prompt on a terminal (hidden for a secret); `None`
/// keeps the saved one.
fn read_value(flag: Option<String>, prompt: &str, hidden: bool) -> std::io::Result<Option<String>> {
    if let Some(value) = flag {
        return Ok(Some(value));
    }
    if !std::io::stdin().is_terminal() {
        return Ok(None);
    }
    let typed = if hidden {
        rpassword::prompt_password(prompt)?
    } else {
        print!("{prompt}");
        std::io::stdout().flush()?;
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        line
    };
    Ok(Some(typed.trim().to_string()).filter(|typed| !typed.is_empty()))
}

/// `hark feishu setup`.
pub async fn setup(
    app_id: Option<String>,
    app_secret: Option<String>,
    api_base: Option<&'static str>,
    port: Option<u16>,
) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let before = match client.channels().await {
        Ok(report) => report.feishu,
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
    let read = read_value(app_id, &format!("App ID, cli_…{keep}: "), false).and_then(|id| {
        Ok((
            id,
            read_value(app_secret, &format!("App Secret{keep}: "), true)?,
        ))
    });
    let (app_id, app_secret) = match read {
        Ok(read) => read,
        Err(error) => {
            eprintln!("hark: cannot read the app's credentials: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = match client
        .channel_action::<FeishuReport>(
            ChannelName::Feishu,
            "setup",
            &FeishuSetup {
                app_id,
                app_secret,
                api_base: api_base.map(str::to_string),
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
        .map_or_else(|| "your app's bot".to_string(), |bot| format!("\"{bot}\""));
    let Some(pairing) = report.pairing else {
        eprintln!("hark: the daemon made no pairing code; try again");
        return ExitCode::FAILURE;
    };
    let app = if report.api_base == LARK_API {
        "Lark"
    } else {
        "Feishu"
    };
    println!("The app's credentials work: {bot}.");
    println!();
    println!("To pair, send this to {bot} in a direct message in {app} within 10 minutes:");
    println!();
    println!("    pair {}", pairing.code);
    println!();
    println!("Waiting… (Ctrl+C stops waiting; the code stays valid)");
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        match client.channels().await {
            Ok(report) if report.feishu.pairings > before.pairings => {
                println!("Paired. Questions from your agents now go to {bot} too.");
                return ExitCode::SUCCESS;
            }
            Ok(report) if report.feishu.pairing.is_none() => {
                eprintln!(
                    "hark: the code is no longer valid (used, replaced or expired); run `hark feishu setup` again"
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
    eprintln!("hark: nobody sent the code within 10 minutes; run `hark feishu setup` again");
    ExitCode::FAILURE
}

/// `hark feishu unpair`.
pub async fn unpair(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<FeishuReport>(ChannelName::Feishu, "unpair", &serde_json::json!({}))
        .await
    {
        Ok(_) => {
            println!(
                "Feishu/Lark is unpaired; the bot answers nobody until someone pairs again (`hark feishu setup`)."
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
