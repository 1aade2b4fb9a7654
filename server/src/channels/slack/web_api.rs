//! Slack's Web API, the few methods Hark calls: `auth.test` (the bot token), `apps.connections.open`
//! (the app-level token: the Socket Mode address), `conversations.open`, `chat.postMessage`,
//! `chat.update` and `views.open`. JSON bodies with `Authorization: Bearer`, as Slack's SDKs
//! send them; every answer is HTTP 200 with `{ok, error?}` except 429 with `Retry-After`.
//!
//! Our own client rather than a Slack crate: these six calls are a few lines each over the
//! daemon's one reqwest client (its TLS, pool, outbound mark and answer cap), where the
//! maintained Slack crates (slack-morphism) bring a second HTTP stack of their own. The token
//! travels in a header only, so no error, log line or status carries it.

use super::CHANNEL;
use super::render;
use crate::channels::chat::service::{ServiceError, exchange, fingerprint};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
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

/// Whether Slack said the token is not one it takes.
pub fn wrong_token(error: &ServiceError) -> bool {
    error.refusal().is_some_and(|refusal| {
        matches!(
            refusal.message.as_str(),
            "invalid_auth"
                | "not_authed"
                | "account_inactive"
                | "token_revoked"
                | "token_expired"
                | "not_allowed_token_type"
                | "missing_scope"
        )
    })
}

/// `auth.test`'s answer: the bot and its workspace.
#[derive(Clone, Debug, Deserialize)]
pub struct Identity {
    /// The bot's own user (its messages come back as events: they are not the person's).
    pub user_id: String,
    pub user: Option<String>,
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
        fingerprint((&self.base, &self.token))
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        body: Value,
    ) -> Result<T, ServiceError> {
        let request = self
            .http
            .post(format!("{}/{method}", self.base))
            .bearer_auth(&self.token)
            .json(&body);
        let answer = exchange(CHANNEL, request).await?;
        if answer.status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = answer.header_secs("retry-after").unwrap_or(30);
            return Err(answer.rate_limited(wait));
        }
        let body = answer.service_json()?;
        if body["ok"] != Value::Bool(true) {
            // Every answer is HTTP 200: the error code says what passes.
            let code = body["error"].as_str().unwrap_or("unknown_error");
            let passing = matches!(
                code,
                "internal_error"
                    | "fatal_error"
                    | "ratelimited"
                    | "service_unavailable"
                    | "request_timeout"
            );
            return Err(ServiceError::refused(CHANNEL, 200, 0, code)
                .reading(passing, code == "message_not_found"));
        }
        serde_json::from_value(body).map_err(|_| ServiceError::Unreadable { app: CHANNEL })
    }

    /// `auth.test`: who the bot token is.
    pub async fn identity(&self) -> Result<Identity, ServiceError> {
        self.call("auth.test", json!({})).await
    }

    /// `apps.connections.open` (with the app-level token): a fresh Socket Mode address.
    pub async fn socket_address(&self) -> Result<String, ServiceError> {
        #[derive(Deserialize)]
        struct Opened {
            url: String,
        }
        let opened: Opened = self.call("apps.connections.open", json!({})).await?;
        Ok(opened.url)
    }

    /// `conversations.open`: the direct-message conversation with `user`.
    pub async fn direct(&self, user: &str) -> Result<String, ServiceError> {
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
    ) -> Result<Posted, ServiceError> {
        let text = render::escape(text);
        let body =
            json!({"channel": channel, "text": text, "blocks": blocks, "unfurl_links": false});
        self.call("chat.postMessage", body).await
    }

    /// `chat.update`: the message at `posted` now shows `text` and `blocks`.
    pub async fn update(
        &self,
        posted: &Posted,
        text: &str,
        blocks: &Value,
    ) -> Result<(), ServiceError> {
        let text = render::escape(text);
        let body =
            json!({"channel": posted.channel, "ts": posted.ts, "text": text, "blocks": blocks});
        self.call::<IgnoredAny>("chat.update", body).await.map(drop)
    }

    /// `views.open`: a modal, for the tap that gave `trigger_id` (valid 3 s, once).
    pub async fn open_view(&self, trigger_id: &str, view: &Value) -> Result<(), ServiceError> {
        let body = json!({"trigger_id": trigger_id, "view": view});
        self.call::<IgnoredAny>("views.open", body).await.map(drop)
    }
}
