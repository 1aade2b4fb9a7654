//! `hark feishu setup`'s flags: the App ID and App Secret of a self-built app with the Bot
//! feature, and `--lark` (`open.larksuite.com`) or `--feishu` (`open.feishu.cn`, the default;
//! without either the app stays where it is); the shared flow is `cli::chat_app`.

use crate::cli::chat_app::{Credentials, Field, Setup};
use hark_core::model::ChannelName;
use hark_core::model::channels::feishu::{FEISHU_API, LARK_API};

#[derive(clap::Args)]
pub struct FeishuCredentials {
    /// The App ID (cli_…, Credentials & Basic Info).
    #[arg(long, value_name = "ID")]
    app_id: Option<String>,
    /// The App Secret.
    #[arg(long, value_name = "SECRET")]
    app_secret: Option<String>,
    /// The app is on Lark (open.larksuite.com), outside China.
    #[arg(long, conflicts_with = "feishu")]
    lark: bool,
    /// The app is on Feishu (open.feishu.cn), the default.
    #[arg(long)]
    feishu: bool,
}

impl Credentials for FeishuCredentials {
    const CHANNEL: ChannelName = ChannelName::Feishu;
    const APP: &'static str = "Feishu/Lark";

    fn setup(self) -> Setup {
        let mut extra = serde_json::Map::new();
        let api_base = match (self.lark, self.feishu) {
            (true, _) => Some(LARK_API),
            (false, true) => Some(FEISHU_API),
            (false, false) => None,
        };
        if let Some(api_base) = api_base {
            extra.insert("apiBase".into(), api_base.into());
        }
        Setup {
            channel: Self::CHANNEL,
            app: Self::APP,
            fields: vec![
                Field {
                    name: "appId",
                    prompt: "App ID, cli_…",
                    secret: false,
                    given: self.app_id,
                },
                Field {
                    name: "appSecret",
                    prompt: "App Secret",
                    secret: true,
                    given: self.app_secret,
                },
            ],
            extra,
            pair: "pair",
            send_where: "in a direct message in Feishu or Lark".into(),
        }
    }
}
