//! `/settings`: the daemon's config (SPEC §7) through server functions, validated per key and
//! applied live to every open page (`config:updated`).

// `save_settings` takes one argument per form field, which is how a server function decodes a
// plain HTML form; the macro's generated code inherits the count.
#![allow(clippy::too_many_arguments)]

pub mod elsewhere;
pub mod phone;
pub mod presets;
pub mod rules;

/// A textarea's text as its child. Leptos writes a textarea's children into the server's HTML
/// unescaped (as it does a script's), where `</textarea>` in a preset would end the box and
/// turn what follows into live markup; so there `&` and `<` are written as entities, which the
/// browser reads back as they were. In the browser children become text nodes, safe as they are.
pub fn textarea_text(text: &str) -> String {
    if cfg!(feature = "ssr") {
        text.replace('&', "&amp;").replace('<', "&lt;")
    } else {
        text.to_string()
    }
}

use crate::components::failure_notice::FailureNotice;
use crate::components::prefs_picker::PrefsPicker;
use crate::failure::Failure;
use crate::i18n::{t, tr};
use crate::live::{Live, LiveConfig};
use elsewhere::Elsewhere;
use hark_core::model::{Config, Elicitation, SessionNotice};
use leptos::prelude::*;
use phone::PhonePairing;
use presets::QuickReplies;

/// The current config.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn get_config() -> Result<Config, Failure> {
    Ok(expect_context::<hark_core::store::Store>().config())
}

/// Saves the settings form. An error carries the Fluent key explaining the offending field, so
/// the page can say what is wrong in the person's language.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn save_settings(
    timeout_secs: String,
    remind_secs: String,
    #[server(default)] typing_grace_secs: String,
    #[server(default)] notification: Option<String>,
    #[server(default)] auto_open_browser: Option<String>,
    #[server(default)] sound: Option<String>,
    #[server(default)] lan: Option<String>,
    #[server(default)] elicitation: Option<String>,
    port: String,
    orphan_secs: String,
    #[server(default)] late_secs: String,
    #[server(default)] continue_wait_secs: String,
    #[server(default)] session_idle_secs: String,
    #[server(default)] notify_waiting: Option<String>,
    #[server(default)] notify_finished: Option<String>,
    history_days: String,
    history_max: String,
) -> Result<(), Failure> {
    let invalid = |key: &str| {
        crate::failure::refuse::<SaveSettings>(
            "/settings",
            Failure::InvalidSetting {
                key: hark_core::model::SettingKey::of_field(key),
            },
        )
    };
    let number = |key: &str, text: &str| -> Result<serde_json::Value, Failure> {
        text.trim()
            .parse::<u64>()
            .map(serde_json::Value::from)
            .map_err(|_| invalid(key))
    };
    let notify_on: Vec<&str> = [
        notify_waiting.is_some().then_some("waiting"),
        notify_finished.is_some().then_some("finished"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let patch = serde_json::json!({
        "timeoutSecs": number("timeoutSecs", &timeout_secs)?,
        "remindSecs": number("remindSecs", &remind_secs)?,
        "typingGraceSecs": number("typingGraceSecs", &typing_grace_secs)?,
        "notification": notification.is_some(),
        "autoOpenBrowser": auto_open_browser.is_some(),
        "sound": sound.is_some(),
        "lan": lan.is_some(),
        "elicitation": if elicitation.is_some() { "race" } else { "off" },
        "port": number("port", &port)?,
        "orphanSecs": number("orphanSecs", &orphan_secs)?,
        "lateSecs": number("lateSecs", &late_secs)?,
        "continueWaitSecs": number("continueWaitSecs", &continue_wait_secs)?,
        "sessionIdleSecs": number("sessionIdleSecs", &session_idle_secs)?,
        "notifyOn": notify_on,
        "historyDays": number("historyDays", &history_days)?,
        "historyMax": number("historyMax", &history_max)?,
    });
    let store = expect_context::<hark_core::store::Store>();
    match store.update_config(&patch).await {
        Ok(_) => {
            leptos_axum::redirect("/settings");
            Ok(())
        }
        Err(hark_core::store::StoreError::Invalid(body)) => {
            Err(invalid(body.field.as_deref().unwrap_or_default()))
        }
        Err(other) => Err(crate::failure::refuse::<SaveSettings>(
            "/settings",
            other.into(),
        )),
    }
}

/// The settings page; a lazy island (its code loads with the page that holds it).
#[island(lazy)]
pub fn SettingsPage() -> impl IntoView {
    let live = Live::expect();
    let rendered = crate::json::resource(|| (), |_| get_config());
    let save = ServerAction::<SaveSettings>::new();
    let problem = move || match save.value().get() {
        Some(Err(error)) => Some(error.text()),
        _ => None,
    };
    let saved = move || matches!(save.value().get(), Some(Ok(())));
    view! {
        <section class="panel settings" aria-labelledby="settings-heading">
            <h1 id="settings-heading">{tr("settings-heading")}</h1>
            <Suspense fallback=|| view! { <p class="muted">{tr("home-loading")}</p> }>
                {move || {
                    rendered
                        .get()
                        .map(|loaded| match loaded {
                            Ok(initial) => {
                            // Follows changes saved from any page, here or elsewhere.
                            // Attributes carry the values into the server's HTML (so the form
                            // works without JavaScript); properties keep them live afterwards.
                            let first = initial.clone();
                            let config = Memo::new(move |_| {
                                live.config
                                    .with(|config| config.as_ref().and_then(LiveConfig::whole))
                                    .unwrap_or_else(|| initial.clone())
                            });
                            view! {
                                <ActionForm action=save>
                                    <NumberField
                                        id="timeout-secs"
                                        name="timeout_secs"
                                        label="settings-timeout"
                                        help="settings-timeout-help"
                                        initial=first.timeout_secs
                                        value=Signal::derive(move || config.get().timeout_secs)
                                    />
                                    <NumberField
                                        id="remind-secs"
                                        name="remind_secs"
                                        label="settings-remind"
                                        help="settings-remind-help"
                                        initial=first.remind_secs
                                        value=Signal::derive(move || config.get().remind_secs)
                                    />
                                    <NumberField
                                        id="typing-grace-secs"
                                        name="typing_grace_secs"
                                        label="settings-typing-grace"
                                        help="settings-typing-grace-help"
                                        initial=first.typing_grace_secs
                                        value=Signal::derive(move || config.get().typing_grace_secs)
                                    />
                                    <NumberField
                                        id="port"
                                        name="port"
                                        label="settings-port"
                                        help="settings-port-help"
                                        initial=u64::from(first.port)
                                        value=Signal::derive(move || u64::from(config.get().port))
                                    />
                                    <NumberField
                                        id="orphan-secs"
                                        name="orphan_secs"
                                        label="settings-orphan"
                                        help="settings-orphan-help"
                                        initial=first.orphan_secs
                                        value=Signal::derive(move || config.get().orphan_secs)
                                    />
                                    <NumberField
                                        id="late-secs"
                                        name="late_secs"
                                        label="settings-late"
                                        help="settings-late-help"
                                        initial=first.late_secs
                                        value=Signal::derive(move || config.get().late_secs)
                                    />
                                    <NumberField
                                        id="continue-wait-secs"
                                        name="continue_wait_secs"
                                        label="settings-continue-wait"
                                        help="settings-continue-wait-help"
                                        initial=first.continue_wait_secs
                                        value=Signal::derive(move || config.get().continue_wait_secs)
                                    />
                                    <NumberField
                                        id="session-idle-secs"
                                        name="session_idle_secs"
                                        label="settings-session-idle"
                                        help="settings-session-idle-help"
                                        initial=first.session_idle_secs
                                        value=Signal::derive(move || config.get().session_idle_secs)
                                    />
                                    <NumberField
                                        id="history-days"
                                        name="history_days"
                                        label="settings-history-days"
                                        help="settings-history-days-help"
                                        initial=first.history_days
                                        value=Signal::derive(move || config.get().history_days)
                                    />
                                    <NumberField
                                        id="history-max"
                                        name="history_max"
                                        label="settings-history-max"
                                        help="settings-history-max-help"
                                        initial=first.history_max
                                        value=Signal::derive(move || config.get().history_max)
                                    />
                                    <ToggleField
                                        name="notification"
                                        label="settings-notification"
                                        initial=first.notification
                                        value=Signal::derive(move || config.get().notification)
                                    />
                                    <ToggleField
                                        name="notify_waiting"
                                        label="settings-notify-waiting"
                                        initial=first.notify_on.contains(&SessionNotice::Waiting)
                                        value=Signal::derive(move || config.get().notify_on.contains(&SessionNotice::Waiting))
                                    />
                                    <ToggleField
                                        name="notify_finished"
                                        label="settings-notify-finished"
                                        initial=first.notify_on.contains(&SessionNotice::Finished)
                                        value=Signal::derive(move || config.get().notify_on.contains(&SessionNotice::Finished))
                                    />
                                    <ToggleField
                                        name="auto_open_browser"
                                        label="settings-auto-open"
                                        initial=first.auto_open_browser
                                        value=Signal::derive(move || config.get().auto_open_browser)
                                    />
                                    <ToggleField
                                        name="sound"
                                        label="settings-sound"
                                        initial=first.sound
                                        value=Signal::derive(move || config.get().sound)
                                    />
                                    <ToggleField
                                        name="elicitation"
                                        label="settings-elicitation"
                                        initial=first.elicitation == Elicitation::Race
                                        value=Signal::derive(move || config.get().elicitation == Elicitation::Race)
                                    />
                                    <ToggleField
                                        name="lan"
                                        label="settings-lan"
                                        initial=first.lan
                                        value=Signal::derive(move || config.get().lan)
                                    />
                                    <p class="error" role="alert">{problem}</p>
                                    <p class="saved" role="status">
                                        {move || saved().then(|| t("settings-saved"))}
                                    </p>
                                    <div class="actions">
                                        <button type="submit" class="primary">
                                            {tr("settings-save")}
                                        </button>
                                    </div>
                                </ActionForm>
                            }
                                .into_any()
                            }
                            Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                        })
                }}
            </Suspense>
        </section>
        <section class="panel settings" aria-labelledby="appearance-heading">
            <h2 id="appearance-heading">{tr("settings-appearance-heading")}</h2>
            <p class="help">{tr("settings-appearance-help")}</p>
            <PrefsPicker place="settings" />
        </section>
        <QuickReplies />
        <rules::RememberedDecisions />
        <PhonePairing />
        <Elsewhere />
    }
}

/// A whole-number setting: the attribute carries the server's value into the HTML, the property
/// follows live changes.
#[component]
fn NumberField(
    id: &'static str,
    name: &'static str,
    label: &'static str,
    help: &'static str,
    initial: u64,
    value: Signal<u64>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{move || t(label)}</label>
            <input
                id=id
                name=name
                type="number"
                min="0"
                inputmode="numeric"
                value=initial.to_string()
                prop:value=move || value.get().to_string()
            />
            <p class="help">{move || t(help)}</p>
        </div>
    }
}

/// An on/off setting, with the same attribute-then-property split as `NumberField`.
#[component]
fn ToggleField(
    name: &'static str,
    label: &'static str,
    initial: bool,
    value: Signal<bool>,
) -> impl IntoView {
    view! {
        <label class="toggle">
            <input type="checkbox" name=name checked=initial prop:checked=move || value.get() />
            <span>{move || t(label)}</span>
        </label>
    }
}
