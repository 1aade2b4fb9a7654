//! `hark discord setup`'s flags: the bot's token (Developer Portal → Bot → Reset Token); the
//! shared flow is `cli::chat_app`.

use crate::cli::chat_app::{Credentials, Field, Setup};
use hark_core::model::ChannelName;

#[derive(clap::Args)]
pub struct DiscordCredentials {
    /// The bot's token.
    #[arg(long, value_name = "TOKEN")]
    bot_token: Option<String>,
}

impl Credentials for DiscordCredentials {
    const CHANNEL: ChannelName = ChannelName::Discord;
    const APP: &'static str = "Discord";

    fn setup(self) -> Setup {
        Setup {
            channel: Self::CHANNEL,
            app: Self::APP,
            fields: vec![Field {
                name: "botToken",
                prompt: "Bot token from the Developer Portal",
                secret: true,
                given: self.bot_token,
            }],
            extra: serde_json::Map::new(),
            pair: "pair",
            send_where: "in a direct message in Discord".into(),
        }
    }
}
