//! Discord's part of "Notify me elsewhere" (SPEC §17): the bot token (checked with Discord
//! before it is kept), the pairing code to send the bot in a direct message, whether the Gateway
//! is connected and a person paired, and unpairing. Plain forms: it works without JavaScript.

use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::discord::DiscordReport;
use leptos::prelude::*;

/// Checks the token (or the saved one, for an empty field), keeps it, turns Discord on and
/// makes a new pairing code.
#[server(prefix = "/fn")]
pub async fn connect_discord(
    #[server(default)] bot_token: String,
) -> Result<DiscordReport, Failure> {
    use hark_core::model::channels::discord::DiscordSetup;
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let given = |token: String| Some(token.trim().to_string()).filter(|token| !token.is_empty());
    let refuse = |failure| crate::failure::refuse::<ConnectDiscord>("/settings", failure);
    let setup = serde_json::to_value(DiscordSetup {
        bot_token: given(bot_token),
    })
    .unwrap_or_default();
    let channel = hark_core::model::ChannelName::Discord;
    let answered = desk
        .act(channel, "setup", setup)
        .await
        .map_err(|refusal| refuse(Failure::ChannelRefused { channel, refusal }))?;
    let report: DiscordReport = serde_json::from_value(answered).map_err(|error| {
        refuse(Failure::Unavailable {
            reason: error.to_string(),
        })
    })?;
    leptos_axum::redirect("/settings#discord-heading");
    Ok(report)
}

/// Forgets the paired person.
#[server(prefix = "/fn")]
pub async fn unpair_discord() -> Result<(), Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(
        hark_core::model::ChannelName::Discord,
        "unpair",
        serde_json::json!({}),
    )
    .await
    .map_err(|_| crate::failure::refuse::<UnpairDiscord>("/settings", Failure::SaveFailed))?;
    leptos_axum::redirect("/settings#discord-heading");
    Ok(())
}

/// The bot's part of the section, as last loaded; the section loads again after each form.
#[component]
pub fn DiscordPart(
    report: DiscordReport,
    connect: ServerAction<ConnectDiscord>,
    unpair: ServerAction<UnpairDiscord>,
) -> impl IntoView {
    let problem = move || match (connect.value().get(), unpair.value().get()) {
        (Some(Err(failure)), _) | (_, Some(Err(failure))) => Some(refusal_text(&failure)),
        _ => None,
    };
    let DiscordReport {
        token,
        bot,
        connected,
        paired,
        pairing,
        ..
    } = report;
    let bot_line = bot.map(|bot| {
        view! {
            <p data-testid="discord-bot">
                {move || t_args("elsewhere-discord-bot", &[("bot", bot.clone().into())])}
            </p>
        }
    });
    let pairing_view = pairing.map(|pairing| {
        let command = format!("pair {}", pairing.code);
        view! {
            <div class="pairing-code">
                <p>{tr("elsewhere-discord-code")}</p>
                <p><code data-testid="discord-code">{command}</code></p>
            </div>
        }
    });
    view! {
        <fieldset class="discord">
            <legend id="discord-heading">{tr("elsewhere-discord")}</legend>
            <p class="help">{tr("elsewhere-discord-help")}</p>
            {bot_line}
            {token.then(|| view! {
                <p data-testid="discord-connected" class=if connected { "status" } else { "status muted" }>
                    {if connected { tr("elsewhere-discord-connected") } else { tr("elsewhere-discord-not-connected") }}
                </p>
            })}
            <p data-testid="discord-paired" class=if paired { "status" } else { "status muted" }>
                {if paired { tr("elsewhere-discord-paired") } else { tr("elsewhere-discord-not-paired") }}
            </p>
            {pairing_view}
            <ActionForm action=connect>
                <div class="field">
                    <label for="discord-bot-token">{tr("elsewhere-discord-bot-token")}</label>
                    <input id="discord-bot-token" name="bot_token" type="password" autocomplete="off" value="" />
                    <p class="help">{tr("elsewhere-discord-token-help")}</p>
                    {token.then(|| view! { <p class="help" data-testid="discord-token-set">{tr("elsewhere-discord-token-set")}</p> })}
                </div>
                <div class="actions">
                    <button type="submit" class="secondary" data-testid="discord-connect">{tr("elsewhere-discord-connect")}</button>
                </div>
            </ActionForm>
            {paired.then(|| view! {
                <ActionForm action=unpair>
                    <button type="submit" class="secondary" data-testid="discord-unpair">{tr("elsewhere-discord-unpair")}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid="discord-problem">{problem}</p>
        </fieldset>
    }
}

/// A failure of the bot's forms in the person's language: Discord's own refusals in their words,
/// any other as it says itself.
fn refusal_text(failure: &Failure) -> String {
    use hark_core::model::channels::discord::DiscordRefusal;
    let Failure::ChannelRefused { refusal, .. } = failure else {
        return failure.text();
    };
    let refusal = refusal
        .refusal
        .as_deref()
        .and_then(|refusal| serde_json::from_value::<DiscordRefusal>(refusal.clone()).ok());
    match refusal {
        Some(DiscordRefusal::TokenShape) => t("elsewhere-discord-token-shape"),
        Some(DiscordRefusal::WrongToken) => t("elsewhere-discord-wrong-token"),
        Some(DiscordRefusal::NoToken) => t("elsewhere-discord-no-token"),
        Some(DiscordRefusal::Unreachable { reason }) => t_args(
            "elsewhere-discord-unreachable",
            &[("reason", reason.into())],
        ),
        Some(DiscordRefusal::SaveFailed) => t("settings-save-failed"),
        None => failure.text(),
    }
}
