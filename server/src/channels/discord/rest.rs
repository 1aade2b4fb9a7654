//! Discord's REST API, the few routes Hark calls: `GET /users/@me` (the token), `GET
//! /gateway/bot` (where the Gateway is), `POST /users/@me/channels` (the direct messages),
//! `POST`/`PATCH /channels/{id}/messages[/{id}]`, and `POST /interactions/{id}/{token}/callback`.
//! `Authorization: Bot <token>` and the `User-Agent: DiscordBot (…)` Discord requires; a 429
//! says how long to wait (`retry_after`, seconds). Errors are `{code, message}`.
//!
//! Our own client rather than a Discord crate: these six routes are a few lines each over the
//! daemon's one reqwest client (its TLS, pool, outbound mark and answer cap), where the
//! maintained crates (serenity, twilight) bring a whole cache, gateway runtime and HTTP stack
//! of their own. The token travels in a header only, so no error, log line or status holds it.

use super::CHANNEL;
use crate::channels::chat::service::{ServiceError, exchange, fingerprint};
use reqwest::Method;
use reqwest::header::{AUTHORIZATION, USER_AGENT};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{Value, json};

/// Discord asks every bot to say who it is this way.
const BOT_USER_AGENT: &str = concat!(
    "DiscordBot (https://github.com/hark-dev/hark, ",
    env!("CARGO_PKG_VERSION"),
    ")"
);

/// One bot token at one REST address.
#[derive(Clone)]
pub struct Rest {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl std::fmt::Debug for Rest {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Rest(…)")
    }
}

/// Whether Discord said the token is not a bot's.
pub fn wrong_token(error: &ServiceError) -> bool {
    error.refusal().is_some_and(|refusal| refusal.status == 401)
}

/// `GET /users/@me`, and READY's `user`: the bot.
#[derive(Clone, Debug, Deserialize)]
pub struct Me {
    pub id: String,
    pub username: String,
}

/// Where a sent message is: its channel and id.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Sent {
    pub channel_id: String,
    pub id: String,
}

impl Rest {
    /// `token` at `base` (`https://discord.com/api/v10` or a stand-in).
    pub fn new(http: reqwest::Client, base: &str, token: &str) -> Rest {
        crate::security::redact::hold(token);
        Rest {
            http,
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
        }
    }

    /// Tells tokens apart without showing them: equal for the same address and token.
    pub fn fingerprint(&self) -> u64 {
        fingerprint((&self.base, &self.token))
    }

    /// The token as the Gateway's Identify and Resume carry it (without `Bot `).
    pub fn token(&self) -> &str {
        &self.token
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<T, ServiceError> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header(AUTHORIZATION, format!("Bot {}", self.token))
            .header(USER_AGENT, BOT_USER_AGENT);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = exchange(CHANNEL, request).await?;
        let status = answer.status;
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = answer
                .json::<Value>()
                .ok()
                .and_then(|body| body["retry_after"].as_f64())
                .map_or(5, |secs| secs.ceil() as u64);
            return Err(answer.rate_limited(wait));
        }
        if status == reqwest::StatusCode::NO_CONTENT
            || (status.is_success() && answer.body.is_empty())
        {
            return serde_json::from_value(Value::Null)
                .map_err(|_| ServiceError::Unreadable { app: CHANNEL });
        }
        if !status.is_success() {
            let body: Value = answer.json().unwrap_or(Value::Null);
            let code = body["code"].as_i64().unwrap_or(0);
            let message = body["message"]
                .as_str()
                .map_or_else(|| status.to_string(), str::to_string);
            // 10008 Unknown Message: deleted in Discord.
            return Err(
                ServiceError::refused(CHANNEL, status.as_u16(), code, message)
                    .reading(false, code == 10_008),
            );
        }
        answer.json()
    }

    /// `GET /users/@me`: who the token is.
    pub async fn me(&self) -> Result<Me, ServiceError> {
        self.call(Method::GET, "/users/@me", None).await
    }

    /// `GET /gateway/bot`: the Gateway's address.
    pub async fn gateway(&self) -> Result<String, ServiceError> {
        #[derive(Deserialize)]
        struct Gateway {
            url: String,
        }
        let gateway: Gateway = self.call(Method::GET, "/gateway/bot", None).await?;
        Ok(gateway.url)
    }

    /// `POST /users/@me/channels`: the direct messages with `user`.
    pub async fn direct(&self, user: &str) -> Result<String, ServiceError> {
        #[derive(Deserialize)]
        struct Channel {
            id: String,
        }
        let body = json!({ "recipient_id": user });
        let channel: Channel = self
            .call(Method::POST, "/users/@me/channels", Some(body))
            .await?;
        Ok(channel.id)
    }

    /// `POST /channels/{channel}/messages`.
    pub async fn send(&self, channel: &str, message: &Value) -> Result<Sent, ServiceError> {
        let path = format!("/channels/{channel}/messages");
        self.call(Method::POST, &path, Some(message.clone())).await
    }

    /// `PATCH /channels/{channel}/messages/{id}`: the message now shows `message`.
    pub async fn edit(&self, sent: &Sent, message: &Value) -> Result<(), ServiceError> {
        let path = format!("/channels/{}/messages/{}", sent.channel_id, sent.id);
        let edited = self
            .call::<IgnoredAny>(Method::PATCH, &path, Some(message.clone()))
            .await;
        edited.map(drop)
    }

    /// `POST /interactions/{id}/{token}/callback`: the answer to a tap or a submission (within
    /// 3 s of it).
    pub async fn respond(
        &self,
        id: &str,
        token: &str,
        response: &Value,
    ) -> Result<(), ServiceError> {
        let path = format!("/interactions/{id}/{token}/callback");
        let answered = self.call::<Option<IgnoredAny>>(Method::POST, &path, Some(response.clone()));
        answered.await.map(drop)
    }
}
