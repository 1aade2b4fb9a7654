//! Feishu/Lark's part of "Notify me elsewhere" (SPEC §17): the app's App ID and App Secret
//! (checked with Feishu before they are kept) and whether it is on Feishu or Lark; the rest is
//! every chat app's (`chat_app`).

use super::chat_app::{Part, Words};
use crate::i18n::{t, t_args, tr};
use hark_core::model::ChannelName;
use hark_core::model::channels::feishu::{FEISHU_API, FeishuRefusal, LARK_API};
use leptos::prelude::*;

pub static PART: Part = Part {
    app: ChannelName::Feishu,
    words: Words {
        heading: "elsewhere-feishu",
        help: "elsewhere-feishu-help",
        token_set: "elsewhere-feishu-token-set",
        connect: "elsewhere-feishu-connect",
        code: "elsewhere-feishu-code",
        open: None,
        paired: "elsewhere-feishu-paired",
        not_paired: "elsewhere-feishu-not-paired",
        connection: Some((
            "elsewhere-feishu-connected",
            "elsewhere-feishu-not-connected",
        )),
        unpair: "elsewhere-feishu-unpair",
    },
    pair: "pair",
    bot: |report| {
        let bot = report.feishu.bot.clone()?;
        Some((move || t_args("elsewhere-feishu-bot", &[("bot", bot.clone().into())])).into_any())
    },
    fields,
    refusal: |refusal| {
        Some(match refusal.read()? {
            FeishuRefusal::AppIdShape => t("elsewhere-feishu-app-id-shape"),
            FeishuRefusal::WrongAppId => t("elsewhere-feishu-wrong-app-id"),
            FeishuRefusal::WrongAppSecret => t("elsewhere-feishu-wrong-secret"),
            FeishuRefusal::NoBot { .. } => t("elsewhere-feishu-no-bot"),
            FeishuRefusal::NoCredentials => t("elsewhere-feishu-no-credentials"),
            FeishuRefusal::Unreachable { reason } => {
                t_args("elsewhere-feishu-unreachable", &[("reason", reason.into())])
            }
            FeishuRefusal::ApiBase { .. } | FeishuRefusal::SaveFailed => t("settings-save-failed"),
        })
    },
    #[cfg(feature = "ssr")]
    setup: |given| {
        let api_base = match given.platform.as_str() {
            "lark" => Some(LARK_API.to_string()),
            "feishu" => Some(FEISHU_API.to_string()),
            _ => None,
        };
        serde_json::to_value(hark_core::model::channels::feishu::FeishuSetup {
            app_id: given.app_id,
            app_secret: given.app_secret,
            api_base,
        })
        .unwrap_or_default()
    },
};

/// Where the app lives (Feishu, Lark, or the address it has, kept unless the person picks one),
/// its App ID and its App Secret.
fn fields(report: &hark_core::model::ChannelsReport) -> AnyView {
    let api_base = report.feishu.api_base.clone();
    let lark = api_base == LARK_API;
    let custom = api_base != LARK_API && api_base != FEISHU_API;
    // A proxy, or a stand-in.
    let other = custom.then(|| {
        view! {
            <option value="" selected=true>
                {move || t_args("elsewhere-feishu-platform-other", &[("address", api_base.clone().into())])}
            </option>
        }
    });
    view! {
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
        </div>
    }
    .into_any()
}
