//! `hark wechat setup` and `hark wechat unpair`: logging the running daemon into WeChat from a
//! shell. Setup asks the daemon for a login code, draws it in the terminal, and follows the
//! login (scanned, the number WeChat may show on the phone, confirmed) until it ends; it says
//! plainly when the code expires.

use crate::cli::chat_app::failed;
use crate::client::DaemonClient;
use crate::home;
use hark_core::model::channels::wechat::{WechatLoginState, WechatReport, WechatVerify};
use hark_core::model::{ChannelAction, ChannelName};
use std::io::BufRead;
use std::process::ExitCode;
use std::time::Duration;

/// How often, and how many times at most, the login is looked at: nine minutes in all (the
/// daemon gives up on a code after eight).
const LOOK_EVERY: Duration = Duration::from_secs(1);
const LOOKS: u32 = 9 * 60;

/// Reads the number WeChat shows on the phone from standard input.
fn read_number(wrong: bool) -> Option<String> {
    if wrong {
        println!("That number did not match.");
    }
    println!("Type the number WeChat shows on your phone, then Enter:");
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).ok()?;
    Some(line.trim().to_string()).filter(|line| !line.is_empty())
}

/// `hark wechat setup`.
pub async fn setup(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let report = match client
        .channel_action::<WechatReport>(
            ChannelName::Wechat,
            ChannelAction::Setup,
            &serde_json::json!({}),
        )
        .await
    {
        Ok(report) => report,
        Err(error) => return failed(&error, port),
    };
    let Some(login) = report.login else {
        eprintln!("hark: the daemon made no login code; try again");
        return ExitCode::FAILURE;
    };
    println!("Scan this code with WeChat (Me → the scan button, or Discover → Scan):");
    println!();
    if let Some(drawn) = crate::security::pairing::qr_terminal(&login.qrcode_url) {
        println!("{drawn}");
    }
    println!("If the code does not show, open this link on the phone with WeChat:");
    println!("{}", login.qrcode_url);
    println!();
    println!("Waiting for the login… (Ctrl+C stops waiting)");
    let mut said_scanned = false;
    let mut asked = 0u32;
    let mut last = WechatLoginState::Waiting;
    for _ in 0..LOOKS {
        tokio::time::sleep(LOOK_EVERY).await;
        let report = match client.channels().await {
            Ok(report) => report.wechat,
            Err(error) => return failed(&error, port),
        };
        let Some(login) = report.login else {
            eprintln!(
                "hark: the login is gone (the daemon restarted?); run `hark wechat setup` again"
            );
            return ExitCode::FAILURE;
        };
        // The number is asked for each time WeChat asks anew (once it took one, the login
        // shows as scanned until WeChat answers).
        let asked_anew =
            login.state == WechatLoginState::NeedsCode && last != WechatLoginState::NeedsCode;
        last = login.state;
        match login.state {
            WechatLoginState::Waiting => {}
            WechatLoginState::Scanned => {
                if !said_scanned {
                    println!("Scanned: confirm the login on your phone.");
                    said_scanned = true;
                }
            }
            WechatLoginState::NeedsCode if asked_anew => {
                asked += 1;
                if asked > 5 {
                    eprintln!("hark: too many numbers tried; run `hark wechat setup` again");
                    return ExitCode::FAILURE;
                }
                let wrong = login.wrong_code;
                let typed = tokio::task::spawn_blocking(move || read_number(wrong))
                    .await
                    .ok()
                    .flatten();
                let Some(code) = typed else {
                    eprintln!("hark: no number typed; run `hark wechat setup` again");
                    return ExitCode::FAILURE;
                };
                if let Err(error) = client
                    .channel_action::<WechatReport>(
                        ChannelName::Wechat,
                        ChannelAction::Verify,
                        &WechatVerify { code },
                    )
                    .await
                {
                    return failed(&error, port);
                }
                last = WechatLoginState::Scanned;
            }
            WechatLoginState::NeedsCode => {}
            WechatLoginState::Confirmed => {
                println!(
                    "Logged in. Questions from your agents now go to your WeChat too; only this WeChat account can answer them."
                );
                return ExitCode::SUCCESS;
            }
            WechatLoginState::Expired => {
                eprintln!(
                    "hark: the code expired before the login was confirmed; run `hark wechat setup` again for a new one"
                );
                return ExitCode::FAILURE;
            }
            WechatLoginState::Failed => {
                eprintln!(
                    "hark: the WeChat login failed: {}",
                    login.reason.unwrap_or_default()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    eprintln!("hark: no login within 9 minutes; run `hark wechat setup` again");
    ExitCode::FAILURE
}

/// `hark wechat unpair`.
pub async fn unpair(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    match DaemonClient::local(port)
        .channel_action::<WechatReport>(
            ChannelName::Wechat,
            ChannelAction::Unpair,
            &serde_json::json!({}),
        )
        .await
    {
        Ok(_) => {
            println!(
                "WeChat is logged out: questions no longer go there, and its token is forgotten (`hark wechat setup` logs in again)."
            );
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error, port),
    }
}
