//! Feishu's and Lark's Open Platform, the few calls Hark makes: the tenant access token (which
//! also checks the App ID and App Secret), `bot/v3/info` (the app has a bot), the long
//! connection's address (`/callback/ws/endpoint`), sending a message to an open id and updating
//! a card (`im/v1/messages`). Every answer is JSON `{code, msg, …}`, `code` 0 when it worked,
//! whatever the HTTP status (the token call answers 400 to wrong credentials); 429 carries
//! `x-ogw-ratelimit-reset`. The token is fetched once and kept until ten minutes before it
//! expires, as the official SDKs keep it, and fetched again when a call says it is no longer
//! valid.
//!
//! Our own client rather than a Feishu crate: these five calls are a few lines each over the
//! daemon's one reqwest client (its TLS, pool, outbound mark and answer cap); the Rust SDKs
//! (`open-lark`) are young, bring their own HTTP stack and reach only `open.feishu.cn`. The
//! secret and the token travel in a body or a header only, so no error, log line or status
//! carries them.

use crate::channels::outbound::{MAX_ANSWER_BYTES, ReadError, read_capped};
use crate::channels::status::describe;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A token is fetched again this long before Feishu says it expires.
const TOKEN_MARGIN: Duration = Duration::from_secs(600);
/// What the address call answers when Feishu is busy (try again), rather than refusing.
const BUSY_CODES: [i64; 2] = [1, 1_000_040_343];
/// The codes of a token Feishu no longer takes: fetch a new one and try once more.
const STALE_TOKEN_CODES: [i64; 4] = [99_991_663, 99_991_664, 99_991_665, 99_991_671];

/// The tenant access token, shared by every call of one app.
#[derive(Default)]
pub struct TokenCache {
    token: Mutex<Option<(u64, String, Instant)>>,
}

/// One app (its App ID and App Secret) at one address.
#[derive(Clone)]
pub struct OpenApi {
    http: reqwest::Client,
    base: String,
    app_id: String,
    app_secret: String,
    cache: Arc<TokenCache>,
}

impl std::fmt::Debug for OpenApi {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("OpenApi(…)")
    }
}

/// What went wrong with a call, in words that never hold a secret or a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeishuError {
    /// Feishu answered with this `code` (and its `msg`).
    #[error("Feishu refused the request (code {code}: {msg})")]
    Refused { code: i64, msg: String },
    /// 429: wait this many seconds.
    #[error("Feishu asked to slow down for {0} s")]
    RateLimited(u64),
    /// No answer: the network, a proxy or Feishu is down.
    #[error("Feishu could not be reached: {0}")]
    Unreachable(String),
    /// An answer that is not the Open Platform's JSON.
    #[error("Feishu's answer could not be read")]
    Unreadable,
}

impl FeishuError {
    fn code(&self) -> Option<i64> {
        match self {
            FeishuError::Refused { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Feishu does not know the App ID.
    pub fn wrong_app_id(&self) -> bool {
        matches!(self.code(), Some(10_003 | 99_991_543))
    }

    /// Feishu does not take the App Secret (or the app is turned off).
    pub fn wrong_secret(&self) -> bool {
        matches!(self.code(), Some(10_014 | 10_015 | 20_002))
    }

    /// Whether the same call may succeed later, rather than never.
    pub fn passing(&self) -> bool {
        match self {
            FeishuError::Unreachable(_) | FeishuError::Unreadable | FeishuError::RateLimited(_) => {
                true
            }
            FeishuError::Refused { code, .. } => {
                BUSY_CODES.contains(code)
                    || STALE_TOKEN_CODES.contains(code)
                    // Rate limits, and "the system is busy" of the message calls.
                    || matches!(code, 99_991_400 | 230_020 | 11_232 | 2_200)
            }
        }
    }

    /// Whether the message is gone (recalled, deleted, or too old to change).
    pub fn message_gone(&self) -> bool {
        matches!(self.code(), Some(230_011 | 230_110 | 230_031))
    }
}

/// The long connection's address and how Feishu wants it kept (seconds). Not `Debug`: the
/// address carries a one-time ticket.
#[derive(Clone, Deserialize)]
pub struct Endpoint {
    #[serde(rename = "URL")]
    pub url: String,
    #[serde(rename = "ClientConfig", default)]
    pub client_config: ClientConfig,
}

/// `ClientConfig`, from the address call and from pongs; every part in seconds.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, rename_all = "PascalCase")]
pub struct ClientConfig {
    pub ping_interval: u64,
    pub reconnect_interval: u64,
    pub reconnect_nonce: u64,
    pub reconnect_count: i64,
}

impl Default for ClientConfig {
    /// The SDKs' defaults, until Feishu says otherwise.
    fn default() -> Self {
        ClientConfig {
            ping_interval: 120,
            reconnect_interval: 120,
            reconnect_nonce: 30,
            reconnect_count: -1,
        }
    }
}

/// The app's bot, as `bot/v3/info` describes it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Bot {
    #[serde(default)]
    pub app_name: Option<String>,
    #[serde(default)]
    pub open_id: Option<String>,
}

impl OpenApi {
    /// The app `app_id` with `app_secret` at `base` (`https://open.feishu.cn`, Lark's, or a
    /// stand-in); `cache` keeps its token between calls.
    pub fn new(
        http: reqwest::Client,
        base: &str,
        app_id: &str,
        app_secret: &str,
        cache: Arc<TokenCache>,
    ) -> OpenApi {
        crate::security::redact::hold(app_secret);
        OpenApi {
            http,
            base: base.trim_end_matches('/').to_string(),
            app_id: app_id.to_string(),
            app_secret: app_secret.to_string(),
            cache,
        }
    }

    /// Tells apps apart without showing their secret: equal for the same address and
    /// credentials.
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.base, &self.app_id, &self.app_secret).hash(&mut hasher);
        hasher.finish()
    }

    /// Sends `request` and reads Feishu's JSON answer, `code` 0 or an error.
    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, FeishuError> {
        let response = request
            .send()
            .await
            .map_err(|error| FeishuError::Unreachable(describe(&error.without_url())))?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = response
                .headers()
                .get("x-ogw-ratelimit-reset")
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(10);
            return Err(FeishuError::RateLimited(wait));
        }
        let answer =
            read_capped(response, MAX_ANSWER_BYTES)
                .await
                .map_err(|error| match error {
                    ReadError::TooLarge(_) => FeishuError::Unreadable,
                    ReadError::Failed(error) => {
                        FeishuError::Unreachable(describe(&error.without_url()))
                    }
                })?;
        let answer: Value = serde_json::from_slice(&answer).map_err(|_| {
            if status.is_success() {
                FeishuError::Unreadable
            } else {
                FeishuError::Unreachable(format!("the server answered {status}"))
            }
        })?;
        match answer["code"].as_i64() {
            Some(0) => Ok(answer),
            Some(code) => Err(FeishuError::Refused {
                code,
                msg: hark_text::plain::cut(answer["msg"].as_str().unwrap_or_default(), 200),
            }),
            None => Err(FeishuError::Unreadable),
        }
    }

    /// The tenant access token, fetched when none is kept (or `fresh`).
    async fn token(&self, fresh: bool) -> Result<String, FeishuError> {
        let app = self.fingerprint();
        if !fresh {
            let kept = self
                .cache
                .token
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .clone();
            if let Some((for_app, token, until)) = kept
                && for_app == app
                && Instant::now() < until
            {
                return Ok(token);
            }
        }
        let answer = self
            .send(
                self.http
                    .post(format!(
                        "{}/open-apis/auth/v3/tenant_access_token/internal",
                        self.base
                    ))
                    .json(&json!({"app_id": self.app_id, "app_secret": self.app_secret})),
            )
            .await?;
        let token = answer["tenant_access_token"]
            .as_str()
            .filter(|token| !token.is_empty())
            .ok_or(FeishuError::Unreadable)?
            .to_string();
        crate::security::redact::hold(&token);
        let lasts = Duration::from_secs(answer["expire"].as_u64().unwrap_or(7200));
        let until = Instant::now() + lasts.saturating_sub(TOKEN_MARGIN);
        *self
            .cache
            .token
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = Some((app, token.clone(), until));
        Ok(token)
    }

    /// Checks the App ID and App Secret (a fresh tenant token).
    pub async fn check(&self) -> Result<(), FeishuError> {
        self.token(true).await.map(|_| ())
    }

    /// A call with the tenant token; a token Feishu no longer takes is fetched again once.
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, FeishuError> {
        let mut fresh = false;
        loop {
            let token = self.token(fresh).await?;
            let mut request = self
                .http
                .request(method.clone(), format!("{}{path}", self.base))
                .bearer_auth(token);
            if let Some(body) = body {
                request = request.json(body);
            }
            match self.send(request).await {
                Err(FeishuError::Refused { code, .. })
                    if STALE_TOKEN_CODES.contains(&code) && !fresh =>
                {
                    fresh = true;
                }
                answer => return answer,
            }
        }
    }

    /// `GET /open-apis/bot/v3/info`: the app's bot (refused when the app has none).
    pub async fn bot(&self) -> Result<Bot, FeishuError> {
        let answer = self
            .call(reqwest::Method::GET, "/open-apis/bot/v3/info", None)
            .await?;
        serde_json::from_value(answer["bot"].clone()).map_err(|_| FeishuError::Unreadable)
    }

    /// `POST /callback/ws/endpoint`: a fresh address of the long connection. It takes the
    /// credentials themselves, not a token.
    pub async fn endpoint(&self) -> Result<Endpoint, FeishuError> {
        let answer = self
            .send(
                self.http
                    .post(format!("{}/callback/ws/endpoint", self.base))
                    .header("locale", "zh")
                    .json(&json!({"AppID": self.app_id, "AppSecret": self.app_secret})),
            )
            .await?;
        serde_json::from_value(answer["data"].clone()).map_err(|_| FeishuError::Unreadable)
    }

    /// Sends `content` (a card, or `{"text": …}`) to the person with `open_id`; the message's
    /// id.
    pub async fn post(
        &self,
        open_id: &str,
        kind: &str,
        content: &Value,
    ) -> Result<String, FeishuError> {
        let body = json!({"receive_id": open_id, "msg_type": kind, "content": content.to_string()});
        let answer = self
            .call(
                reqwest::Method::POST,
                "/open-apis/im/v1/messages?receive_id_type=open_id",
                Some(&body),
            )
            .await?;
        answer["data"]["message_id"]
            .as_str()
            .map(str::to_string)
            .ok_or(FeishuError::Unreadable)
    }

    /// The card of message `message_id` is now `card`.
    pub async fn update(&self, message_id: &str, card: &Value) -> Result<(), FeishuError> {
        let body = json!({"content": card.to_string()});
        self.call(
            reqwest::Method::PATCH,
            &format!("/open-apis/im/v1/messages/{message_id}"),
            Some(&body),
        )
        .await
        .map(|_| ())
    }
}
