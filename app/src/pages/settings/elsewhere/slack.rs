//! Slack's part of "Notify me elsewhere" (SPEC §17): the bot token and the app-level token
//! (both checked with Slack before they are kept), the pairing code to send the app in a direct
//! message, whether the Socket Mode link is open and a person paired, and unpairing. Plain
//! forms: it works without JavaScript.

use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::slack::SlackReport;
use leptos::prelude::*;

/// Checks the tokens (or the saved ones, for empty fields), keeps them, turns Slack on and
/// makes a new pairing code.
#[server(prefix = "/fn")]
pub async fn connect_slack(
    #[server(default)] bot_token: String,
    #[server(default)] app_token: String,
) -> Result<SlackReport, Failure> {
    use hark_core::model::channels::slack::SlackSetup;
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let given = |token: String| Some(token.trim().to_string()).filter(|token| !token.is_empty());
    let refuse = |failure| crate::failure::refuse::<ConnectSlack>("/settings", failure);
    let setup = serde_json::to_value(SlackSetup {
        bot_token: given(bot_token),
        app_token: given(app_token),
    })
    .unwrap_or_default();
    let channel = hark_core::model::ChannelName::Slack;
    let answered = desk
        .act(channel, "setup", setup)
        .await
        .map_err(|refusal| refuse(Failure::ChannelRefused { channel, refusal }))?;
    let report: SlackReport = serde_json::from_value(answered).map_err(|error| {
        refuse(Failure::Unavailable {
            reason: error.to_string(),
        })
    })?;
    leptos_axum::redirect("/settings#slack-heading");
    Ok(report)
}

/// Forgets the paired person.
#[server(prefix = "/fn")]
pub async fn unpair_slack() -> Result<(), Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(
        hark_core::model::ChannelName::Slack,
        "unpair",
        serde_json::json!({}),
    )
    .await
    .map_err(|_| crate::failure::refuse::<UnpairSlack>("/settings", Failure::SaveFailed))?;
    leptos_axum::redirect("/settings#slack-heading");
    Ok(())
}

/// The app's part of the section, as last loaded; the section loads again after each form.
#[component]
pub fn SlackPart(
    report: SlackReport,
    connect: ServerAction<ConnectSlack>,
    unpair: ServerAction<UnpairSlack>,
) -> impl IntoView {
    let problem = move || match (connect.value().get(), unpair.value().get()) {
        (Some(Err(failure)), _) | (_, Some(Err(failure))) => Some(refusal_text(&failure)),
        _ => None,
    };
    let SlackReport {
        token,
        bot,
        team,
        connected,
        paired,
        pairing,
        ..
    } = report;
    let bot_line = bot.map(|bot| {
        let team = team.unwrap_or_default();
        view! {
            <p data-testid="slack-bot">
                {move || t_args("elsewhere-slack-bot", &[("bot", bot.clone().into()), ("team", team.clone().into())])}
            </p>
        }
    });
    let pairing_view = pairing.map(|pairing| {
        let command = format!("pair {}", pairing.code);
        view! {
            <div class="pairing-code">
                <p>{tr("elsewhere-slack-code")}</p>
                <p><code data-testid="slack-code">{command}</code></p>
            </div>
        }
    });
    view! {
        <fieldset class="slack">
            <legend id="slack-heading">{tr("elsewhere-slack")}</legend>
            <p class="help">{tr("elsewhere-slack-help")}</p>
            {bot_line}
            {token.then(|| view! {
                <p data-testid="slack-connected" class=if connected { "status" } else { "status muted" }>
                    {if connected { tr("elsewhere-slack-connected") } else { tr("elsewhere-slack-not-connected") }}
                </p>
            })}
            <p data-testid="slack-paired" class=if paired { "status" } else { "status muted" }>
                {if paired { tr("elsewhere-slack-paired") } else { tr("elsewhere-slack-not-paired") }}
            </p>
            {pairing_view}
            <ActionForm action=connect>
                <div class="field">
                    <label for="slack-bot-token">{tr("elsewhere-slack-bot-token")}</label>
                    <input id="slack-bot-token" name="bot_token" type="password" autocomplete="off" placeholder="xoxb-…" value="" />
                </div>
                <div class="field">
                    <label for="slack-app-token">{tr("elsewhere-slack-app-token")}</label>
                    <input id="slack-app-token" name="app_token" type="password" autocomplete="off" placeholder="xapp-…" value="" />
                    <p class="help">{tr("elsewhere-slack-token-help")}</p>
                    {token.then(|| view! { <p class="help" data-testid="slack-token-set">{tr("elsewhere-slack-token-set")}</p> })}
                </div>
                <div class="actions">
                    <button type="submit" class="secondary" data-testid="slack-connect">{tr("elsewhere-slack-connect")}</button>
                </div>
            </ActionForm>
            {paired.then(|| view! {
                <ActionForm action=unpair>
                    <button type="submit" class="secondary" data-testid="slack-unpair">{tr("elsewhere-slack-unpair")}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid="slack-problem">{problem}</p>
        </fieldset>
    }
}

/// A failure of the app's forms in the person's language: Slack's own refusals in their words,
/// any other as it says itself.
fn refusal_text(failure: &Failure) -> String {
    use hark_core::model::channels::slack::SlackRefusal;
    let Failure::ChannelRefused { refusal, .. } = failure else {
        return failure.text();
    };
    let refusal = refusal
        .refusal
        .as_deref()
        .and_then(|refusal| serde_json::from_value::<SlackRefusal>(refusal.clone()).ok());
    match refusal {
        Some(SlackRefusal::BotTokenShape) => t("elsewhere-slack-bot-token-shape"),
        Some(SlackRefusal::AppTokenShape) => t("elsewhere-slack-app-token-shape"),
        Some(SlackRefusal::WrongBotToken) => t("elsewhere-slack-wrong-bot-token"),
        Some(SlackRefusal::WrongAppToken) => t("elsewhere-slack-wrong-app-token"),
        Some(SlackRefusal::NoToken) => t("elsewhere-slack-no-token"),
        Some(SlackRefusal::Unreachable { reason }) => {
            t_args("elsewhere-slack-unreachable", &[("reason", reason.into())])
        }
        Some(SlackRefusal::SaveFailed) => t("settings-save-failed"),
        None => failure.text(),
    }
}
