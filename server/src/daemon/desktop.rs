//! What the daemon does on this desktop when a question arrives and no page is open to show it:
//! a desktop notification and opening the browser on the question, each as the config says.
//! Where the platform cannot (no notification service, no browser), it logs and carries on.

use crate::security::access::Access;
use hark_core::model::Event;
use hark_core::store::Store;
use hark_text::t_in;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

/// One browser opening covers a burst of questions: the page it opens shows them all.
const REOPEN_AFTER: Duration = Duration::from_secs(30);

/// Watches the store's events for the daemon's lifetime.
pub fn watch(store: Store, port: u16, access: Arc<Access>) {
    tokio::spawn(async move {
        let mut events = store.subscribe();
        let mut last_opened: Option<Instant> = None;
        loop {
            let event = tokio::select! {
                event = events.recv() => event,
                () = store.shutdown_token().cancelled() => return,
            };
            let event = match event {
                Ok(event) => event,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            let Event::QuestionCreated(question) = &*event else {
                continue;
            };
            if store.browser_clients() > 0 {
                tracing::info!(id = %question.id, "no browser opened: a page is open to show it");
                continue;
            }
            let config = store.config();
            if config.notification {
                // One short plain line: a notification shows no Markdown and little text.
                let body =
                    hark_text::plain::cut_chars(&hark_text::question::headline(question), 140);
                let lang = hark_text::negotiate::daemon_lang(&config);
                let summary = t_in(lang, "attention-notification-title", &[("count", 1.into())]);
                tokio::task::spawn_blocking(move || notify(&summary, &body));
            }
            let recently = last_opened.is_some_and(|at| at.elapsed() < REOPEN_AFTER);
            if !config.auto_open_browser {
                tracing::info!(id = %question.id, "no browser opened: autoOpenBrowser is off");
            } else if recently {
                tracing::info!(id = %question.id, "no browser opened: the page opened moments ago shows it");
            } else {
                last_opened = Some(Instant::now());
                let url = page_url(&access, port, &format!("/q/{}", question.id));
                tokio::task::spawn_blocking(move || open_page(&url));
            }
        }
    });
}

fn notify(summary: &str, body: &str) {
    tracing::info!(%summary, "desktop notification");
    if let Err(error) = show_notification(summary, body) {
        tracing::info!(%error, "no desktop notification: the platform offers none here");
    }
}

/// D-Bus on Linux, a toast on Windows (`notify-rust`).
#[cfg(not(target_os = "macos"))]
fn show_notification(summary: &str, body: &str) -> Result<(), String> {
    notify_rust::Notification::new()
        .appname("Hark")
        .summary(summary)
        .body(body)
        .show()
        .map(drop)
        .map_err(|error| error.to_string())
}

/// Notification Center through `osascript`, on every Mac: `notify-rust`'s macOS backend
/// compiles Objective-C against Apple's frameworks, which only a Mac has, so Hark could not be
/// built for macOS anywhere else. The texts go as arguments, never into the script's source.
#[cfg(target_os = "macos")]
fn show_notification(summary: &str, body: &str) -> Result<(), String> {
    let status = std::process::Command::new("osascript")
        .args([
            "-e",
            "on run argv",
            "-e",
            "display notification (item 2 of argv) with title (item 1 of argv)",
            "-e",
            "end run",
            summary,
            body,
        ])
        .status()
        .map_err(|error| error.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("osascript ended with {status}"))
    }
}

/// The address of `page` on this daemon with a one-time login in it (`security::login`), so the
/// browser gets in even where the daemon asks this machine for the token.
pub fn page_url(access: &Access, port: u16, page: &str) -> String {
    let base = format!("http://127.0.0.1:{port}");
    match access.logins.mint_login() {
        Ok(login) => login.url(&base, page),
        Err(error) => {
            tracing::warn!(%error, "no one-time login for the page opened");
            format!("{base}{page}")
        }
    }
}

/// Opens `url` in the person's browser, logging where it cannot.
pub fn open_page(url: &str) {
    match webbrowser::open(url) {
        Ok(()) => tracing::info!(
            page = crate::security::redact::page(url),
            "opened the browser on a new question"
        ),
        Err(error) => tracing::info!(%error, "could not open a browser; carrying on"),
    }
}
