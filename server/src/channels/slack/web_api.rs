//! Slack's Web API, the few methods Hark calls: `auth.test` (the bot token), `apps.connections.open`
//! (the app-level token: the Socket Mode address), `conversations.open`, `chat.postMessage`,
//! `chat.update` and `views.open`. JSON bodies with `Authorization: Bearer`, as Slack's SDKs
//! send them; every answer is HTTP 200 with `{ok, error?}` except 429 with `Retry-After`.
//!
//! Our own client rather than a Slack crate: these six calls are a few lines each over the
//! daemon's one reqwest client (its TLS, pool, outbound mark and answer cap), where the
//! maintained Slack crates (slack-morphism) bring a second HTTP stack of their own. The token
//! travels in a header only, so no error, log line or status carries it.

use super::render;
use crate::channels::outbound::{MAX_ANSWER_BYTES, ReadError, read_capped};
use crate::channels::status::describe;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// One token at one Web API address.
#[derive(Clone)]
pub struct WebApi {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl std::fmt::Debug for WebApi {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("WebApi(…)")
    }
}

/// What went wrong with a call, in words that never hold a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlackError {
    /// Slack answered `ok: false` with this error code (`invalid_auth`, `channel_not_found`…).
    #[error("Slack refused the request ({0})")]
    Refused(String),
    /// 429: wait this many seconds.
    #[error("Slack asked to slow down for {0} s")]
    RateLimited(u64),
    /// No answer: the network, a proxy or Slack is down.
    #[error("Slack could not be reached: {0}")]
    Unreachable(String),
    /// An answer that is not the Web API's JSON.
    #[error("Slack's answer could not be read")]
    Unreadable,
}

impl SlackError {
    /// Whether Slack said the token is not one it takes.
    pub fn wrong_token(&self) -> bool {
        matches!(self, SlackError::Refused(code) if matches!(code.as_str(),
            "invalid_auth" | "not_authed" | "account_inactive" | "token_revoked"
            | "token_expired" | "not_allowed_token_type" | "missing_scope"))
    }

    /// Whether the same call may succeed later, rather than never.
    pub fn passing(&self) -> bool {
        match self {
            SlackError::Unreachable(_) | SlackError::Unreadable | SlackError::RateLimited(_) => {
                true
            }
            SlackError::Refused(code) => {
                matches!(
                    code.as_str(),
                    "internal_error"
                        | "fatal_error"
                        | "ratelimited"
                        | "service_unavailable"
                        | "request_timeout"
                )
            }
        }
    }
}

/// `auth.test`'s answer: the bot and its workspace.
#[derive(Clone, Debug, Deserialize)]
pub struct Identity {
    /// The bot's own user (its messages come back as events: they are not the person's).
    pub user_id: String,
    #[serde(default)]
    pub user: Option<String>,
    #[serde(default)]
    pub team: Option<String>,
}

/// Where a posted message is: its conversation and timestamp (its id in Slack).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Posted {
    pub channel: String,
    pub ts: String,
}

impl WebApi {
    /// `token` at `base` (`https://slack.com/api` or a stand-in).
    pub fn new(http: reqwest::Client, base: &str, token: &str) -> WebApi {
        crate::security::redact::hold(token);
        WebApi {
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

    async fn call<T: DeserializeOwned>(&self, method: &str, body: Value) -> Result<T, SlackError> {
        let response = self
            .http
            .post(format!("{}/{method}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .map_err(|error| SlackError::Unreachable(describe(&error.without_url())))?;
        if response.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(30);
            return Err(SlackError::RateLimited(wait));
        }
        let status = response.status();
        let answer =
            read_capped(response, MAX_ANSWER_BYTES)
                .await
                .map_err(|error| match error {
                    ReadError::TooLarge(_) => SlackError::Unreadable,
                    ReadError::Failed(error) => {
                        SlackError::Unreachable(describe(&error.without_url()))
                    }
                })?;
        let answer: Value = serde_json::from_slice(&answer).map_err(|_| {
            if status.is_success() {
                SlackError::Unreadable
            } else {
                SlackError::Unreachable(format!("the server answered {status}"))
            }
        })?;
        if answer["ok"] != Value::Bool(true) {
            let code = answer["error"].as_str().unwrap_or("unknown_error");
            return Err(SlackError::Refused(code.to_string()));
        }
        serde_json::from_value(answer).map_err(|_| SlackError::Unreadable)
    }

    /// `auth.test`: who the bot token is.
    pub async fn identity(&self) -> Result<Identity, SlackError> {
        self.call("auth.test", json!({})).await
    }

    /// `apps.connections.open` (with the app-level token): a fresh Socket Mode address.
    pub async fn socket_address(&self) -> Result<String, SlackError> {
        #[derive(Deserialize)]
        struct Opened {
            url: String,
        }
        let opened: Opened = self.call("apps.connections.open", json!({})).await?;
        Ok(opened.url)
    }

    /// `conversations.open`: the direct-message conversation with `user`.
    pub async fn direct(&self, user: &str) -> Result<String, SlackError> {
        #[derive(Deserialize)]
        struct Opened {
            channel: Channel,
        }
        #[derive(Deserialize)]
        struct Channel {
            id: String,
        }
        let opened: Opened = self
            .call("conversations.open", json!({"users": user}))
            .await?;
        Ok(opened.channel.id)
    }

    /// `chat.postMessage`: `text` (what notifications show) with `blocks`.
    pub async fn post(
        &self,
        channel: &str,
        text: &str,
        blocks: &Value,
    ) -> Result<Posted, SlackError> {
        self.call(
            "chat.postMessage",
            json!({"channel": channel, "text": render::escape(text), "blocks": blocks, "unfurl_links": false}),
        )
        .await
    }

    /// `chat.update`: the message at `posted` now shows `text` and `blocks`.
    pub async fn update(
        &self,
        posted: &Posted,
        text: &str,
        blocks: &Value,
    ) -> Result<(), SlackError> {
        self.call::<serde::de::IgnoredAny>(
            "chat.update",
            json!({"channel": posted.channel, "ts": posted.ts, "text": render::escape(text), "blocks": blocks}),
        )
        .await
        .map(|_| ())
    }

    /// `views.open`: a modal, for the tap that gave `trigger_id` (valid 3 s, once).
    pub async fn open_view(&self, trigger_id: &str, view: &Value) -> Result<(), SlackError> {
        self.call::<serde::de::IgnoredAny>(
            "views.open",
            json!({"trigger_id": trigger_id, "view": view}),
        )
        .await
        .map(|_| ())
    }
}
