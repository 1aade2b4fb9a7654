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

use super::CHANNEL;
use crate::channels::chat::service::{ServiceError, exchange, fingerprint};
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

impl TokenCache {
    fn kept(&self) -> std::sync::MutexGuard<'_, Option<(u64, String, Instant)>> {
        self.token
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
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

fn code(error: &ServiceError) -> Option<i64> {
    error.refusal().map(|refusal| refusal.code)
}

/// Feishu does not know the App ID.
pub fn wrong_app_id(error: &ServiceError) -> bool {
    matches!(code(error), Some(10_003 | 99_991_543))
}

/// Feishu does not take the App Secret (or the app is turned off).
pub fn wrong_secret(error: &ServiceError) -> bool {
    matches!(code(error), Some(10_014 | 10_015 | 20_002))
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
    pub app_name: Option<String>,
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
        fingerprint((&self.base, &self.app_id, &self.app_secret))
    }

    /// Sends `request` and reads Feishu's JSON answer, `code` 0 or an error.
    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, ServiceError> {
        let answer = exchange(CHANNEL, request).await?;
        let status = answer.status;
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = answer.header_secs("x-ogw-ratelimit-reset").unwrap_or(10);
            return Err(answer.rate_limited(wait));
        }
        let body = answer.service_json()?;
        match body["code"].as_i64() {
            Some(0) => Ok(body),
            Some(code) => {
                let message = hark_text::plain::cut(body["msg"].as_str().unwrap_or_default(), 200);
                // Busy, a token to fetch again, rate limits and "the system is busy" of the
                // message calls pass; a message recalled, deleted or too old to change is gone.
                let passing = BUSY_CODES.contains(&code)
                    || STALE_TOKEN_CODES.contains(&code)
                    || matches!(code, 99_991_400 | 230_020 | 11_232 | 2_200);
                let gone = matches!(code, 230_011 | 230_110 | 230_031);
                Err(
                    ServiceError::refused(CHANNEL, status.as_u16(), code, message)
                        .reading(passing, gone),
                )
            }
            None => Err(ServiceError::Unreadable { app: CHANNEL }),
        }
    }

    /// The tenant access token, fetched when none is kept (or `fresh`).
    async fn token(&self, fresh: bool) -> Result<String, ServiceError> {
        let app = self.fingerprint();
        if !fresh
            && let Some((for_app, token, until)) = self.cache.kept().clone()
            && for_app == app
            && Instant::now() < until
        {
            return Ok(token);
        }
        let url = format!(
            "{}/open-apis/auth/v3/tenant_access_token/internal",
            self.base
        );
        let credentials = json!({"app_id": self.app_id, "app_secret": self.app_secret});
        let answer = self.send(self.http.post(url).json(&credentials)).await?;
        let token = answer["tenant_access_token"]
            .as_str()
            .filter(|token| !token.is_empty())
            .ok_or(ServiceError::Unreadable { app: CHANNEL })?
            .to_string();
        crate::security::redact::hold(&token);
        let lasts = Duration::from_secs(answer["expire"].as_u64().unwrap_or(7200));
        let until = Instant::now() + lasts.saturating_sub(TOKEN_MARGIN);
        *self.cache.kept() = Some((app, token.clone(), until));
        Ok(token)
    }

    /// Checks the App ID and App Secret (a fresh tenant token).
    pub async fn check(&self) -> Result<(), ServiceError> {
        self.token(true).await.map(|_| ())
    }

    /// A call with the tenant token; a token Feishu no longer takes is fetched again once.
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, ServiceError> {
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
                Err(error)
                    if code(&error).is_some_and(|code| STALE_TOKEN_CODES.contains(&code))
                        && !fresh =>
                {
                    fresh = true;
                }
                answer => return answer,
            }
        }
    }

    /// `GET /open-apis/bot/v3/info`: the app's bot (refused when the app has none).
    pub async fn bot(&self) -> Result<Bot, ServiceError> {
        let answer = self
            .call(reqwest::Method::GET, "/open-apis/bot/v3/info", None)
            .await?;
        serde_json::from_value(answer["bot"].clone())
            .map_err(|_| ServiceError::Unreadable { app: CHANNEL })
    }

    /// `POST /callback/ws/endpoint`: a fresh address of the long connection. It takes the
    /// credentials themselves, not a token.
    pub async fn endpoint(&self) -> Result<Endpoint, ServiceError> {
        let url = format!("{}/callback/ws/endpoint", self.base);
        let credentials = json!({"AppID": self.app_id, "AppSecret": self.app_secret});
        let request = self
            .http
            .post(url)
            .header("locale", "zh")
            .json(&credentials);
        let answer = self.send(request).await?;
        serde_json::from_value(answer["data"].clone())
            .map_err(|_| ServiceError::Unreadable { app: CHANNEL })
    }

    /// Sends `content` (a card, or `{"text": …}`) to the person with `open_id`; the message's
    /// id.
    pub async fn post(
        &self,
        open_id: &str,
        kind: &str,
        content: &Value,
    ) -> Result<String, ServiceError> {
        let body = json!({"receive_id": open_id, "msg_type": kind, "content": content.to_string()});
        let path = "/open-apis/im/v1/messages?receive_id_type=open_id";
        let answer = self.call(reqwest::Method::POST, path, Some(&body)).await?;
        answer["data"]["message_id"]
            .as_str()
            .map(str::to_string)
            .ok_or(ServiceError::Unreadable { app: CHANNEL })
    }

    /// The card of message `message_id` is now `card`.
    pub async fn update(&self, message_id: &str, card: &Value) -> Result<(), ServiceError> {
        let path = format!("/open-apis/im/v1/messages/{message_id}");
        let body = json!({"content": card.to_string()});
        let updated = self.call(reqwest::Method::PATCH, &path, Some(&body)).await;
        updated.map(drop)
    }
}
