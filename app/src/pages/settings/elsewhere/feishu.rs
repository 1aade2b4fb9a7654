//! Feishu/Lark's part of "Notify me elsewhere" (SPEC §17): the app's App ID and App Secret
//! (checked with Feishu before they are kept) and whether it is on Feishu or Lark, the pairing
//! code to send the bot in a direct message, whether the long connection is open and a person
//! paired, and unpairing. Plain forms: it works without JavaScript.

use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::feishu::{FEISHU_API, FeishuReport, LARK_API};
use leptos::prelude::*;

/// Checks the credentials (or the saved ones, for empty fields), keeps them, turns Feishu on
/// and makes a new pairing code. `platform` is `feishu` or `lark`.
#[server(prefix = "/fn")]
pub async fn connect_feishu(
    #[server(default)] app_id: String,
    #[server(default)] app_secret: String,
    #[server(default)] platform: String,
) -> Result<FeishuReport, Failure> {
    use hark_core::model::channels::feishu::FeishuSetup;
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let given = |value: String| Some(value.trim().to_string()).filter(|value| !value.is_empty());
    let refuse = |failure| crate::failure::refuse::<ConnectFeishu>("/settings", failure);
    let api_base = match platform.as_str() {
        "lark" => Some(LARK_API.to_string()),
        "feishu" => Some(FEISHU_API.to_string()),
        _ => None,
    };
    let setup = serde_json::to_value(FeishuSetup {
        app_id: given(app_id),
        app_secret: given(app_secret),
        api_base,
    })
    .unwrap_or_default();
    let channel = hark_core::model::ChannelName::Feishu;
    let answered = desk
        .act(channel, "setup", setup)
        .await
        .map_err(|refusal| refuse(Failure::ChannelRefused { channel, refusal }))?;
    let report: FeishuReport = serde_json::from_value(answered).map_err(|error| {
        refuse(Failure::Unavailable {
            reason: error.to_string(),
        })
    })?;
    leptos_axum::redirect("/settings#feishu-heading");
    Ok(report)
}

/// Forgets the paired person.
#[server(prefix = "/fn")]
pub async fn unpair_feishu() -> Result<(), Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(
        hark_core::model::ChannelName::Feishu,
        "unpair",
        serde_json::json!({}),
    )
    .await
    .map_err(|_| crate::failure::refuse::<UnpairFeishu>("/settings", Failure::SaveFailed))?;
    leptos_axum::redirect("/settings#feishu-heading");
    Ok(())
}

/// The app's part of the section, as last loaded; the section loads again after each form.
#[component]
pub fn FeishuPart(
    report: FeishuReport,
    connect: ServerAction<ConnectFeishu>,
    unpair: ServerAction<UnpairFeishu>,
) -> impl IntoView {
    let problem = move || match (connect.value().get(), unpair.value().get()) {
        (Some(Err(failure)), _) | (_, Some(Err(failure))) => Some(refusal_text(&failure)),
        _ => None,
    };
    let FeishuReport {
        token,
        bot,
        api_base,
        connected,
        paired,
        pairing,
        ..
    } = report;
    let lark = api_base == LARK_API;
    let custom = api_base != LARK_API && api_base != FEISHU_API;
    // A proxy, or a stand-in: kept unless the person picks Feishu or Lark.
    let other = custom.then(|| {
        view! {
            <option value="" selected=true>
                {move || t_args("elsewhere-feishu-platform-other", &[("address", api_base.clone().into())])}
            </option>
        }
    });
    let bot_line = bot.map(|bot| {
        view! {
            <p data-testid="feishu-bot">
                {move || t_args("elsewhere-feishu-bot", &[("bot", bot.clone().into())])}
            </p>
        }
    });
    let pairing_view = pairing.map(|pairing| {
        let command = format!("pair {}", pairing.code);
        view! {
            <div class="pairing-code">
                <p>{tr("elsewhere-feishu-code")}</p>
                <p><code data-testid="feishu-code">{command}</code></p>
            </div>
        }
    });
    view! {
        <fieldset class="feishu">
            <legend id="feishu-heading">{tr("elsewhere-feishu")}</legend>
            <p class="help">{tr("elsewhere-feishu-help")}</p>
            {bot_line}
            {token.then(|| view! {
                <p data-testid="feishu-connected" class=if connected { "status" } else { "status muted" }>
                    {if connected { tr("elsewhere-feishu-connected") } else { tr("elsewhere-feishu-not-connected") }}
                </p>
            })}
            <p data-testid="feishu-paired" class=if paired { "status" } else { "status muted" }>
                {if paired { tr("elsewhere-feishu-paired") } else { tr("elsewhere-feishu-not-paired") }}
            </p>
            {pairing_view}
            <ActionForm action=connect>
                <div class="field">
                    <label for="feishu-platform">{tr("elsewhere-feishu-platform")}</label>
                    <select id="feishu-platform" name="platform" data-testid="feishu-platform">
                        {other}
                        <option value="feishu" selected=!lark && !custom>{tr("elsewhere-feishu-platform-feishu")}</option>
                        <option value="lark" selected=lark>{tr("elsewhere-feishu-platform-lark")}</option>
                    </select>
                </div>
                <div class="field">
                    <label for="feishu-app-id">{tr("elsewhere-feishu-app-id")}</label>
                    <input id="feishu-app-id" name="app_id" type="text" autocomplete="off" spellcheck="false" placeholder="cli_…" value="" />
                </div>
                <div class="field">
                    <label for="feishu-app-secret">{tr("elsewhere-feishu-app-secret")}</label>
                    <input id="feishu-app-secret" name="app_secret" type="password" autocomplete="off" value="" />
                    <p class="help">{tr("elsewhere-feishu-secret-help")}</p>
                    {token.then(|| view! { <p class="help" data-testid="feishu-token-set">{tr("elsewhere-feishu-token-set")}</p> })}
                </div>
                <div class="actions">
                    <button type="submit" class="secondary" data-testid="feishu-connect">{tr("elsewhere-feishu-connect")}</button>
                </div>
            </ActionForm>
            {paired.then(|| view! {
                <ActionForm action=unpair>
                    <button type="submit" class="secondary" data-testid="feishu-unpair">{tr("elsewhere-feishu-unpair")}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid="feishu-problem">{problem}</p>
        </fieldset>
    }
}

/// A failure of the app's forms in the person's language: Feishu's own refusals in their
/// words, any other as it says itself.
fn refusal_text(failure: &Failure) -> String {
    use hark_core::model::channels::feishu::FeishuRefusal;
    let Failure::ChannelRefused { refusal, .. } = failure else {
        return failure.text();
    };
    let refusal = refusal
        .refusal
        .as_deref()
        .and_then(|refusal| serde_json::from_value::<FeishuRefusal>(refusal.clone()).ok());
    match refusal {
        Some(FeishuRefusal::AppIdShape) => t("elsewhere-feishu-app-id-shape"),
        Some(FeishuRefusal::WrongAppId) => t("elsewhere-feishu-wrong-app-id"),
        Some(FeishuRefusal::WrongAppSecret) => t("elsewhere-feishu-wrong-secret"),
        Some(FeishuRefusal::NoBot { .. }) => t("elsewhere-feishu-no-bot"),
        Some(FeishuRefusal::NoCredentials) => t("elsewhere-feishu-no-credentials"),
        Some(FeishuRefusal::Unreachable { reason }) => {
            t_args("elsewhere-feishu-unreachable", &[("reason", reason.into())])
        }
        Some(FeishuRefusal::ApiBase { .. }) | Some(FeishuRefusal::SaveFailed) => {
            t("settings-save-failed")
        }
        None => failure.text(),
    }
}
