//! `hark telegram setup`'s flags: the bot's token (from @BotFather); the shared flow is
//! `cli::chat_app`.

use crate::cli::chat_app::{Credentials, Field, Setup};
use hark_core::model::ChannelName;

#[derive(clap::Args)]
pub struct TelegramCredentials {
    /// The bot's token; prefer standard input or the prompt, which keep it out of the shell's
    /// history.
    #[arg(long, value_name = "TOKEN")]
    bot_token: Option<String>,
}

impl Credentials for TelegramCredentials {
    const CHANNEL: ChannelName = ChannelName::Telegram;
    const APP: &'static str = "Telegram";

    fn setup(self) -> Setup {
        Setup {
            channel: Self::CHANNEL,
            app: Self::APP,
            fields: vec![Field {
                name: "botToken",
                prompt: "Bot token from @BotFather (create a bot with /newbot)",
                secret: true,
                given: self.bot_token,
            }],
            extra: serde_json::Map::new(),
            pair: "/start",
            send_where: "in Telegram".into(),
        }
    }
}
