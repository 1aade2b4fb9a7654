//! The browser's notification, sound, visibility and title calls.

use super::Permission;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

pub fn permission() -> Permission {
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

pub fn request_permission(done: impl Fn(Permission) + 'static) {
    if let Ok(promise) = web_sys::Notification::request_permission() {
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
            done(permission());
        });
    }
}

pub fn page_hidden() -> bool {
    document().hidden()
}

pub fn notify(title: &str, body: &str) {
    let options = web_sys::NotificationOptions::new();
    options.set_body(body);
    options.set_tag("hark");
    let _ = web_sys::Notification::new_with_options(title, &options);
}

/// Two short soft tones through Web Audio; nothing is downloaded.
pub fn chime() {
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

/// Calls `tick` once a second for as long as the page lives, with state it keeps between calls.
pub fn every_second(mut tick: impl FnMut(&mut bool) + 'static) {
    leptos::task::spawn_local(async move {
        let mut state = false;
        loop {
            gloo_timers::future::TimeoutFuture::new(1_000).await;
            tick(&mut state);
        }
    });
}

pub fn set_title(title: &str) {
    if document().title() != title {
        document().set_title(title);
    }
}
