//! Slack's part of "Notify me elsewhere" (SPEC §17): the bot token and the app-level token (both
//! checked with Slack before they are kept); the rest is every chat app's (`chat_app`).

use super::chat_app::{Part, Words};
use crate::i18n::{t, t_args, tr};
use hark_core::model::ChannelName;
use hark_core::model::channels::slack::SlackRefusal;
use leptos::prelude::*;

pub static PART: Part = Part {
    app: ChannelName::Slack,
    words: Words {
        heading: "elsewhere-slack",
        help: "elsewhere-slack-help",
        token_set: "elsewhere-slack-token-set",
        connect: "elsewhere-slack-connect",
        code: "elsewhere-slack-code",
        open: None,
        paired: "elsewhere-slack-paired",
        not_paired: "elsewhere-slack-not-paired",
        connection: Some(("elsewhere-slack-connected", "elsewhere-slack-not-connected")),
        unpair: "elsewhere-slack-unpair",
    },
    pair: "pair",
    bot: |report| {
        let bot = report.slack.bot.clone()?;
        let team = report.slack.team.clone().unwrap_or_default();
        Some(
            (move || {
                t_args(
                    "elsewhere-slack-bot",
                    &[("bot", bot.clone().into()), ("team", team.clone().into())],
                )
            })
            .into_any(),
        )
    },
    fields: |_| {
        view! {
            <div class="field">
                <label for="slack-bot-token">{tr("elsewhere-slack-bot-token")}</label>
                <input id="slack-bot-token" name="bot_token" type="password" autocomplete="off" placeholder="xoxb-…" value="" />
            </div>
            <div class="field">
                <label for="slack-app-token">{tr("elsewhere-slack-app-token")}</label>
                <input id="slack-app-token" name="app_token" type="password" autocomplete="off" placeholder="xapp-…" value="" />
                <p class="help">{tr("elsewhere-slack-token-help")}</p>
            </div>
        }
        .into_any()
    },
    refusal: |refusal| {
        Some(match refusal.read()? {
            SlackRefusal::BotTokenShape => t("elsewhere-slack-bot-token-shape"),
            SlackRefusal::AppTokenShape => t("elsewhere-slack-app-token-shape"),
            SlackRefusal::WrongBotToken => t("elsewhere-slack-wrong-bot-token"),
            SlackRefusal::WrongAppToken => t("elsewhere-slack-wrong-app-token"),
            SlackRefusal::NoToken => t("elsewhere-slack-no-token"),
            SlackRefusal::Unreachable { reason } => {
                t_args("elsewhere-slack-unreachable", &[("reason", reason.into())])
            }
            SlackRefusal::SaveFailed => t("settings-save-failed"),
        })
    },
    #[cfg(feature = "ssr")]
    setup: |given| {
        serde_json::to_value(hark_core::model::channels::slack::SlackSetup {
            bot_token: given.bot_token,
            app_token: given.app_token,
        })
        .unwrap_or_default()
    },
};
