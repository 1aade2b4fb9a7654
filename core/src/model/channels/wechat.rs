//! Config key `channels.wechat` and what the WeChat channel reports and refuses (SPEC §17): a
//! personal WeChat account, logged in by scanning a QR code with Tencent's iLink bot API, receives
//! each question as text and answers it by replying. The bot token is in `secrets.json`; the
//! config keeps only the WeChat user who confirmed the login, the one person who may answer.

use super::address::web_address;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// The iLink bot API's address unless `channels.wechat.apiBase` says otherwise.
pub const WECHAT_API: &str = "https://ilinkai.weixin.qq.com";

/// `channels.wechat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Wechat {
    pub enabled: bool,
    /// Where the iLink bot API answers (a test's stand-in).
    pub api_base: String,
    /// The iLink user id of the WeChat account that confirmed the login: the only one whose
    /// replies count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

impl Default for Wechat {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: WECHAT_API.to_string(),
            user_id: None,
        }
    }
}

/// Where a login by QR code stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WechatLoginState {
    /// The code waits to be scanned.
    Waiting,
    /// Scanned; WeChat asks the person to confirm on the phone (or checks the number typed).
    Scanned,
    /// WeChat shows a number on the phone that must be typed here (`POST /api/wechat/verify`).
    NeedsCode,
    /// Confirmed: the bot token is kept and the account that scanned may answer.
    Confirmed,
    /// The code expired before it was confirmed: start again.
    Expired,
    /// The login ended without a bot; the login's `reason` says why.
    Failed,
}

impl WechatLoginState {
    /// Whether the login still waits for the person.
    pub fn going(self) -> bool {
        matches!(
            self,
            WechatLoginState::Waiting | WechatLoginState::Scanned | WechatLoginState::NeedsCode
        )
    }
}

/// A login in progress (or just ended): the code to scan and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WechatLogin {
    /// What the QR code holds (a `https://` link WeChat opens).
    pub qrcode_url: String,
    /// The QR code as SVG, drawn by the daemon from `qrcode_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qr_svg: Option<String>,
    pub state: WechatLoginState,
    /// WeChat asks for the number again: the last one typed was wrong.
    #[serde(default)]
    pub wrong_code: bool,
    /// Why the login failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When the daemon stops waiting for this code.
    #[serde(deserialize_with = "crate::model::rfc3339::deserialize")]
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// The WeChat channel as settings and `hark wechat setup` show it (never its token).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WechatReport {
    /// Whether a bot token is saved.
    pub token: bool,
    /// Whether a WeChat account is paired (it confirmed the login).
    pub paired: bool,
    /// WeChat ended the bot's session (errcode -14): log in again.
    #[serde(default)]
    pub session_expired: bool,
    /// Logins confirmed since the daemon started (a login that took shows as a new count).
    #[serde(default)]
    pub logins: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<WechatLogin>,
}

/// `POST /api/wechat/verify`: the number WeChat shows on the phone during a login.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WechatVerify {
    pub code: String,
}

/// Why a WeChat login could not start or go on; `message` is for the API and the CLI, settings
/// says it in the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum WechatRefusal {
    /// The iLink API could not be asked for a login code; `reason` says why.
    Unreachable { reason: String },
    /// No login waits for a number.
    NoLogin,
    /// The number is not the digits WeChat shows.
    CodeShape,
    /// Something could not be saved.
    SaveFailed,
}

impl super::SetupRefusal for WechatRefusal {
    /// The HTTP status this refusal is answered with.
    fn status(&self) -> u16 {
        match self {
            WechatRefusal::Unreachable { .. } => 502,
            WechatRefusal::NoLogin => 409,
            WechatRefusal::CodeShape => 400,
            WechatRefusal::SaveFailed => 500,
        }
    }

    fn field(&self) -> &'static str {
        match self {
            WechatRefusal::CodeShape | WechatRefusal::NoLogin => "code",
            WechatRefusal::Unreachable { .. } | WechatRefusal::SaveFailed => "apiBase",
        }
    }

    fn message(&self) -> String {
        match self {
            WechatRefusal::Unreachable { reason } => {
                format!("apiBase could not be asked for a login code: {reason}")
            }
            WechatRefusal::NoLogin => {
                "code is not awaited: no WeChat login asks for one (start with `hark wechat setup`)"
                    .into()
            }
            WechatRefusal::CodeShape => "code must be the digits WeChat shows on the phone".into(),
            WechatRefusal::SaveFailed => {
                "apiBase: the WeChat login could not be saved in secrets.json".into()
            }
        }
    }
}

/// Checks and tidies `channels.wechat`.
pub(super) fn check(wechat: &mut Wechat) -> Result<(), ErrorBody> {
    wechat.api_base = web_address("channels.wechat.apiBase", &wechat.api_base)?;
    if let Some(user) = &wechat.user_id {
        let user = user.trim();
        if user.is_empty() || user.len() > 256 || user.chars().any(char::is_control) {
            return Err(ErrorBody::field(
                "channels.wechat.userId",
                "channels.wechat.userId must be the iLink user id that confirmed the login (log in with `hark wechat setup`)",
            ));
        }
        wechat.user_id = Some(user.to_string());
    }
    Ok(())
}

impl super::ChatAppSettings for Wechat {
    fn api_base(&self) -> &str {
        &self.api_base
    }

    fn enabled(&self) -> bool {
        self.enabled
    }

    fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    fn person(&self) -> Option<String> {
        self.user_id.clone()
    }

    fn pair(&mut self, person: Option<String>) {
        self.user_id = person;
    }
}
