//! The Telegram bot's part of "Notify me elsewhere" (SPEC §11): the bot token (checked with
//! Telegram before it is kept) and the link that opens the chat with the code filled in; the
//! rest is every chat app's (`chat_app`).

use super::chat_app::{Part, Words};
use crate::i18n::{t, t_args, tr};
use hark_core::model::ChannelName;
use hark_core::model::channels::telegram::TelegramRefusal;
use leptos::prelude::*;

pub static PART: Part = Part {
    app: ChannelName::Telegram,
    words: Words {
        heading: "elsewhere-telegram",
        help: "elsewhere-telegram-help",
        token_set: "elsewhere-telegram-token-set",
        connect: "elsewhere-telegram-connect",
        code: "elsewhere-telegram-code",
        open: Some("elsewhere-telegram-open"),
        paired: "elsewhere-telegram-paired",
        not_paired: "elsewhere-telegram-not-paired",
        connection: None,
        unpair: "elsewhere-telegram-unpair",
    },
    pair: "/start",
    bot: |report| {
        let bot = report.telegram.bot.clone()?;
        Some((move || t_args("elsewhere-telegram-bot", &[("bot", bot.clone().into())])).into_any())
    },
    fields: |_| {
        view! {
            <div class="field">
                <label for="telegram-token">{tr("elsewhere-telegram-token")}</label>
                <input id="telegram-token" name="bot_token" type="password" autocomplete="off" value="" />
                <p class="help">{tr("elsewhere-telegram-token-help")}</p>
            </div>
        }
        .into_any()
    },
    refusal: |refusal| {
        Some(match refusal.read()? {
            TelegramRefusal::TokenShape => t("elsewhere-telegram-token-shape"),
            TelegramRefusal::WrongToken => t("elsewhere-telegram-wrong-token"),
            TelegramRefusal::NoToken => t("elsewhere-telegram-no-token"),
            TelegramRefusal::Unreachable { reason } => t_args(
                "elsewhere-telegram-unreachable",
                &[("reason", reason.into())],
            ),
            TelegramRefusal::SaveFailed => t("settings-save-failed"),
        })
    },
    #[cfg(feature = "ssr")]
    setup: |given| {
        serde_json::to_value(hark_core::model::channels::telegram::TelegramSetup {
            bot_token: given.bot_token,
        })
        .unwrap_or_default()
    },
};
