//! The Telegram bot's part of "Notify me elsewhere" (SPEC §11): the bot token (checked with
//! Telegram before it is kept), the pairing code and its link, whether a chat is paired, and
//! unpairing. Plain forms: it works without JavaScript.

use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::telegram::TelegramReport;
use leptos::prelude::*;

/// Checks the token (or the saved one, when the field is empty), keeps it, turns the bot on
/// and makes a new pairing code.
#[server(prefix = "/fn")]
pub async fn connect_telegram(
    #[server(default)] bot_token: String,
) -> Result<TelegramReport, Failure> {
    use hark_core::model::channels::telegram::TelegramSetup;
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let token = Some(bot_token.trim().to_string()).filter(|token| !token.is_empty());
    let refuse = |failure| crate::failure::refuse::<ConnectTelegram>("/settings", failure);
    let setup = serde_json::to_value(TelegramSetup { bot_token: token }).unwrap_or_default();
    let channel = hark_core::model::ChannelName::Telegram;
    let answered = desk
        .act(channel, "setup", setup)
        .await
        .map_err(|refusal| refuse(Failure::ChannelRefused { channel, refusal }))?;
    let report: TelegramReport = serde_json::from_value(answered).map_err(|error| {
        refuse(Failure::Unavailable {
            reason: error.to_string(),
        })
    })?;
    leptos_axum::redirect("/settings#telegram-heading");
    Ok(report)
}

/// Forgets the paired chat.
#[server(prefix = "/fn")]
pub async fn unpair_telegram() -> Result<(), Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(
        hark_core::model::ChannelName::Telegram,
        "unpair",
        serde_json::json!({}),
    )
    .await
    .map_err(|_| crate::failure::refuse::<UnpairTelegram>("/settings", Failure::SaveFailed))?;
    leptos_axum::redirect("/settings#telegram-heading");
    Ok(())
}

/// The bot's part of the section, as last loaded; the section loads again after each of its
/// forms.
#[component]
pub fn TelegramBot(
    report: TelegramReport,
    connect: ServerAction<ConnectTelegram>,
    unpair: ServerAction<UnpairTelegram>,
) -> impl IntoView {
    let problem = move || match (connect.value().get(), unpair.value().get()) {
        (Some(Err(failure)), _) | (_, Some(Err(failure))) => Some(refusal_text(&failure)),
        _ => None,
    };
    let TelegramReport {
        token,
        bot,
        paired,
        pairing,
        ..
    } = report;
    let bot_line = bot.clone().map(|bot| {
        view! { <p data-testid="telegram-bot">{move || t_args("elsewhere-telegram-bot", &[("bot", bot.clone().into())])}</p> }
    });
    let pairing_view = pairing.map(|pairing| {
        let command = format!("/start {}", pairing.code);
        view! {
            <div class="pairing-code">
                <p>{tr("elsewhere-telegram-code")}</p>
                <p><code data-testid="telegram-code">{command}</code></p>
                {pairing.link.map(|link| view! {
                    <p><a href=link target="_blank" rel="noopener noreferrer" data-testid="telegram-link">{tr("elsewhere-telegram-open")}</a></p>
                })}
            </div>
        }
    });
    view! {
        <fieldset class="telegram">
            <legend id="telegram-heading">{tr("elsewhere-telegram")}</legend>
            <p class="help">{tr("elsewhere-telegram-help")}</p>
            {bot_line}
            <p data-testid="telegram-paired" class=if paired { "status" } else { "status muted" }>
                {if paired { tr("elsewhere-telegram-paired") } else { tr("elsewhere-telegram-not-paired") }}
            </p>
            {pairing_view}
            <ActionForm action=connect>
                <div class="field">
                    <label for="telegram-token">{tr("elsewhere-telegram-token")}</label>
                    <input id="telegram-token" name="bot_token" type="password" autocomplete="off" value="" />
                    <p class="help">{tr("elsewhere-telegram-token-help")}</p>
                    {token.then(|| view! { <p class="help" data-testid="telegram-token-set">{tr("elsewhere-telegram-token-set")}</p> })}
                </div>
                <div class="actions">
                    <button type="submit" class="secondary" data-testid="telegram-connect">{tr("elsewhere-telegram-connect")}</button>
                </div>
            </ActionForm>
            {paired.then(|| view! {
                <ActionForm action=unpair>
                    <button type="submit" class="secondary" data-testid="telegram-unpair">{tr("elsewhere-telegram-unpair")}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid="telegram-problem">{problem}</p>
        </fieldset>
    }
}

/// A failure of the bot's forms in the person's language: the bot's own refusals (a token of
/// the wrong shape, one Telegram does not know…) in its own words, any other as it says itself.
fn refusal_text(failure: &Failure) -> String {
    use hark_core::model::channels::telegram::TelegramRefusal;
    let Failure::ChannelRefused { refusal, .. } = failure else {
        return failure.text();
    };
    let refusal = refusal
        .refusal
        .as_deref()
        .and_then(|refusal| serde_json::from_value::<TelegramRefusal>(refusal.clone()).ok());
    match refusal {
        Some(TelegramRefusal::TokenShape) => t("elsewhere-telegram-token-shape"),
        Some(TelegramRefusal::WrongToken) => t("elsewhere-telegram-wrong-token"),
        Some(TelegramRefusal::NoToken) => t("elsewhere-telegram-no-token"),
        Some(TelegramRefusal::Unreachable { reason }) => t_args(
            "elsewhere-telegram-unreachable",
            &[("reason", reason.into())],
        ),
        Some(TelegramRefusal::SaveFailed) => t("settings-save-failed"),
        None => failure.text(),
    }
}
