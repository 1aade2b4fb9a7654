//! Config key `channels` (SPEC §11): where questions go beyond this machine's page, one module
//! per channel (its config section, what it reports and refuses), what every channel is called
//! (`ChannelName`), how each has fared, and the public address their links use. Their secrets
//! are not here: they live in `$HARK_HOME/secrets.json`, which neither the config, the API nor an
//! export ever shows.

mod address;
mod chat_app;
pub mod discord;
pub mod feishu;
mod hidden;
pub mod ntfy;
pub mod slack;
pub mod telegram;
pub mod webhook;
pub mod wechat;

use super::ErrorBody;
use discord::{Discord, DiscordReport};
use feishu::{Feishu, FeishuReport};
use ntfy::Ntfy;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use slack::{Slack, SlackReport};
use telegram::{Telegram, TelegramReport};
use webhook::Webhook;
use wechat::{Wechat, WechatReport};

pub use chat_app::{ChannelAction, ChatAppSettings, ChatAppState, PairingReport};
pub use hidden::Hidden;

/// A channel's refusal of its setup (a chat app's token, WeChat's login): the HTTP status it is
/// answered with (REST and the settings page alike), the field it is about, and a sentence that
/// starts with that field. It travels as itself too, so a settings part can word it.
pub trait SetupRefusal: serde::Serialize {
    fn status(&self) -> u16;
    /// The field the refusal is about.
    fn field(&self) -> &'static str {
        "botToken"
    }
    fn message(&self) -> String;
}

/// A one-time code that pairs a chat app with the person who sends it to the bot (`pair <code>`,
/// Telegram's `/start <code>`), while it is valid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairingCode {
    pub code: String,
    /// Telegram's `https://t.me/<bot>?start=<code>`: opens the chat with the code filled in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    #[serde(deserialize_with = "crate::model::rfc3339::deserialize")]
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// A channel, as the API, settings, statuses and `hark channel test` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ChannelName {
    Telegram,
    Wechat,
    Slack,
    Feishu,
    Discord,
    Ntfy,
    #[serde(alias = "webhooks")]
    Webhook,
}

impl ChannelName {
    /// Every channel, in the order settings lists them.
    pub const ALL: [ChannelName; 7] = [
        ChannelName::Telegram,
        ChannelName::Wechat,
        ChannelName::Slack,
        ChannelName::Feishu,
        ChannelName::Discord,
        ChannelName::Ntfy,
        ChannelName::Webhook,
    ];

    /// The name as it is written (`telegram`, `ntfy`, `webhook`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelName::Telegram => "telegram",
            ChannelName::Wechat => "wechat",
            ChannelName::Slack => "slack",
            ChannelName::Feishu => "feishu",
            ChannelName::Discord => "discord",
            ChannelName::Ntfy => "ntfy",
            ChannelName::Webhook => "webhook",
        }
    }
}

impl ChannelName {
    /// Whether a person answers in it (a chat), so an answer may be marked as given there;
    /// a push answers by its buttons (`AnsweredVia::Push`), a webhook not at all.
    pub fn answers(self) -> bool {
        match self {
            ChannelName::Telegram
            | ChannelName::Wechat
            | ChannelName::Slack
            | ChannelName::Feishu
            | ChannelName::Discord => true,
            ChannelName::Ntfy | ChannelName::Webhook => false,
        }
    }

    /// The name a person knows it by, the same in every language (`Telegram`).
    pub fn display(self) -> &'static str {
        match self {
            ChannelName::Telegram => "Telegram",
            ChannelName::Wechat => "WeChat",
            ChannelName::Slack => "Slack",
            ChannelName::Feishu => "Feishu/Lark",
            ChannelName::Discord => "Discord",
            ChannelName::Ntfy => "ntfy",
            ChannelName::Webhook => "Webhook",
        }
    }
}

impl std::fmt::Display for ChannelName {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl std::str::FromStr for ChannelName {
    type Err = String;

    /// One of the names (`webhooks` too), case-insensitive; otherwise a sentence listing them.
    fn from_str(name: &str) -> Result<ChannelName, String> {
        let name = name.trim().to_ascii_lowercase();
        let name = if name == "webhooks" { "webhook" } else { &name };
        ChannelName::ALL
            .into_iter()
            .find(|channel| channel.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = ChannelName::ALL.map(ChannelName::as_str).to_vec();
                let (last, others) = names.split_last().unwrap_or((&"", &[]));
                format!(
                    "there is no channel \"{name}\"; the channels are {} and {last}",
                    others.join(", ")
                )
            })
    }
}

/// `channels`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Channels {
    /// The address links and actions sent away from this machine start with, such as
    /// `https://desk.tail1234.ts.net`; its host joins the Host allow-list. Without it, LAN
    /// mode's address is used, and with neither only text is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_url: Option<String>,
    /// Pushes carry the question's text; when false only "a question is waiting" and the link.
    pub content_in_push: bool,
    pub telegram: Telegram,
    pub wechat: Wechat,
    pub slack: Slack,
    pub feishu: Feishu,
    pub discord: Discord,
    pub ntfy: Ntfy,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
    /// Channels this release does not know yet, kept as they are.
    // Kept where config.json is written back (the store's); the page only reads the config, and
    // a flattened field gives every reader a buffered second reading (issue 30).
    #[cfg_attr(feature = "store", serde(flatten))]
    #[cfg_attr(not(feature = "store"), serde(skip))]
    pub extra: Map<String, Value>,
}

impl Default for Channels {
    fn default() -> Self {
        Self {
            public_url: None,
            content_in_push: true,
            telegram: Telegram::default(),
            wechat: Wechat::default(),
            slack: Slack::default(),
            feishu: Feishu::default(),
            discord: Discord::default(),
            ntfy: Ntfy::default(),
            webhooks: Vec::new(),
            extra: Map::new(),
        }
    }
}

/// How one channel has fared since the daemon started (`GET /api/channels`, settings,
/// `hark status`). It names its target without any secret: the scheme and host of ntfy's
/// server or of a webhook's address, never its path (a webhook's path is often its
/// credential).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelStatus {
    pub channel: ChannelName,
    pub target: String,
    /// Messages that arrived.
    pub sent: u64,
    /// Attempts that failed (each retry counts).
    pub failures: u64,
    #[serde(
        default,
        deserialize_with = "crate::model::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_sent_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(
        default,
        deserialize_with = "crate::model::rfc3339::deserialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_failure_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The last failure, in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// `GET /api/channels`: how every channel has fared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelsReport {
    pub channels: Vec<ChannelStatus>,
    /// Whether ntfy has an access token in `secrets.json` (never the token).
    pub ntfy_token: bool,
    /// Whether links and answer buttons can be sent: `publicUrl` is set or LAN mode is on.
    pub links: bool,
    #[serde(default)]
    pub telegram: TelegramReport,
    #[serde(default)]
    pub wechat: WechatReport,
    #[serde(default)]
    pub slack: SlackReport,
    #[serde(default)]
    pub feishu: FeishuReport,
    #[serde(default)]
    pub discord: DiscordReport,
    /// Each set-up channel's state in a sentence, as `hark status` prints it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<ChannelSummary>,
}

/// One channel's state in a sentence (`bot @hark_bot, a chat is paired`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelSummary {
    pub channel: ChannelName,
    pub summary: String,
}

/// `POST /api/channels/test`'s body: which channel to test (`telegram`, `wechat`, `slack`,
/// `feishu`, `discord`, `ntfy` or `webhook`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelTest {
    pub channel: ChannelName,
}

/// What a channel test did, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelTestResult {
    pub message: String,
}

impl ChannelStatus {
    /// Whether its last attempt failed.
    pub fn failing(&self) -> bool {
        match (self.last_failure_at, self.last_sent_at) {
            (Some(failed), Some(sent)) => failed > sent,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }
}

impl Channels {
    /// Whether nothing was set (the config file then leaves the key out).
    pub fn is_default(&self) -> bool {
        *self == Channels::default()
    }

    /// Reads `channels` from JSON, strictly: each problem names its field
    /// (`channels.webhooks[1].url`).
    ///
    /// # Errors
    /// The first value that does not fit.
    pub fn from_json(value: &Value) -> Result<Channels, ErrorBody> {
        let mut channels: Channels =
            serde_path_to_error::deserialize(value.clone()).map_err(|error| {
                let path = error.path().to_string();
                let field = if path == "." {
                    "channels".to_string()
                } else {
                    format!("channels.{path}")
                };
                ErrorBody::field(field.clone(), format!("{field}: {}", error.inner()))
            })?;
        channels.public_url = match channels.public_url.take() {
            Some(url) if url.trim().is_empty() => None,
            Some(url) => Some(address::web_address("channels.publicUrl", &url)?),
            None => None,
        };
        telegram::check(&mut channels.telegram)?;
        wechat::check(&mut channels.wechat)?;
        slack::check(&mut channels.slack)?;
        feishu::check(&mut channels.feishu)?;
        discord::check(&mut channels.discord)?;
        ntfy::check(&mut channels.ntfy)?;
        webhook::check(&mut channels.webhooks)?;
        Ok(channels)
    }
}

impl Channels {
    /// Chat app `app`'s part of the settings; `None` for a channel that is not a chat app.
    fn chat_app_settings(&self, app: ChannelName) -> Option<&dyn ChatAppSettings> {
        match app {
            ChannelName::Telegram => Some(&self.telegram),
            ChannelName::Wechat => Some(&self.wechat),
            ChannelName::Slack => Some(&self.slack),
            ChannelName::Feishu => Some(&self.feishu),
            ChannelName::Discord => Some(&self.discord),
            ChannelName::Ntfy | ChannelName::Webhook => None,
        }
    }

    fn chat_app_settings_mut(&mut self, app: ChannelName) -> Option<&mut dyn ChatAppSettings> {
        match app {
            ChannelName::Telegram => Some(&mut self.telegram),
            ChannelName::Wechat => Some(&mut self.wechat),
            ChannelName::Slack => Some(&mut self.slack),
            ChannelName::Feishu => Some(&mut self.feishu),
            ChannelName::Discord => Some(&mut self.discord),
            ChannelName::Ntfy | ChannelName::Webhook => None,
        }
    }
}

impl ChannelsReport {
    /// The report of `app`, when it is a chat app that pairs by a code.
    fn pairing_report(&self, app: ChannelName) -> Option<&dyn PairingReport> {
        match app {
            ChannelName::Telegram => Some(&self.telegram),
            ChannelName::Slack => Some(&self.slack),
            ChannelName::Feishu => Some(&self.feishu),
            ChannelName::Discord => Some(&self.discord),
            ChannelName::Wechat | ChannelName::Ntfy | ChannelName::Webhook => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(value: Value) -> Option<String> {
        Channels::from_json(&value).unwrap_err().field
    }

    #[test]
    fn defaults_send_nothing_anywhere() {
        let channels = Channels::from_json(&json!({})).unwrap();
        assert_eq!(channels, Channels::default());
        assert!(!channels.ntfy.enabled && channels.webhooks.is_empty());
        assert!(channels.content_in_push);
    }

    #[test]
    fn addresses_are_checked_and_tidied() {
        let channels = Channels::from_json(&json!({
            "publicUrl": "https://Desk.tail1234.ts.net/",
            "ntfy": {"enabled": true, "server": "http://127.0.0.1:8080", "topic": "hark-7f3a"},
            "webhooks": [{"url": "https://hooks.example/hark"}],
            "telegram": {"enabled": true, "apiBase": "http://127.0.0.1:9/", "chatId": 42},
            "matrix": {"enabled": false}
        }))
        .unwrap();
        assert_eq!(
            channels.public_url.as_deref(),
            Some("https://desk.tail1234.ts.net")
        );
        assert_eq!(channels.ntfy.server, "http://127.0.0.1:8080");
        assert_eq!(
            channels.webhooks[0].events,
            ["question:created", "question:closed"]
        );
        assert_eq!(channels.telegram.api_base, "http://127.0.0.1:9");
        assert_eq!(channels.telegram.chat_id, Some(42));
        assert!(channels.extra.contains_key("matrix"), "unknown keys kept");
    }

    #[test]
    fn markup_in_an_address_is_refused_by_name() {
        for (bad, named) in [
            ("https://hooks.example/</textarea><b>", "\"<\""),
            ("https://hooks.example/a\"onmouseover=x", "\"\"\""),
            ("https://hooks.example/it's", "\"'\""),
            ("https://hooks.example/a>b", "\">\""),
            ("https://hooks.example/a b", "a space"),
        ] {
            let refused = Channels::from_json(&json!({"webhooks": [{"url": bad}]})).unwrap_err();
            assert_eq!(
                refused.field.as_deref(),
                Some("channels.webhooks[0].url"),
                "{bad}"
            );
            assert!(refused.error.contains(named), "{bad}: {}", refused.error);
        }
    }

    #[test]
    fn every_problem_names_its_field() {
        assert_eq!(field(json!([])).as_deref(), Some("channels"));
        assert_eq!(
            field(json!({"publicUrl": "ftp://x"})).as_deref(),
            Some("channels.publicUrl")
        );
        for bad in [
            "https://x/?a=1",
            "https://x/#top",
            "https://user@x/",
            "https://",
            "https://x:0",
            "https://x:99999",
            "https://ex ample.net",
            "https://ünï.example",
            "https://[zz]/",
            "desk.example",
        ] {
            assert_eq!(
                field(json!({ "publicUrl": bad })).as_deref(),
                Some("channels.publicUrl"),
                "{bad}"
            );
        }
        for (good, tidied) in [
            ("http://[fd00::1]:13390/", "http://[fd00::1]:13390"),
            ("HTTPS://Hooks.Example/Path/", "https://hooks.example/Path"),
            ("https://desk.example:443/", "https://desk.example"),
            ("http://desk.example:80", "http://desk.example"),
        ] {
            let channels = Channels::from_json(&json!({ "publicUrl": good })).unwrap();
            assert_eq!(channels.public_url.as_deref(), Some(tidied));
        }
        assert_eq!(
            field(json!({"telegram": {"apiBase": "telegram"}})).as_deref(),
            Some("channels.telegram.apiBase")
        );
        assert_eq!(
            field(json!({"telegram": {"chatId": "me"}})).as_deref(),
            Some("channels.telegram.chatId")
        );
        assert_eq!(
            field(json!({"telegram": {"chatId": 0}})).as_deref(),
            Some("channels.telegram.chatId")
        );
        assert_eq!(
            field(json!({"wechat": {"apiBase": "weixin"}})).as_deref(),
            Some("channels.wechat.apiBase")
        );
        for bad in [json!(""), json!("a\nb"), json!(7)] {
            assert_eq!(
                field(json!({"wechat": {"userId": bad}})).as_deref(),
                Some("channels.wechat.userId"),
                "{bad}"
            );
        }
        assert_eq!(
            field(json!({"ntfy": {"enabled": true}})).as_deref(),
            Some("channels.ntfy.topic")
        );
        assert_eq!(
            field(json!({"ntfy": {"topic": "a/b"}})).as_deref(),
            Some("channels.ntfy.topic")
        );
        assert_eq!(
            field(json!({"ntfy": {"enabled": "yes"}})).as_deref(),
            Some("channels.ntfy.enabled")
        );
        assert_eq!(
            field(json!({"webhooks": [{"url": "https://a.example"}, {"url": "nope"}]})).as_deref(),
            Some("channels.webhooks[1].url")
        );
        assert_eq!(
            field(
                json!({"webhooks": [{"url": "https://a.example", "events": ["question:deleted"]}]})
            )
            .as_deref(),
            Some("channels.webhooks[0].events")
        );
        let many: Vec<Value> = (0..11)
            .map(|i| json!({"url": format!("https://h{i}.example")}))
            .collect();
        assert_eq!(
            field(json!({ "webhooks": many })).as_deref(),
            Some("channels.webhooks")
        );
    }

    #[test]
    fn channel_names_read_as_written_and_unknown_ones_are_named() {
        for channel in ChannelName::ALL {
            let json = serde_json::to_value(channel).unwrap();
            assert_eq!(json, channel.as_str());
            assert_eq!(
                serde_json::from_value::<ChannelName>(json).unwrap(),
                channel
            );
            assert_eq!(channel.as_str().parse::<ChannelName>(), Ok(channel));
        }
        assert_eq!("Webhooks".parse::<ChannelName>(), Ok(ChannelName::Webhook));
        let refused = "pigeon".parse::<ChannelName>().unwrap_err();
        assert!(
            refused.contains("\"pigeon\"")
                && refused.contains("telegram, wechat, slack, feishu, discord, ntfy and webhook")
        );
        let test: Result<ChannelTest, _> = serde_json::from_value(json!({"channel": "pigeon"}));
        assert!(test.is_err());
    }
}
