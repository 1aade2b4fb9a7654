//! Config key `channels` (SPEC §11): where questions go beyond this machine's page (a Telegram
//! bot, ntfy push, signed webhooks) and the public address their links use. Its secrets are not here: they live
//! in `$HARK_HOME/secrets.json`, which neither the config, the API nor an export ever shows.

use super::ErrorBody;
use super::channel_names::{ChannelName, WebhookEvent};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Webhooks at most.
pub const MAX_WEBHOOKS: usize = 10;
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
    pub ntfy: Ntfy,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
    /// Channels this release does not know yet, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for Channels {
    fn default() -> Self {
        Self {
            public_url: None,
            content_in_push: true,
            telegram: Telegram::default(),
            ntfy: Ntfy::default(),
            webhooks: Vec::new(),
            extra: Map::new(),
        }
    }
}

/// The Bot API's address unless `channels.telegram.apiBase` says otherwise.
pub const TELEGRAM_API: &str = "https://api.telegram.org";

/// `channels.telegram`: a bot that sends each question to one paired chat, with buttons that
/// answer it. Its token is in `secrets.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Telegram {
    pub enabled: bool,
    /// Where the Bot API answers (a local Bot API server, or a test's stand-in).
    pub api_base: String,
    /// The one chat that receives and may answer questions, set by pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_id: Option<i64>,
}

impl Default for Telegram {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: TELEGRAM_API.to_string(),
            chat_id: None,
        }
    }
}

/// `channels.ntfy`: push notifications through an ntfy server (ntfy.sh or one's own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Ntfy {
    pub enabled: bool,
    pub server: String,
    pub topic: String,
}

impl Default for Ntfy {
    fn default() -> Self {
        Self {
            enabled: false,
            server: "https://ntfy.sh".to_string(),
            topic: String::new(),
        }
    }
}

/// One of `channels.webhooks`: a URL that receives `{event, question}` for its events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub url: String,
    #[serde(default = "default_events")]
    pub events: Vec<String>,
}

fn default_events() -> Vec<String> {
    [WebhookEvent::QuestionCreated, WebhookEvent::QuestionClosed]
        .map(|event| event.name().to_string())
        .to_vec()
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_sent_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
}

/// The Telegram bot as settings and `hark telegram setup` show it (never its token).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TelegramReport {
    /// Whether a bot token is saved.
    pub token: bool,
    /// The bot's username (without `@`), once Telegram confirmed the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Whether a chat is paired.
    pub paired: bool,
    /// Chats paired since the daemon started (a pairing that took place shows as a new count).
    #[serde(default)]
    pub pairings: u64,
    /// The pairing code waiting to be sent to the bot, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<TelegramPairing>,
}

/// A one-time code that pairs the chat that sends `/start <code>` to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TelegramPairing {
    pub code: String,
    /// `https://t.me/<bot>?start=<code>`: opens the chat with the code filled in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// `POST /api/telegram/setup`: a new bot token (checked with Telegram before it is saved), or
/// none to keep the saved one and only make a new pairing code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TelegramSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_token: Option<String>,
}

/// `POST /api/channels/test`'s body: which channel to test (`telegram`, `ntfy` or `webhook`).
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

/// Why a Telegram bot could not be set up; `message` is for the API and the CLI, settings
/// says it in the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum TelegramRefusal {
    /// Not shaped like a token from @BotFather (digits, a colon, then 30 or more characters).
    TokenShape,
    /// Telegram does not know the token.
    WrongToken,
    /// No token was given and none is saved.
    NoToken,
    /// Telegram could not be asked; `reason` says why.
    Unreachable { reason: String },
    /// The token could not be saved.
    SaveFailed,
}

impl TelegramRefusal {
    /// The HTTP status this refusal is answered with (REST and the settings page alike).
    pub fn status(&self) -> u16 {
        match self {
            TelegramRefusal::TokenShape | TelegramRefusal::NoToken => 400,
            TelegramRefusal::WrongToken => 422,
            TelegramRefusal::Unreachable { .. } => 502,
            TelegramRefusal::SaveFailed => 500,
        }
    }

    /// The refusal in a sentence that starts with the field it is about.
    pub fn message(&self) -> String {
        match self {
            TelegramRefusal::TokenShape => "botToken does not look like a bot token: BotFather gives one such as 123456789:AAE… (digits, a colon, then letters, digits, - and _)".into(),
            TelegramRefusal::WrongToken => "botToken is not known to Telegram: copy it again from @BotFather (/mybots, API Token)".into(),
            TelegramRefusal::NoToken => "botToken is missing: no bot token is saved yet; create a bot with @BotFather and give its token".into(),
            TelegramRefusal::Unreachable { reason } => format!("botToken could not be checked: {reason}"),
            TelegramRefusal::SaveFailed => "botToken could not be saved in secrets.json".into(),
        }
    }
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

impl Webhook {
    /// Whether this webhook asked for `event`.
    pub fn wants(&self, event: WebhookEvent) -> bool {
        self.events.iter().any(|wanted| wanted == event.name())
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
            Some(url) => Some(web_address("channels.publicUrl", &url)?),
            None => None,
        };
        channels.telegram.api_base =
            web_address("channels.telegram.apiBase", &channels.telegram.api_base)?;
        if channels.telegram.chat_id == Some(0) {
            return Err(ErrorBody::field(
                "channels.telegram.chatId",
                "channels.telegram.chatId must be a Telegram chat id (pair with `hark telegram setup`)",
            ));
        }
        channels.ntfy.server = web_address("channels.ntfy.server", &channels.ntfy.server)?;
        channels.ntfy.topic = channels.ntfy.topic.trim().to_string();
        let topic = &channels.ntfy.topic;
        let topic_fits = topic.len() <= 64
            && topic
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !topic_fits || (channels.ntfy.enabled && topic.is_empty()) {
            return Err(ErrorBody::field(
                "channels.ntfy.topic",
                "channels.ntfy.topic must be 1 to 64 letters, digits, - or _ (hard to guess: \
                 anyone who knows it can read the pushes)",
            ));
        }
        if channels.webhooks.len() > MAX_WEBHOOKS {
            return Err(ErrorBody::field(
                "channels.webhooks",
                format!("channels.webhooks holds at most {MAX_WEBHOOKS} webhooks"),
            ));
        }
        for (index, webhook) in channels.webhooks.iter_mut().enumerate() {
            webhook.url = web_address(&format!("channels.webhooks[{index}].url"), &webhook.url)?;
            let unknown = webhook
                .events
                .iter()
                .any(|event| WebhookEvent::named(event).is_none());
            if webhook.events.is_empty() || unknown {
                let field = format!("channels.webhooks[{index}].events");
                let names: Vec<&str> = WebhookEvent::ALL.map(WebhookEvent::name).to_vec();
                return Err(ErrorBody::field(
                    field.clone(),
                    format!("{field} must list some of {}", names.join(", ")),
                ));
            }
        }
        Ok(channels)
    }
}

/// An `http` or `https` address with a host, an optional port and path, and nothing else (no
/// query, fragment or credentials), lower-cased up to its path and without a trailing `/`.
/// Checked by hand rather than with the `url` crate: this model also compiles for the page, and
/// `url` would bring its Unicode host tables into the wasm (hosts here are ASCII; a Unicode name
/// is written in its `xn--` form).
fn web_address(field: &str, text: &str) -> Result<String, ErrorBody> {
    let invalid = || {
        ErrorBody::field(
            field,
            format!("{field} must be a web address such as https://example.net"),
        )
    };
    let text = text.trim();
    let (scheme, rest) = text.split_once("://").ok_or_else(invalid)?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(invalid());
    }
    let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (inside, after) = bracketed.split_once(']').ok_or_else(invalid)?;
            if inside.is_empty() || !inside.chars().all(|c| c.is_ascii_hexdigit() || c == ':') {
                return Err(invalid());
            }
            (&authority[..inside.len() + 2], after)
        }
        None => {
            let end = authority.find(':').unwrap_or(authority.len());
            let host = &authority[..end];
            let host_fits = !host.is_empty()
                && host.len() <= 253
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
            if !host_fits {
                return Err(invalid());
            }
            (host, &authority[end..])
        }
    };
    let port_fits = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.parse::<u16>().is_ok_and(|port| port > 0));
    let path_fits = path
        .chars()
        .all(|c| c.is_ascii_graphic() && !matches!(c, '?' | '#' | '\\' | '@'));
    if !port_fits || !path_fits {
        return Err(invalid());
    }
    // A browser leaves the scheme's own port out of an origin: so does the tidied address.
    let port = match (scheme.as_str(), port) {
        ("https", ":443") | ("http", ":80") => "",
        _ => port,
    };
    Ok(format!(
        "{scheme}://{}{port}{}",
        host.to_ascii_lowercase(),
        path.trim_end_matches('/')
    ))
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
}
