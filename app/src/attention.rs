//! Getting the person's attention while the tab is hidden (browser only): the title flashes the
//! pending count, a browser notification shows when permitted, and a short chime plays when
//! `sound` is on. `question:remind` repeats them. Permission is only ever asked on a click.

use crate::i18n::{t_args, tr};
use crate::live::Live;
use hark_core::model::{Event, Question};
use leptos::prelude::*;

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
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsValue;
        let supported =
            js_sys::Reflect::has(&window(), &JsValue::from_str("Notification")).unwrap_or(false);
        if !supported {
            return Permission::Unsupported;
        }
        match web_sys::Notification::permission() {
            web_sys::NotificationPermission::Granted => Permission::Granted,
            web_sys::NotificationPermission::Denied => Permission::Denied,
            _ => Permission::Default,
        }
    }
    #[cfg(not(feature = "hydrate"))]
    Permission::Unsupported
}

/// Asks for notification permission; call only from a click.
pub fn request_permission(done: impl Fn(Permission) + 'static) {
    #[cfg(feature = "hydrate")]
    if let Ok(promise) = web_sys::Notification::request_permission() {
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
            done(permission());
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = done;
}

/// Reacts to one event from the daemon, before it is applied to the live state.
pub fn on_event(live: Live, event: &Event) {
    let arrived: Vec<Question> = match event {
        Event::QuestionCreated(question) => vec![question.clone()],
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
    if arrived.is_empty() || !page_hidden() {
        return;
    }
    let config = live.config.get_untracked().unwrap_or_default();
    if config.notification && permission() == Permission::Granted {
        notify(&arrived);
    }
    if config.sound {
        chime();
    }
}

fn page_hidden() -> bool {
    #[cfg(feature = "hydrate")]
    return document().hidden();
    #[cfg(not(feature = "hydrate"))]
    false
}

fn notify(arrived: &[Question]) {
    let body = arrived
        .iter()
        .map(crate::words::headline)
        .collect::<Vec<_>>()
        .join("\n");
    let title = t_args(
        "attention-notification-title",
        &[("count", arrived.len().into())],
    );
    #[cfg(feature = "hydrate")]
    {
        let options = web_sys::NotificationOptions::new();
        options.set_body(&body);
        options.set_tag("hark");
        let _ = web_sys::Notification::new_with_options(&title, &options);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (title, body);
}

/// Two short soft tones through Web Audio; nothing is downloaded.
fn chime() {
    #[cfg(feature = "hydrate")]
    {
        let Ok(context) = web_sys::AudioContext::new() else {
            return;
        };
        let now = context.current_time();
        for (index, frequency) in [660.0_f32, 880.0].into_iter().enumerate() {
            let (Ok(oscillator), Ok(gain)) = (context.create_oscillator(), context.create_gain())
            else {
                return;
            };
            let start = now + index as f64 * 0.15;
            oscillator.frequency().set_value(frequency);
            gain.gain().set_value(0.0);
            let _ = gain.gain().linear_ramp_to_value_at_time(0.15, start + 0.02);
            let _ = gain.gain().linear_ramp_to_value_at_time(0.0, start + 0.25);
            let _ = oscillator.connect_with_audio_node(&gain);
            let _ = gain.connect_with_audio_node(&context.destination());
            let _ = oscillator.start_with_when(start);
            let _ = oscillator.stop_with_when(start + 0.3);
        }
    }
}

/// Flashes the pending count in the tab's title while the tab is hidden.
pub fn flash_title(live: Live) {
    #[cfg(feature = "hydrate")]
    leptos::task::spawn_local(async move {
        let mut on = false;
        loop {
            gloo_timers::future::TimeoutFuture::new(1_000).await;
            let pending = live.questions.with_untracked(|questions| {
                questions
                    .iter()
                    .flatten()
                    .filter(|question| question.is_pending())
                    .count()
            });
            let flashing = pending > 0 && page_hidden();
            on = flashing && !on;
            let title = if on {
                t_args("attention-title", &[("count", pending.into())])
            } else {
                crate::i18n::t("app-title")
            };
            if document().title() != title {
                document().set_title(&title);
            }
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = live;
}

/// "Turn on notifications", shown while the browser has not been asked yet.
#[component]
pub fn NotificationSwitch() -> impl IntoView {
    let state = RwSignal::new(Permission::Unsupported);
    // Read after hydration, so the server's HTML (which cannot know) and the page agree.
    Effect::new(move |_| state.set(permission()));
    view! {
        <Show when=move || state.get() == Permission::Default>
            <button
                type="button"
                class="secondary notify-switch"
                on:click=move |_| request_permission(move |now| state.set(now))
            >
                {tr("attention-enable-notifications")}
            </button>
        </Show>
    }
}
