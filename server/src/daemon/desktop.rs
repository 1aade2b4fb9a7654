//! What the daemon does on this desktop when a question arrives and no page is open to show it:
//! a desktop notification, whose click opens the question's page (Linux, Windows; one for a
//! burst of questions, counting them), and opening the browser on the question, each as the
//! config says; and when an agent finishes its turn or waits
//! in its own dialog (`notifyOn`, SPEC §20), a notification with what it said last, whose click
//! opens the Agents page. Pages open with a one-time login
//! (`security::login`). Where the platform cannot (no notification service, no browser), it logs
//! and carries on.

use crate::security::access::Access;
use hark_core::model::{AgentSession, Event, Question, QuestionId};
use hark_core::store::Store;
use hark_text::t_in;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

/// One browser opening covers a burst of questions: the page it opens shows them all.
const REOPEN_AFTER: Duration = Duration::from_secs(30);

/// New questions' notifications at most this often: the first of a burst at once, the rest
/// counted into one. A burst of notifications helps nobody, and a thread and a D-Bus call for
/// each question slowed the daemon under load.
const NOTIFY_EVERY: Duration = Duration::from_secs(2);

/// Watches the store's events for the daemon's lifetime.
pub fn watch(store: Store, port: u16, access: Arc<Access>) {
    tokio::spawn(async move {
        let mut events = store.subscribe();
        let mut last_opened: Option<Instant> = None;
        let mut notices = QuestionNotices::default();
        loop {
            let due = notices.due();
            let event = tokio::select! {
                event = events.recv() => event,
                () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                    notices.show_held(&store, port, &access).await;
                    continue;
                }
                () = store.shutdown_token().cancelled() => return,
            };
            let event = match event {
                Ok(event) => event,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            let question = match &*event {
                Event::QuestionCreated(question) => question,
                Event::SessionUpdated(session) => {
                    notify_session(&store, session, port, &access);
                    continue;
                }
                _ => continue,
            };
            if store.browser_clients() > 0 {
                tracing::info!(id = %question.id, "no browser opened: a page is open to show it");
                continue;
            }
            let config = store.config();
            if config.notification {
                notices.arrived(question, &store, port, &access);
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

/// New questions' notifications, one per `NOTIFY_EVERY` at most.
#[derive(Default)]
struct QuestionNotices {
    shown_at: Option<Instant>,
    /// Questions that arrived since, oldest first: shown together when `due`.
    held: Vec<QuestionId>,
}

impl QuestionNotices {
    /// When the held questions are to be shown.
    fn due(&self) -> Option<Instant> {
        let shown_at = self.shown_at?;
        (!self.held.is_empty()).then(|| shown_at + NOTIFY_EVERY)
    }

    /// A question arrived with no page open: shown now, or held if one was shown moments ago.
    fn arrived(&mut self, question: &Question, store: &Store, port: u16, access: &Arc<Access>) {
        if self.shown_at.is_some_and(|at| at.elapsed() < NOTIFY_EVERY) {
            self.held.push(question.id);
            return;
        }
        self.shown_at = Some(Instant::now());
        notify_questions(store, &[question], port, access);
    }

    /// Shows the held questions that are still open, in one notification, unless a page opened
    /// meanwhile or notifications were turned off.
    async fn show_held(&mut self, store: &Store, port: u16, access: &Arc<Access>) {
        let held = std::mem::take(&mut self.held);
        if store.browser_clients() > 0 || !store.config().notification {
            return;
        }
        let mut open = Vec::with_capacity(held.len());
        for id in held {
            open.extend(store.get(id).await.filter(Question::is_pending));
        }
        if open.is_empty() {
            return;
        }
        self.shown_at = Some(Instant::now());
        notify_questions(store, &open.iter().collect::<Vec<_>>(), port, access);
    }
}

/// One notification of `questions` (the newest last): the newest's headline, and a click that
/// opens it, or the inbox when there are several.
fn notify_questions(store: &Store, questions: &[&Question], port: u16, access: &Arc<Access>) {
    let (Some(newest), count) = (questions.last(), questions.len()) else {
        return;
    };
    let lang = hark_text::negotiate::daemon_lang(&store.config());
    // One short plain line: a notification shows no Markdown and little text.
    let body = hark_text::plain::cut_chars(&hark_text::question::headline(newest), 140);
    let (open_label, path) = if count == 1 {
        let path = format!("/q/{}", newest.id);
        (t_in(lang, "attention-notification-open", &[]), path)
    } else {
        let label = t_in(lang, "attention-notification-open-all", &[]);
        (label, "/".to_string())
    };
    let notification = Notification {
        summary: t_in(
            lang,
            "attention-notification-title",
            &[("count", count.into())],
        ),
        body,
        open_label,
    };
    let page = Page {
        access: access.clone(),
        port,
        path,
    };
    notify(notification, page);
}

/// A notification of an agent that finished or waits, when the config asks for one and no page
/// is open to show it.
fn notify_session(store: &Store, session: &AgentSession, port: u16, access: &Arc<Access>) {
    let config = store.config();
    if !config.notification || store.browser_clients() > 0 {
        return;
    }
    let lang = hark_text::negotiate::daemon_lang(&config);
    let Some(notice) = hark_text::session::notice(lang, session, &config.notify_on) else {
        return;
    };
    let notification = Notification {
        summary: notice.title,
        body: hark_text::plain::cut_chars(notice.said.as_deref().unwrap_or_default(), 140),
        open_label: t_in(lang, "session-notice-open", &[]),
    };
    let page = Page {
        access: access.clone(),
        port,
        path: "/agents".to_string(),
    };
    notify(notification, page);
}

/// What a desktop notification says.
struct Notification {
    summary: String,
    body: String,
    /// The name of clicking it (screen readers read it; most desktops show none). Unused on
    /// macOS, where a notification cannot be given a click action.
    #[cfg_attr(target_os = "macos", allow(dead_code))]
    open_label: String,
}

/// The page a click on a notification opens, with a one-time login minted at the click.
struct Page {
    access: Arc<Access>,
    port: u16,
    path: String,
}

impl Page {
    fn open(&self) {
        open_page(&page_url(&self.access, self.port, &self.path));
    }
}

/// Notifications at most whose click is still awaited, each by a thread of its own: a desktop
/// that keeps notifications until dismissed would otherwise collect threads. Past it, a
/// notification is shown without a click action.
const CLICKS_AWAITED: usize = 16;
static AWAITING_CLICK: AtomicUsize = AtomicUsize::new(0);

/// Shows the notification on a thread of its own (not the runtime's blocking pool, which a
/// stopping daemon would wait for), which then waits for a click to open the page.
fn notify(notification: Notification, page: Page) {
    tracing::info!(summary = %notification.summary, "desktop notification");
    let awaiting = AWAITING_CLICK.fetch_add(1, Ordering::AcqRel) < CLICKS_AWAITED;
    let spawned = std::thread::Builder::new()
        .name("notification".into())
        .spawn(move || {
            let clicked = show_notification(&notification, awaiting);
            AWAITING_CLICK.fetch_sub(1, Ordering::AcqRel);
            match clicked {
                Ok(true) => page.open(),
                Ok(false) => {}
                Err(error) => {
                    tracing::info!(%error, "no desktop notification: the platform offers none here");
                }
            }
        });
    if let Err(error) = spawned {
        AWAITING_CLICK.fetch_sub(1, Ordering::AcqRel);
        tracing::warn!(%error, "no desktop notification: no thread for it");
    }
}

/// D-Bus on Linux, a toast on Windows (`notify-rust`). With `await_click`, waits until the
/// notification is clicked (`Ok(true)`) or closed (`Ok(false)`).
#[cfg(not(target_os = "macos"))]
fn show_notification(notification: &Notification, await_click: bool) -> Result<bool, String> {
    let mut shown = notify_rust::Notification::new();
    shown
        .appname("Hark")
        .summary(&notification.summary)
        .body(&notification.body);
    if await_click {
        // The "default" action is a click on the notification itself (the XDG spec's name).
        shown.action("default", &notification.open_label);
    }
    let handle = shown.show().map_err(|error| error.to_string())?;
    if !await_click {
        return Ok(false);
    }
    let mut clicked = false;
    let waited = handle.wait_for_response(|response: &notify_rust::NotificationResponse| {
        // Windows shows the "default" action as a button too; a click on it counts.
        clicked = match response {
            notify_rust::NotificationResponse::Default => true,
            notify_rust::NotificationResponse::Action(action) => action == "default",
            _ => false,
        };
    });
    if let Err(error) = waited {
        tracing::debug!(%error, "stopped waiting for a click on the notification");
    }
    Ok(clicked)
}

/// Notification Center through `osascript`, on every Mac: `notify-rust`'s macOS backend
/// compiles Objective-C against Apple's frameworks, which only a Mac has, so Hark could not be
/// built for macOS anywhere else. The texts go as arguments, never into the script's source.
/// A click on it opens Script Editor, not the page: `osascript` cannot be told otherwise.
#[cfg(target_os = "macos")]
fn show_notification(notification: &Notification, _await_click: bool) -> Result<bool, String> {
    let status = std::process::Command::new("osascript")
        .args([
            "-e",
            "on run argv",
            "-e",
            "display notification (item 2 of argv) with title (item 1 of argv)",
            "-e",
            "end run",
            &notification.summary,
            &notification.body,
        ])
        .status()
        .map_err(|error| error.to_string())?;
    if status.success() {
        Ok(false)
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
