//! `hark slack setup`'s flags: the app's Bot User OAuth Token and app-level token; the shared
//! flow is `cli::chat_app`.

use crate::cli::chat_app::{Credentials, Field, Setup};
use hark_core::model::ChannelName;

#[derive(clap::Args)]
pub struct SlackCredentials {
    /// The Bot User OAuth Token (xoxb-…, OAuth & Permissions).
    #[arg(long, value_name = "TOKEN")]
    bot_token: Option<String>,
    /// The app-level token (xapp-…, with connections:write).
    #[arg(long, value_name = "TOKEN")]
    app_token: Option<String>,
}

impl Credentials for SlackCredentials {
    const CHANNEL: ChannelName = ChannelName::Slack;
    const APP: &'static str = "Slack";

    fn setup(self) -> Setup {
        Setup {
            channel: Self::CHANNEL,
            app: Self::APP,
            fields: vec![
                Field {
                    name: "botToken",
                    prompt: "Bot User OAuth Token, xoxb-…",
                    secret: true,
                    given: self.bot_token,
                },
                Field {
                    name: "appToken",
                    prompt: "App-level token, xapp-…",
                    secret: true,
                    given: self.app_token,
                },
            ],
            extra: serde_json::Map::new(),
            pair: "pair",
            send_where: "in a direct message in Slack".into(),
        }
    }
}
