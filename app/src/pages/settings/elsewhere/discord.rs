//! Discord's part of "Notify me elsewhere" (SPEC §17): the bot token (checked with Discord
//! before it is kept); the rest is every chat app's (`chat_app`).

use super::chat_app::{Part, Words};
use crate::i18n::{t, t_args, tr};
use hark_core::model::ChannelName;
use hark_core::model::channels::discord::DiscordRefusal;
use leptos::prelude::*;

pub static PART: Part = Part {
    app: ChannelName::Discord,
    words: Words {
        heading: "elsewhere-discord",
        help: "elsewhere-discord-help",
        token_set: "elsewhere-discord-token-set",
        connect: "elsewhere-discord-connect",
        code: "elsewhere-discord-code",
        open: None,
        paired: "elsewhere-discord-paired",
        not_paired: "elsewhere-discord-not-paired",
        connection: Some((
            "elsewhere-discord-connected",
            "elsewhere-discord-not-connected",
        )),
        unpair: "elsewhere-discord-unpair",
    },
    pair: "pair",
    bot: |report| {
        let bot = report.discord.bot.clone()?;
        Some((move || t_args("elsewhere-discord-bot", &[("bot", bot.clone().into())])).into_any())
    },
    fields: |_| {
        view! {
            <div class="field">
                <label for="discord-bot-token">{tr("elsewhere-discord-bot-token")}</label>
                <input id="discord-bot-token" name="bot_token" type="password" autocomplete="off" value="" />
                <p class="help">{tr("elsewhere-discord-token-help")}</p>
            </div>
        }
        .into_any()
    },
    refusal: |refusal| {
        Some(match refusal.read()? {
            DiscordRefusal::TokenShape => t("elsewhere-discord-token-shape"),
            DiscordRefusal::WrongToken => t("elsewhere-discord-wrong-token"),
            DiscordRefusal::NoToken => t("elsewhere-discord-no-token"),
            DiscordRefusal::Unreachable { reason } => t_args(
                "elsewhere-discord-unreachable",
                &[("reason", reason.into())],
            ),
            DiscordRefusal::SaveFailed => t("settings-save-failed"),
        })
    },
    #[cfg(feature = "ssr")]
    setup: |given| {
        serde_json::to_value(hark_core::model::channels::discord::DiscordSetup {
            bot_token: given.bot_token,
        })
        .unwrap_or_default()
    },
};
