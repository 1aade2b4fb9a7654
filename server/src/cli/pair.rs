//! `hark url` (the page's addresses and the phone's pairing QR code, drawn in the terminal),
//! `hark open` (the page in this computer's browser) and `hark token [--rotate]`. The addresses
//! for this computer carry a one-time login (`security::login`), so the browser gets in even
//! where the daemon asks this machine for the token.

use crate::client::{ClientError, DaemonClient};
use crate::home;
use crate::security::token::{TOKEN_FILE, Tokens};
use std::process::ExitCode;

/// Prints where the page is, and in LAN mode the phone's pairing URL with its QR code.
pub async fn url(port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let pairing = match DaemonClient::local(port).pairing().await {
        Ok(pairing) => pairing,
        Err(ClientError::Unreachable { .. }) => {
            println!(
                "Hark is not running on port {port}. Start it with `hark serve --lan` to answer \
                 from your phone."
            );
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("hark: {error}");
            return ExitCode::FAILURE;
        }
    };
    let client = DaemonClient::local(port);
    match client.one_time_login().await {
        Ok(login) => {
            println!("On this computer: {}", pairing.local_url);
            println!(
                "  or, logging this computer's browser in once (within {} minutes): {}",
                login.expires_in_secs / 60,
                login.url(client.base(), "/")
            );
        }
        Err(_) => println!("On this computer: {}", pairing.local_url),
    }
    match pairing.lan_url {
        Some(url) => {
            println!("On your phone (same network), scan this or open the link:\n");
            if let Some(code) = crate::security::pairing::qr_terminal(&url) {
                println!("{code}");
            }
            println!("{url}\n");
            println!(
                "Anyone with this link can read and answer your agents' questions. \
                 `hark token --rotate` cuts every paired device off."
            );
        }
        None if pairing.lan => {
            println!(
                "Hark listens on the network, but this computer has no address a phone could use."
            );
        }
        None => {
            println!(
                "Hark listens on this computer only. To answer from your phone, restart it with \
                 `hark serve --lan` (or set \"lan\": true in config.json)."
            );
        }
    }
    ExitCode::SUCCESS
}

/// Opens the page (or question `id`'s) in this computer's browser, logged in once.
pub async fn open(id: Option<hark_core::model::QuestionId>, port: Option<u16>) -> ExitCode {
    let (_, port) = home::for_command(port);
    let client = DaemonClient::local(port);
    let page = id.map_or_else(|| "/".to_string(), |id| format!("/q/{id}"));
    let login = match client.one_time_login().await {
        Ok(login) => login,
        Err(ClientError::Unreachable { .. }) => {
            eprintln!("hark: Hark is not running on port {port}. Start it with `hark serve`.");
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("hark: {error}");
            return ExitCode::FAILURE;
        }
    };
    let url = login.url(client.base(), &page);
    match webbrowser::open(&url) {
        Ok(()) => {
            println!("Opened {}{page} in your browser.", client.base());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hark: cannot open a browser here ({error}); open this link once: {url}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the token, or replaces it: through the running daemon (which also ends the sessions
/// paired with the old one), else in the token file directly.
pub async fn token(rotate: bool, port: Option<u16>) -> ExitCode {
    let (home, port) = home::for_command(port);
    if !rotate {
        return match crate::security::token::read_or_create(&home.join(TOKEN_FILE)) {
            Ok(token) => {
                println!("{token}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!(
                    "hark: cannot read or create the token in {}: {error}",
                    home.display()
                );
                ExitCode::FAILURE
            }
        };
    }
    match DaemonClient::local(port).rotate_token().await {
        Ok(_) => {
            println!("The token was replaced. Every paired device must pair again (`hark url`).");
            ExitCode::SUCCESS
        }
        Err(ClientError::Unreachable { .. }) => {
            if let Err(error) = home::ensure_home(&home) {
                eprintln!("hark: cannot use {}: {error}", home.display());
                return ExitCode::FAILURE;
            }
            match Tokens::new(Some(&home)).rotate() {
                Ok(_) => {
                    println!("The token was replaced (Hark is not running).");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("hark: cannot write the new token: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(error) => {
            eprintln!("hark: {error}");
            ExitCode::FAILURE
        }
    }
}
