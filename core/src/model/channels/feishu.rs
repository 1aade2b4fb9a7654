//! Config key `channels.feishu` and what the Feishu/Lark bot reports and refuses (SPEC §17): a
//! self-built app whose bot keeps the long connection open, sends each question to the paired
//! person as an interactive card (buttons; a form for multi-select and own words) and takes
//! the card's callbacks back. Its App ID and App Secret are in `secrets.json`.

use super::PairingCode;
use super::address::web_address;
use super::hidden::Hidden;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// Feishu's Open Platform (China) unless `channels.feishu.apiBase` says otherwise.
pub const FEISHU_API: &str = "https://open.feishu.cn";
/// Lark's, the same platform outside China.
pub const LARK_API: &str = "https://open.larksuite.com";

/// `channels.feishu`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Feishu {
    pub enabled: bool,
    /// `https://open.feishu.cn`, `https://open.larksuite.com`, or a test's stand-in.
    pub api_base: String,
    /// The one person (their `ou_…` open id in this app) who receives and may answer
    /// questions, set by pairing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_id: Option<String>,
}

impl Default for Feishu {
    fn default() -> Self {
        Self {
            enabled: false,
            api_base: FEISHU_API.to_string(),
            open_id: None,
        }
    }
}

/// The Feishu/Lark bot as settings and `hark feishu setup` show it (never its secret).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeishuReport {
    /// Whether the App ID and App Secret are saved.
    pub token: bool,
    /// The app's name, once Feishu confirmed the credentials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Where the app lives: `https://open.feishu.cn` or `https://open.larksuite.com`.
    #[serde(default)]
    pub api_base: String,
    /// Whether the long connection is open now.
    pub connected: bool,
    /// Whether a person is paired.
    pub paired: bool,
    /// People paired since the daemon started (a pairing that took place shows as a new count).
    #[serde(default)]
    pub pairings: u64,
    /// The code to send the bot as `pair <code>` in a direct message, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<PairingCode>,
}

/// `POST /api/feishu/setup`: new credentials (checked with Feishu before they are saved), or
/// none to keep the saved ones and only make a new pairing code. `apiBase` moves the app to
/// Lark (`https://open.larksuite.com`) or back.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeishuSetup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_base: Option<String>,
}

/// Shows whether each secret was given, never what it is.
impl std::fmt::Debug for FeishuSetup {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FeishuSetup")
            .field("app_id", &self.app_id)
            .field("app_secret", &Hidden(&self.app_secret))
            .field("api_base", &self.api_base)
            .finish()
    }
}

/// Why Feishu could not be set up; `message` is for the API and the CLI, settings says it in
/// the person's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum FeishuRefusal {
    /// The App ID does not start with `cli_`.
    AppIdShape,
    /// `apiBase` is not a web address.
    ApiBase { reason: String },
    /// Feishu does not know the App ID.
    WrongAppId,
    /// Feishu does not take the App Secret for this App ID.
    WrongAppSecret,
    /// The credentials are right but the app has no bot (or it is not published yet).
    NoBot { reason: String },
    /// The App ID or the App Secret is missing and none is saved.
    NoCredentials,
    /// Feishu could not be asked; `reason` says why.
    Unreachable { reason: String },
    /// The credentials could not be saved.
    SaveFailed,
}

impl super::SetupRefusal for FeishuRefusal {
    fn status(&self) -> u16 {
        match self {
            FeishuRefusal::AppIdShape
            | FeishuRefusal::ApiBase { .. }
            | FeishuRefusal::NoCredentials => 400,
            FeishuRefusal::WrongAppId
            | FeishuRefusal::WrongAppSecret
            | FeishuRefusal::NoBot { .. } => 422,
            FeishuRefusal::Unreachable { .. } => 502,
            FeishuRefusal::SaveFailed => 500,
        }
    }

    fn field(&self) -> &'static str {
        match self {
            FeishuRefusal::AppIdShape
            | FeishuRefusal::WrongAppId
            | FeishuRefusal::NoBot { .. }
            | FeishuRefusal::NoCredentials => "appId",
            FeishuRefusal::ApiBase { .. } => "apiBase",
            _ => "appSecret",
        }
    }

    fn message(&self) -> String {
        match self {
            FeishuRefusal::AppIdShape => "appId does not look like an App ID: the console's Credentials & Basic Info page gives one that starts with cli_".into(),
            FeishuRefusal::ApiBase { reason } => format!("apiBase {reason}"),
            FeishuRefusal::WrongAppId => "appId is not known to Feishu/Lark: copy it again from Credentials & Basic Info (and check Feishu or Lark)".into(),
            FeishuRefusal::WrongAppSecret => "appSecret is not taken for this App ID: copy the App Secret again from Credentials & Basic Info".into(),
            FeishuRefusal::NoBot { reason } => format!("appId has no bot Hark can use: add the Bot feature and publish a version ({reason})"),
            FeishuRefusal::NoCredentials => "appId and appSecret are needed: no Feishu/Lark app is saved yet".into(),
            FeishuRefusal::Unreachable { reason } => format!("appSecret could not be checked: {reason}"),
            FeishuRefusal::SaveFailed => "appSecret could not be saved in secrets.json".into(),
        }
    }
}

/// `apiBase` of a setup, checked and tidied: a web address, or why not (after "apiBase ").
pub fn setup_api_base(text: &str) -> Result<String, FeishuRefusal> {
    web_address("apiBase", text).map_err(|error| FeishuRefusal::ApiBase {
        reason: error
            .error
            .strip_prefix("apiBase ")
            .unwrap_or(&error.error)
            .to_string(),
    })
}

/// Checks and tidies `channels.feishu`.
pub(super) fn check(feishu: &mut Feishu) -> Result<(), ErrorBody> {
    feishu.api_base = web_address("channels.feishu.apiBase", &feishu.api_base)?;
    if let Some(open_id) = &feishu.open_id
        && (!open_id.starts_with("ou_")
            || !open_id
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_'))
    {
        return Err(ErrorBody::field(
            "channels.feishu.openId",
            "channels.feishu.openId must be an open id such as ou_7d8a6e6df7621556ce0d21922b676706 (pair with `hark feishu setup`)",
        ));
    }
    Ok(())
}

impl super::ChatAppSettings for Feishu {
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
        self.open_id.clone()
    }

    fn pair(&mut self, person: Option<String>) {
        self.open_id = person;
    }
}

impl super::PairingReport for FeishuReport {
    fn shared(&self) -> super::ChatAppState<'_> {
        super::ChatAppState {
            token: self.token,
            bot: self.bot.as_deref(),
            connected: Some(self.connected),
            paired: self.paired,
            pairings: self.pairings,
            pairing: self.pairing.as_ref(),
        }
    }
}
