//! "Notify me elsewhere" on the settings page (SPEC §11, §17): each channel's part (the chat
//! apps that pair by a code, `chat_app` with each app's `Part`: `telegram`, `slack`, `feishu`,
//! `discord`; `wechat`, its QR login; the fields of `ntfy` and `webhooks`), the public address
//! their links
//! use, how each channel has fared, and a test button for each, saved as one form. Works as
//! plain forms without JavaScript.

// `save_channels` takes one argument per form field, which is how a server function decodes a
// plain HTML form; the macro's generated code inherits the count.
#![allow(clippy::too_many_arguments)]

mod chat_app;
mod discord;
mod feishu;
mod ntfy;
mod slack;
mod telegram;
mod webhooks;
mod wechat;

use crate::components::failure_notice::FailureNotice;
use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use chat_app::{ChatAppForm, ChatAppPart, Part};
use hark_core::model::{Channels, ChannelsReport};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use wechat::{WechatLogin, WechatPart};

/// The chat apps that pair by a code, in the order settings shows them.
pub static PARTS: [&Part; 4] = [&telegram::PART, &slack::PART, &feishu::PART, &discord::PART];

/// The section's data: the settings, the statuses, and each webhook's secret.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelsView {
    pub channels: Channels,
    pub report: ChannelsReport,
    pub secrets: Vec<(String, String)>,
}

/// Loads the section.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn get_channels() -> Result<ChannelsView, Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let channels = expect_context::<hark_core::store::Store>()
        .config()
        .channels;
    // A secret that cannot be kept is left out (the webhook's status says why).
    let secrets = desk
        .shown_secrets(hark_core::model::ChannelName::Webhook)
        .await
        .unwrap_or_default();
    Ok(ChannelsView {
        channels,
        report: desk.report(),
        secrets,
    })
}

/// Saves the section's form. An empty token field keeps the saved token.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn save_channels(
    #[server(default)] telegram_enabled: Option<String>,
    #[server(default)] forget_telegram_token: Option<String>,
    #[server(default)] wechat_enabled: Option<String>,
    #[server(default)] slack_enabled: Option<String>,
    #[server(default)] forget_slack_tokens: Option<String>,
    #[server(default)] feishu_enabled: Option<String>,
    #[server(default)] forget_feishu_app: Option<String>,
    #[server(default)] discord_enabled: Option<String>,
    #[server(default)] forget_discord_token: Option<String>,
    #[server(default)] ntfy_enabled: Option<String>,
    #[server(default)] ntfy_server: String,
    #[server(default)] ntfy_topic: String,
    #[server(default)] ntfy_token: String,
    #[server(default)] forget_ntfy_token: Option<String>,
    #[server(default)] public_url: String,
    #[server(default)] content_in_push: Option<String>,
    #[server(default)] webhooks: String,
) -> Result<(), Failure> {
    use crate::failure::refuse;
    let store = expect_context::<hark_core::store::Store>();
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    // Built from the config under its lock, so a pairing or an unpairing made meanwhile (the
    // Telegram chat) is kept.
    let make_patch = move |config: &hark_core::model::Config| {
        let current = &config.channels;
        // A webhook kept by address keeps the events it had.
        let webhooks: Vec<serde_json::Value> = webhooks
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|url| {
                let events = current
                    .webhooks
                    .iter()
                    .find(|webhook| webhook.url == url)
                    .map(|webhook| webhook.events.clone());
                match events {
                    Some(events) => serde_json::json!({"url": url, "events": events}),
                    None => serde_json::json!({"url": url}),
                }
            })
            .collect();
        let mut channels = serde_json::to_value(current).unwrap_or_default();
        channels["telegram"]["enabled"] = serde_json::Value::Bool(telegram_enabled.is_some());
        channels["wechat"]["enabled"] = serde_json::Value::Bool(wechat_enabled.is_some());
        channels["slack"]["enabled"] = serde_json::Value::Bool(slack_enabled.is_some());
        channels["feishu"]["enabled"] = serde_json::Value::Bool(feishu_enabled.is_some());
        channels["discord"]["enabled"] = serde_json::Value::Bool(discord_enabled.is_some());
        channels["ntfy"] = serde_json::json!({
            "enabled": ntfy_enabled.is_some(),
            "server": if ntfy_server.trim().is_empty() { "https://ntfy.sh" } else { ntfy_server.trim() },
            "topic": ntfy_topic.trim(),
        });
        channels["publicUrl"] = serde_json::Value::String(public_url.trim().to_string());
        channels["contentInPush"] = serde_json::Value::Bool(content_in_push.is_some());
        channels["webhooks"] = serde_json::Value::Array(webhooks);
        serde_json::json!({ "channels": channels })
    };
    let refuse_here = |failure: Failure| refuse::<SaveChannels>("/settings", failure);
    let saved = store.update_config_with(make_patch).await;
    match saved {
        Ok(_) => {}
        Err(hark_core::store::StoreError::Invalid(body)) => {
            return Err(refuse_here(Failure::InvalidSetting {
                key: body.field.as_deref().map_or(
                    hark_core::model::SettingKey::Channels,
                    hark_core::model::SettingKey::of_field,
                ),
            }));
        }
        Err(other) => return Err(refuse_here(other.into())),
    }
    let token = ntfy_token.trim();
    let token_change = if forget_ntfy_token.is_some() {
        Some(None)
    } else {
        (!token.is_empty()).then(|| Some(token.to_string()))
    };
    if let Some(change) = token_change {
        desk.set_token(hark_core::model::ChannelName::Ntfy, change)
            .await
            .map_err(|_| refuse_here(Failure::SaveFailed))?;
    }
    let forgotten = [
        (
            forget_telegram_token,
            hark_core::model::ChannelName::Telegram,
        ),
        (forget_discord_token, hark_core::model::ChannelName::Discord),
        (forget_feishu_app, hark_core::model::ChannelName::Feishu),
        (forget_slack_tokens, hark_core::model::ChannelName::Slack),
    ];
    for (_, channel) in forgotten.into_iter().filter(|(asked, _)| asked.is_some()) {
        desk.act(
            channel,
            hark_core::model::ChannelAction::Forget,
            serde_json::json!({}),
        )
        .await
        .map_err(|_| refuse_here(Failure::SaveFailed))?;
    }
    leptos_axum::redirect("/settings#elsewhere-heading");
    Ok(())
}

/// Sends a test message on `channel` (`ntfy` or `webhook`).
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn test_channel(channel: String) -> Result<String, Failure> {
    use crate::failure::refuse;
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    // Only a hand-written request names a channel the page does not offer.
    let channel = channel
        .parse::<hark_core::model::ChannelName>()
        .map_err(|details| refuse::<TestChannel>("/settings", Failure::BadRequest { details }))?;
    desk.test(channel)
        .await
        .map_err(|error| refuse::<TestChannel>("/settings", Failure::ChannelTest { error }))
}

/// The section.
#[component]
pub fn Elsewhere() -> impl IntoView {
    let save = ServerAction::<SaveChannels>::new();
    let test = ServerAction::<TestChannel>::new();
    let wechat = ServerAction::<WechatLogin>::new();
    // One for each app's part: each shows what became of its own forms.
    let forms = PARTS.map(|_| ServerAction::<ChatAppForm>::new());
    // Loaded again after each form: the statuses, the secrets and the pairing code follow.
    let loaded = crate::json::resource(
        move || {
            (
                save.version().get(),
                test.version().get(),
                wechat.version().get(),
                forms.map(|form| form.version().get()),
            )
        },
        |_| get_channels(),
    );
    let problem = move || match save.value().get() {
        Some(Err(error)) => Some(error.text()),
        _ => None,
    };
    let saved = move || matches!(save.value().get(), Some(Ok(())));
    let tested = move || match test.value().get() {
        Some(Ok(_)) => Some(t("elsewhere-test-sent")),
        Some(Err(failure)) => Some(failure.text()),
        None => None,
    };
    view! {
        <section class="panel settings elsewhere" aria-labelledby="elsewhere-heading">
            <h2 id="elsewhere-heading">{tr("elsewhere-heading")}</h2>
            <p class="help">{tr("elsewhere-intro")}</p>
            <Suspense fallback=|| ()>
                {move || {
                    loaded
                        .get()
                        .map(|loaded| match loaded {
                            Ok(view) => {
                                let part = |at: usize| {
                                    view! { <ChatAppPart part=PARTS[at] report=view.report.clone() form=forms[at] /> }
                                };
                                let wechat_report = view.report.wechat.clone();
                                view! {
                                    {part(0)}
                                    <WechatPart report=wechat_report form=wechat />
                                    {part(1)}
                                    {part(2)}
                                    {part(3)}
                                    <ChannelsForm view save problem=Signal::derive(problem) saved=Signal::derive(saved) />
                                }
                                    .into_any()
                            }
                            Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                        })
                }}
            </Suspense>
            <div class="channel-tests">
                {[
                    ("telegram", "elsewhere-test-telegram"),
                    ("wechat", "elsewhere-test-wechat"),
                    ("slack", "elsewhere-test-slack"),
                    ("feishu", "elsewhere-test-feishu"),
                    ("discord", "elsewhere-test-discord"),
                    ("ntfy", "elsewhere-test-ntfy"),
                    ("webhook", "elsewhere-test-webhook"),
                ]
                    .into_iter()
                    .map(|(channel, key)| {
                        view! {
                            <ActionForm action=test>
                                <input type="hidden" name="channel" value=channel />
                                <button type="submit" class="secondary" data-testid=format!("test-{channel}")>
                                    {tr(key)}
                                </button>
                            </ActionForm>
                        }
                    })
                    .collect_view()}
            </div>
            <p class="saved" role="status" data-testid="test-result">{tested}</p>
        </section>
    }
}

#[component]
fn ChannelsForm(
    view: ChannelsView,
    save: ServerAction<SaveChannels>,
    problem: Signal<Option<String>>,
    saved: Signal<bool>,
) -> impl IntoView {
    let ChannelsView {
        channels,
        report,
        secrets,
    } = view;
    let statuses = report
        .channels
        .iter()
        .map(|status| {
            let text = match (&status.last_error, status.failing()) {
                (Some(reason), true) => t_args(
                    "elsewhere-status-failing",
                    &[
                        ("target", status.target.clone().into()),
                        ("reason", reason.clone().into()),
                    ],
                ),
                _ => t_args(
                    "elsewhere-status",
                    &[
                        ("target", status.target.clone().into()),
                        ("sent", status.sent.into()),
                        ("failures", status.failures.into()),
                    ],
                ),
            };
            let class = if status.failing() {
                "status failing"
            } else {
                "status"
            };
            view! { <li class=class>{text}</li> }
        })
        .collect_view();
    view! {
        <ActionForm action=save>
            <label class="toggle">
                <input type="checkbox" name="telegram_enabled" checked=channels.telegram.enabled data-testid="telegram-enabled" />
                <span>{tr("elsewhere-telegram-enabled")}</span>
            </label>
            {report.telegram.token.then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="forget_telegram_token" />
                    <span>{tr("elsewhere-telegram-forget")}</span>
                </label>
            })}
            {(report.wechat.paired || channels.wechat.enabled).then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="wechat_enabled" checked=channels.wechat.enabled data-testid="wechat-enabled" />
                    <span>{tr("elsewhere-wechat-enabled")}</span>
                </label>
            })}
            {(report.slack.token || channels.slack.enabled).then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="slack_enabled" checked=channels.slack.enabled data-testid="slack-enabled" />
                    <span>{tr("elsewhere-slack-enabled")}</span>
                </label>
            })}
            {report.slack.token.then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="forget_slack_tokens" />
                    <span>{tr("elsewhere-slack-forget")}</span>
                </label>
            })}
            {(report.feishu.token || channels.feishu.enabled).then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="feishu_enabled" checked=channels.feishu.enabled data-testid="feishu-enabled" />
                    <span>{tr("elsewhere-feishu-enabled")}</span>
                </label>
            })}
            {report.feishu.token.then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="forget_feishu_app" />
                    <span>{tr("elsewhere-feishu-forget")}</span>
                </label>
            })}
            {(report.discord.token || channels.discord.enabled).then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="discord_enabled" checked=channels.discord.enabled data-testid="discord-enabled" />
                    <span>{tr("elsewhere-discord-enabled")}</span>
                </label>
            })}
            {report.discord.token.then(|| view! {
                <label class="toggle">
                    <input type="checkbox" name="forget_discord_token" />
                    <span>{tr("elsewhere-discord-forget")}</span>
                </label>
            })}
            <ntfy::NtfyFields ntfy=channels.ntfy.clone() token_set=report.ntfy_token />
            <div class="field">
                <label for="public-url">{tr("elsewhere-public-url")}</label>
                <input id="public-url" name="public_url" type="url" placeholder="https://desk.tail1234.ts.net" value=channels.public_url.clone().unwrap_or_default() />
                <p class="help">{tr("elsewhere-public-url-help")}</p>
                {(!report.links).then(|| view! {
                    <p class="help warning" data-testid="no-links">{tr("elsewhere-no-links")}</p>
                })}
            </div>
            <label class="toggle">
                <input type="checkbox" name="content_in_push" checked=channels.content_in_push />
                <span>{tr("elsewhere-content")}</span>
            </label>
            <webhooks::WebhookFields webhooks=channels.webhooks.clone() secrets />
            <ul class="statuses" data-testid="channel-statuses">{statuses}</ul>
            <p class="error" role="alert">{problem}</p>
            <p class="saved" role="status">{move || saved.get().then(|| t("settings-saved"))}</p>
            <div class="actions">
                <button type="submit" class="primary">{tr("elsewhere-save")}</button>
            </div>
        </ActionForm>
    }
}
