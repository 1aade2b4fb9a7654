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

use crate::channels::outbound::{MAX_ANSWER_BYTES, ReadError, read_capped};
use crate::channels::status::describe;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Discord asks every bot to say who it is this way.
const USER_AGENT: &str = concat!(
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

/// What went wrong with a request, in words that never hold the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscordError {
    /// Discord answered with this status and its JSON error (`code`, `message`).
    #[error("Discord refused the request ({status}: {message})")]
    Refused {
        status: u16,
        code: i64,
        message: String,
    },
    /// 429: wait this many seconds.
    #[error("Discord asked to slow down for {0} s")]
    RateLimited(u64),
    /// No answer: the network, a proxy or Discord is down.
    #[error("Discord could not be reached: {0}")]
    Unreachable(String),
    /// An answer that is not Discord's JSON.
    #[error("Discord's answer could not be read")]
    Unreadable,
}

impl DiscordError {
    /// Whether Discord said the token is not a bot's.
    pub fn wrong_token(&self) -> bool {
        matches!(self, DiscordError::Refused { status: 401, .. })
    }

    /// Whether the same request may succeed later, rather than never.
    pub fn passing(&self) -> bool {
        match self {
            DiscordError::Unreachable(_)
            | DiscordError::Unreadable
            | DiscordError::RateLimited(_) => true,
            DiscordError::Refused { status, .. } => *status >= 500,
        }
    }
}

/// `GET /users/@me`: the bot.
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
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.base, &self.token).hash(&mut hasher);
        hasher.finish()
    }

    /// The token as the Gateway's Identify and Resume carry it (without `Bot `).
    pub fn token(&self) -> &str {
        &self.token
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<T, DiscordError> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Bot {}", self.token),
            )
            .header(reqwest::header::USER_AGENT, USER_AGENT);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request
            .send()
            .await
            .map_err(|error| DiscordError::Unreachable(describe(&error.without_url())))?;
        let status = response.status();
        let answer =
            read_capped(response, MAX_ANSWER_BYTES)
                .await
                .map_err(|error| match error {
                    ReadError::TooLarge(_) => DiscordError::Unreadable,
                    ReadError::Failed(error) => {
                        DiscordError::Unreachable(describe(&error.without_url()))
                    }
                })?;
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = serde_json::from_slice::<Value>(&answer)
                .ok()
                .and_then(|body| body["retry_after"].as_f64())
                .map_or(5, |secs| secs.ceil().max(1.0) as u64);
            return Err(DiscordError::RateLimited(wait));
        }
        if status == reqwest::StatusCode::NO_CONTENT || (status.is_success() && answer.is_empty()) {
            return serde_json::from_value(Value::Null).map_err(|_| DiscordError::Unreadable);
        }
        if !status.is_success() {
            let body: Value = serde_json::from_slice(&answer).unwrap_or(Value::Null);
            return Err(DiscordError::Refused {
                status: status.as_u16(),
                code: body["code"].as_i64().unwrap_or(0),
                message: body["message"]
                    .as_str()
                    .map_or_else(|| status.to_string(), str::to_string),
            });
        }
        serde_json::from_slice(&answer).map_err(|_| DiscordError::Unreadable)
    }

    /// `GET /users/@me`: who the token is.
    pub async fn me(&self) -> Result<Me, DiscordError> {
        self.call(reqwest::Method::GET, "/users/@me", None).await
    }

    /// `GET /gateway/bot`: the Gateway's address.
    pub async fn gateway(&self) -> Result<String, DiscordError> {
        #[derive(Deserialize)]
        struct Gateway {
            url: String,
        }
        let gateway: Gateway = self
            .call(reqwest::Method::GET, "/gateway/bot", None)
            .await?;
        Ok(gateway.url)
    }

    /// `POST /users/@me/channels`: the direct messages with `user`.
    pub async fn direct(&self, user: &str) -> Result<String, DiscordError> {
        #[derive(Deserialize)]
        struct Channel {
            id: String,
        }
        let channel: Channel = self
            .call(
                reqwest::Method::POST,
                "/users/@me/channels",
                Some(json!({ "recipient_id": user })),
            )
            .await?;
        Ok(channel.id)
    }

    /// `POST /channels/{channel}/messages`.
    pub async fn send(&self, channel: &str, message: &Value) -> Result<Sent, DiscordError> {
        self.call(
            reqwest::Method::POST,
            &format!("/channels/{channel}/messages"),
            Some(message.clone()),
        )
        .await
    }

    /// `PATCH /channels/{channel}/messages/{id}`: the message now shows `message`.
    pub async fn edit(&self, sent: &Sent, message: &Value) -> Result<(), DiscordError> {
        self.call::<serde::de::IgnoredAny>(
            reqwest::Method::PATCH,
            &format!("/channels/{}/messages/{}", sent.channel_id, sent.id),
            Some(message.clone()),
        )
        .await
        .map(|_| ())
    }

    /// `POST /interactions/{id}/{token}/callback`: the answer to a tap or a submission (within
    /// 3 s of it).
    pub async fn respond(
        &self,
        id: &str,
        token: &str,
        response: &Value,
    ) -> Result<(), DiscordError> {
        self.call::<Option<serde::de::IgnoredAny>>(
            reqwest::Method::POST,
            &format!("/interactions/{id}/{token}/callback"),
            Some(response.clone()),
        )
        .await
        .map(|_| ())
    }
}
