//! Getting the person's attention while the tab is hidden: the title flashes the pending count,
//! a browser notification shows when permitted, and a short chime plays when `sound` is on.
//! `question:remind` repeats them; an agent that finishes its turn or waits in its own dialog
//! (as `notifyOn` says) is a notification and a chime too. Permission is only ever asked on a click. The browser's side
//! is in `browser` (its headless twin on the server does nothing: nothing here runs there).

use crate::i18n::{t_args, tr};
use crate::live::{Live, LiveQuestion, PageEvent};
use hark_core::model::{AgentSession, Event, SessionNotice};
use leptos::prelude::*;

#[cfg_attr(not(feature = "hydrate"), path = "attention/headless.rs")]
mod browser;

/// Whether the browser may show notifications: asked, granted, or not offered at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    Unsupported,
    Default,
    Granted,
    Denied,
}

/// The page's current notification permission (`Unsupported` on the server).
pub fn permission() -> Permission {
    browser::permission()
}

/// Asks for notification permission; call only from a click.
pub fn request_permission(done: impl Fn(Permission) + 'static) {
    browser::request_permission(done)
}

/// Reacts to one event from the daemon, before it is applied to the live state.
pub fn on_event(live: Live, event: &PageEvent) {
    let arrived: Vec<LiveQuestion> = match event {
        Event::QuestionCreated(question) => vec![question.clone()],
        Event::SessionUpdated(session) => return on_session(live, session),
        Event::QuestionRemind(remind) => live.questions.with_untracked(|questions| {
            questions
                .iter()
                .flatten()
                .filter(|question| remind.ids.contains(&question.id) && question.is_pending())
                .cloned()
                .collect()
        }),
        _ => return,
    };
    if arrived.is_empty() || !browser::page_hidden() {
        return;
    }
    let config = live
        .config
        .get_untracked()
        .map(|config| config.into_brief())
        .unwrap_or_default();
    if config.notification && permission() == Permission::Granted {
        notify(&arrived);
    }
    if config.sound {
        browser::chime();
    }
}

/// An agent session that finished or waits, while the tab is hidden: a notification saying who
/// and what it said, and the chime.
fn on_session(live: Live, session: &AgentSession) {
    let config = (live.config.get_untracked())
        .map(|config| config.into_brief())
        .unwrap_or_default();
    let Some(kind) =
        SessionNotice::of(session.state).filter(|kind| config.notify_on.contains(kind))
    else {
        return;
    };
    if !browser::page_hidden() {
        return;
    }
    if config.notification && permission() == Permission::Granted {
        let agent = session.agent.label();
        let title = match kind {
            SessionNotice::Finished => {
                t_args("session-notice-finished", &[("agent", agent.into())])
            }
            SessionNotice::Waiting => t_args("session-notice-waiting", &[("agent", agent.into())]),
        };
        browser::notify(&title, session.last_message.as_deref().unwrap_or_default());
    }
    if config.sound {
        browser::chime();
    }
}

fn notify(arrived: &[LiveQuestion]) {
    let body = arrived
        .iter()
        .map(|question| question.headline.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let title = t_args(
        "attention-notification-title",
        &[("count", arrived.len().into())],
    );
    browser::notify(&title, &body);
}

/// The tab's title now: the pending count, flashing, while the tab is hidden with questions
/// waiting (`flash_on` alternates each tick), else the app's name.
fn title_now(live: Live, flash_on: &mut bool) -> String {
    let pending = live.questions.with_untracked(|questions| {
        questions
            .iter()
            .flatten()
            .filter(|question| question.is_pending())
            .count()
    });
    let flashing = pending > 0 && browser::page_hidden();
    *flash_on = flashing && !*flash_on;
    if *flash_on {
        t_args("attention-title", &[("count", pending.into())])
    } else {
        crate::i18n::t("app-title")
    }
}

/// Flashes the pending count in the tab's title while the tab is hidden.
pub fn flash_title(live: Live) {
    browser::every_second(move |flash_on| browser::set_title(&title_now(live, flash_on)));
}

/// "Turn on notifications", shown while the browser has not been asked yet.
#[component]
pub fn NotificationSwitch() -> impl IntoView {
    let state = RwSignal::new(Permission::Unsupported);
    // Read after hydration, so the server's HTML (which cannot know) and the page agree.
    Effect::new(move |_| state.set(permission()));
    // A closure, not `<Show>`: that one's children are a boxed view, whose code the first
    // view's WebAssembly carried for this button alone (8 KiB with the history's, measured).
    move || {
        (state.get() == Permission::Default).then(|| {
            view! {
                <button
                    type="button"
                    class="secondary notify-switch"
                    on:click=move |_| request_permission(move |now| state.set(now))
                >
                    {tr("attention-enable-notifications")}
                </button>
            }
        })
    }
}
