//! A client of Tencent's iLink bot API, the few calls Hark makes: the login QR code and its
//! status, the long poll for messages, and sending text. Hand-written: no maintained Rust crate
//! speaks iLink. The protocol is the one of Tencent's MIT-licensed `@tencent-weixin/openclaw-weixin`
//! 2.4.9 (`src/api/api.ts`, `src/api/types.ts`, `src/auth/login-qr.ts`): JSON over HTTPS, every
//! POST carrying `AuthorizationType: ilink_bot_token`, a random `X-WECHAT-UIN` (a random `u32`'s
//! decimal digits in base64), `iLink-App-Id` and `iLink-App-ClientVersion`, the bot token as
//! `Authorization: Bearer` once there is one, and a `base_info` object in the body. The token
//! never appears in an error or the log.

use super::CHANNEL;
use crate::channels::chat::service::{ServiceError, exchange};
use base64::Engine;
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;

/// `iLink-App-Id` of a bot (the plugin's `ilink_appid`).
const APP_ID: &str = "bot";
/// The `bot_type` of a bot that answers its owner's messages (the plugin's default).
const BOT_TYPE: &str = "3";
/// How long the status of a login code is long-polled at most (the plugin's 35 s).
pub const STATUS_WAIT: Duration = Duration::from_secs(35);
/// How long a long poll for messages waits unless the server suggests otherwise (35 s too).
pub const POLL_WAIT: Duration = Duration::from_secs(35);
/// The most characters a text message carries (the plugin's chunk limit).
pub const MAX_TEXT_CHARS: usize = 4000;
/// The error code of a bot whose session WeChat ended: it must log in again.
const SESSION_ENDED: i64 = -14;

/// Whether WeChat ended the bot's session (errcode -14): it must log in again.
pub fn session_ended(error: &ServiceError) -> bool {
    error
        .refusal()
        .is_some_and(|refusal| refusal.code == SESSION_ENDED)
}

/// A login code: what to poll with, and what the QR code holds.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LoginCode {
    pub qrcode: String,
    pub qrcode_img_content: String,
}

/// Where a login code stands (`status` is `wait`, `scaned`, `confirmed`, `expired`,
/// `scaned_but_redirect`, `need_verifycode`, `verify_code_blocked` or `binded_redirect`). Not
/// `Debug`: it carries the bot token.
#[derive(Default, Deserialize)]
pub struct LoginStatus {
    #[serde(default)]
    pub status: String,
    pub bot_token: Option<String>,
    pub ilink_bot_id: Option<String>,
    /// Where the bot's calls go from now on.
    pub baseurl: Option<String>,
    /// The WeChat user who scanned and confirmed.
    pub ilink_user_id: Option<String>,
    /// The host to poll the status at after `scaned_but_redirect`.
    pub redirect_host: Option<String>,
}

/// One long poll's news: the messages (each read on its own), the cursor to send next time,
/// and the wait the server suggests.
#[derive(Debug, Default)]
pub struct Updates {
    pub messages: Vec<Value>,
    pub cursor: Option<String>,
    pub next_wait: Option<Duration>,
}

#[derive(Debug, Default, Deserialize)]
struct UpdatesAnswer {
    #[serde(flatten)]
    codes: Codes,
    #[serde(default)]
    msgs: Vec<Value>,
    get_updates_buf: Option<String>,
    longpolling_timeout_ms: Option<u64>,
}

/// The codes every answer carries: `ret` and `errcode` (0 when all went well), `errmsg`.
#[derive(Debug, Default, Deserialize)]
struct Codes {
    ret: Option<i64>,
    errcode: Option<i64>,
    errmsg: Option<String>,
}

/// A message from WeChat, the fields Hark reads.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Message {
    /// WeChat's id of the message (a number), the same when it is delivered twice.
    pub message_id: Option<Value>,
    #[serde(default)]
    pub from_user_id: String,
    /// 1 from a person, 2 from a bot.
    #[serde(default)]
    pub message_type: u32,
    /// When the person sent it, by WeChat's clock.
    pub create_time_ms: Option<i64>,
    #[serde(default)]
    pub item_list: Vec<Item>,
    pub context_token: Option<String>,
}

/// One part of a message.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Item {
    #[serde(rename = "type", default)]
    pub kind: u32,
    pub text_item: Option<Text>,
    pub voice_item: Option<Text>,
}

/// A text part, or a voice part's transcript.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Text {
    pub text: Option<String>,
}

impl Message {
    /// Its id as text, when WeChat gave one.
    pub fn id(&self) -> Option<String> {
        match self.message_id.as_ref()? {
            Value::String(id) => Some(id.clone()),
            Value::Number(id) => Some(id.to_string()),
            _ => None,
        }
    }

    /// Whether a person sent it (not a bot, this one included).
    pub fn sent_by_a_person(&self) -> bool {
        self.message_type == 1
    }

    /// Its text: the text parts, and what WeChat heard in a voice message; `None` when it has
    /// neither (a picture, a file).
    pub fn text(&self) -> Option<String> {
        let parts: Vec<&str> = self
            .item_list
            .iter()
            .filter_map(|item| match item.kind {
                1 => item.text_item.as_ref()?.text.as_deref(),
                3 => item.voice_item.as_ref()?.text.as_deref(),
                _ => None,
            })
            .filter(|text| !text.trim().is_empty())
            .collect();
        (!parts.is_empty()).then(|| parts.join("\n"))
    }
}

/// The API at one address, with or without a bot token.
#[derive(Clone)]
pub struct Ilink {
    http: reqwest::Client,
    base: String,
    token: Option<String>,
}

impl std::fmt::Debug for Ilink {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Ilink({})", self.base)
    }
}

/// `iLink-App-ClientVersion`: the version as `0x00MMNNPP`.
fn client_version() -> u32 {
    // Cargo's versions have their three numbers always.
    (env!("CARGO_PKG_VERSION").split('.').take(3))
        .map(|part| part.parse::<u32>().unwrap_or(0) & 0xff)
        .fold(0, |version, part| (version << 8) | part)
}

/// `X-WECHAT-UIN`: a random `u32`'s decimal digits, in base64.
fn random_uin() -> String {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    base64::engine::general_purpose::STANDARD.encode(u32::from_be_bytes(bytes).to_string())
}

/// `base_info`, in every POST's body.
fn base_info() -> Value {
    json!({
        "channel_version": env!("CARGO_PKG_VERSION"),
        "bot_agent": concat!("Hark/", env!("CARGO_PKG_VERSION")),
    })
}

/// A client-made id for a message to send.
pub fn client_id() -> String {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    format!("hark-{}", hex::encode(bytes))
}

impl Ilink {
    /// The API at `base` (no trailing `/`), with the bot's `token` once there is one.
    pub fn new(http: reqwest::Client, base: &str, token: Option<String>) -> Ilink {
        if let Some(token) = &token {
            crate::security::redact::hold(token);
        }
        Ilink {
            http,
            base: base.trim_end_matches('/').to_string(),
            token,
        }
    }

    /// The address calls go to.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Names the bot's session without its token: a new login is a new session, whose cursor
    /// and conversation start afresh.
    pub fn session(&self) -> String {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(self.token.as_deref().unwrap_or_default());
        hex::encode(&digest[..8])
    }

    fn post(&self, endpoint: &str) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .post(format!("{}/ilink/bot/{endpoint}", self.base))
            .header("AuthorizationType", "ilink_bot_token")
            .header("X-WECHAT-UIN", random_uin())
            .header("iLink-App-Id", APP_ID)
            .header("iLink-App-ClientVersion", client_version().to_string());
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        request
    }

    /// Sends `request` and reads its JSON answer.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ServiceError> {
        let answer = exchange(CHANNEL, request).await?;
        if !answer.status.is_success() {
            return Err(answer.refused_by_status());
        }
        answer.json()
    }

    /// A new login code (`get_bot_qrcode`); `kept` is the bot token this daemon holds, if any,
    /// so WeChat can tell a bot already bound here (`binded_redirect`).
    ///
    /// # Errors
    /// When WeChat cannot be asked or answers no code.
    pub async fn login_code(&self, kept: Option<String>) -> Result<LoginCode, ServiceError> {
        let request = self
            .post(&format!("get_bot_qrcode?bot_type={BOT_TYPE}"))
            .json(&json!({ "local_token_list": kept.into_iter().collect::<Vec<_>>() }));
        let code: LoginCode = self.call(request).await?;
        if code.qrcode.is_empty() || code.qrcode_img_content.is_empty() {
            return Err(ServiceError::Unreadable { app: CHANNEL });
        }
        Ok(code)
    }

    /// Where login `code` stands (`get_qrcode_status`, a long poll), with the number typed from
    /// the phone when WeChat asked for one. A poll that outlives its wait is `wait`.
    ///
    /// # Errors
    /// When WeChat cannot be asked.
    pub async fn login_status(
        &self,
        code: &str,
        verify_code: Option<&str>,
    ) -> Result<LoginStatus, ServiceError> {
        let request = (self.http)
            .get(format!("{}/ilink/bot/get_qrcode_status", self.base))
            .query(&[("qrcode", Some(code)), ("verify_code", verify_code)])
            .header("iLink-App-Id", APP_ID)
            .header("iLink-App-ClientVersion", client_version().to_string())
            .timeout(STATUS_WAIT + Duration::from_secs(5));
        match self.call::<LoginStatus>(request).await {
            Err(ServiceError::TimedOut { .. }) => Ok(LoginStatus {
                status: "wait".into(),
                ..LoginStatus::default()
            }),
            other => other,
        }
    }

    /// The messages since `cursor` (`getupdates`, a long poll of about `wait`).
    ///
    /// # Errors
    /// When WeChat cannot be reached or refuses (`session_ended` when the bot must log in
    /// again); `TimedOut` when the poll outlived its wait (no news, but no sign of life either).
    pub async fn updates(&self, cursor: &str, wait: Duration) -> Result<Updates, ServiceError> {
        let request = self.post("getupdates").json(&json!({
            "get_updates_buf": cursor,
            "base_info": base_info(),
        }));
        let request = request.timeout(wait + Duration::from_secs(10));
        let answer: UpdatesAnswer = self.call(request).await?;
        answer.codes.refused()?;
        Ok(Updates {
            messages: answer.msgs,
            cursor: answer.get_updates_buf.filter(|cursor| !cursor.is_empty()),
            next_wait: answer
                .longpolling_timeout_ms
                .filter(|ms| *ms > 0)
                .map(|ms| Duration::from_millis(ms.min(120_000))),
        })
    }

    /// Sends `text` to `user`, in the conversation of `context` (the last message's token).
    /// `client_id` names the message: a retry of one that may have arrived reuses it.
    ///
    /// # Errors
    /// When WeChat cannot be reached or refuses the message.
    pub async fn send_text(
        &self,
        user: &str,
        text: &str,
        context: Option<&str>,
        client_id: &str,
    ) -> Result<(), ServiceError> {
        let mut message = json!({
            "from_user_id": "",
            "to_user_id": user,
            "client_id": client_id,
            "message_type": 2,
            "message_state": 2,
            "item_list": [{"type": 1, "text_item": {"text": text}}],
        });
        if let Some(context) = context {
            message["context_token"] = Value::String(context.to_string());
        }
        let request = self.post("sendmessage").json(&json!({
            "msg": message,
            "base_info": base_info(),
        }));
        self.call::<Codes>(request).await?.refused()
    }
}

impl Codes {
    /// `ret` / `errcode` as an error, when either is not 0.
    fn refused(self) -> Result<(), ServiceError> {
        let codes = [self.ret, self.errcode].into_iter().flatten();
        let code = if codes.clone().any(|code| code == SESSION_ENDED) {
            Some(SESSION_ENDED)
        } else {
            codes.clone().find(|code| *code != 0)
        };
        match code {
            None => Ok(()),
            // Kept for a new login, which brings a new line.
            Some(SESSION_ENDED) => Err(ServiceError::refused(
                CHANNEL,
                200,
                SESSION_ENDED,
                "WeChat ended the bot's session: log in again with `hark wechat setup`",
            )
            .reading(true, false)),
            Some(code) => {
                let message =
                    hark_text::plain::cut(self.errmsg.as_deref().unwrap_or_default(), 200);
                Err(ServiceError::refused(CHANNEL, 200, code, message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_shaped_as_the_plugin_makes_them() {
        let uin = random_uin();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(uin)
            .unwrap();
        assert!(String::from_utf8(decoded).unwrap().parse::<u32>().is_ok());
        let (major, minor, patch) = (0, 1, 0);
        assert_eq!(
            env!("CARGO_PKG_VERSION"),
            format!("{major}.{minor}.{patch}"),
            "the test follows the version"
        );
        assert_eq!(client_version(), (major << 16) | (minor << 8) | patch);
    }

    #[test]
    fn a_message_reads_its_text_and_a_voice_transcript() {
        let message: Message = serde_json::from_value(json!({
            "message_id": 7_300_000_000_000_000_001_u64,
            "from_user_id": "u@im.wechat", "message_type": 1,
            "item_list": [
                {"type": 1, "text_item": {"text": "2"}},
                {"type": 2, "image_item": {}},
                {"type": 3, "voice_item": {"text": "and three"}}
            ],
            "context_token": "ctx"
        }))
        .unwrap();
        assert!(message.sent_by_a_person());
        assert_eq!(message.text().as_deref(), Some("2\nand three"));
        let picture: Message = serde_json::from_value(json!({"item_list": [{"type": 2}]})).unwrap();
        assert_eq!(picture.text(), None);
    }

    fn refused(
        ret: Option<i64>,
        errcode: Option<i64>,
        errmsg: Option<&str>,
    ) -> Result<(), ServiceError> {
        let errmsg = errmsg.map(str::to_string);
        Codes {
            ret,
            errcode,
            errmsg,
        }
        .refused()
    }

    #[test]
    fn ret_and_errcode_become_errors_and_minus_14_ends_the_session() {
        assert!(refused(Some(0), None, None).is_ok());
        assert!(session_ended(
            &refused(Some(-1), Some(-14), None).unwrap_err()
        ));
        let ended = refused(None, Some(-14), Some("session timeout")).unwrap_err();
        assert!(session_ended(&ended) && ended.passing());
        let other = refused(Some(-2), None, Some("bad")).unwrap_err();
        assert!(!session_ended(&other) && !other.passing());
        assert_eq!(
            other.to_string(),
            "WeChat refused the request (code -2: bad)"
        );
    }
}
