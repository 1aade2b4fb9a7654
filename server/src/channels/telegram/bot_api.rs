//! The Telegram Bot API client: frankenstein's method types and request plumbing
//! (`AsyncTelegramApi`) carried by the daemon's own reqwest client, so the bot shares its TLS,
//! its runtime and its connection pool instead of bringing a second HTTP stack. Answers are read
//! into the narrow views of `updates`. Requests go to `<apiBase>/bot<token>/<method>`; that
//! address holds the token, so no error, log line or status ever carries it.

use super::CHANNEL;
use super::updates::{Me, Sent};
use crate::channels::chat::service::{ServiceError, exchange, fingerprint};
use frankenstein::methods::{
    AnswerCallbackQueryParams, EditMessageTextParams, GetUpdatesParams, SendMessageParams,
};
use frankenstein::response::{ErrorResponse, MethodResponse};
use frankenstein::types::{LinkPreviewOptions, ReplyMarkup, ReplyParameters};
use frankenstein::{AsyncTelegramApi, ParseMode};
use std::path::PathBuf;
use std::time::Duration;

/// How long a long poll (`getUpdates`) waits for news at Telegram, in seconds.
pub const POLL_SECS: u32 = 25;

/// One bot: its address (with the token inside) and the HTTP client.
#[derive(Clone)]
pub struct BotApi {
    http: reqwest::Client,
    /// `<apiBase>/bot<token>`.
    address: String,
}

impl std::fmt::Debug for BotApi {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("BotApi(…)")
    }
}

/// Whether Telegram said the token is not a bot's (401 for a wrong one, 404 for a malformed
/// one).
pub fn wrong_token(error: &ServiceError) -> bool {
    error
        .refusal()
        .is_some_and(|refusal| matches!(refusal.status, 401 | 404))
}

/// Telegram's "the message is not modified": an edit that is already shown.
pub fn unchanged(error: &ServiceError) -> bool {
    error
        .refusal()
        .is_some_and(|refusal| refusal.message.contains("message is not modified"))
}

impl BotApi {
    /// Tells bots apart without showing their tokens: equal for the same address and token.
    pub fn fingerprint(&self) -> u64 {
        fingerprint(&self.address)
    }

    /// The bot with `token` at `api_base` (`https://api.telegram.org` or a stand-in).
    pub fn new(http: reqwest::Client, api_base: &str, token: &str) -> BotApi {
        crate::security::redact::hold(token);
        BotApi {
            http,
            address: format!("{}/bot{token}", api_base.trim_end_matches('/')),
        }
    }
}

impl BotApi {
    async fn call<Params, Output>(
        &self,
        method: &str,
        params: &Params,
    ) -> Result<Output, ServiceError>
    where
        Params: serde::Serialize + std::fmt::Debug + Send + Sync,
        Output: serde::de::DeserializeOwned,
    {
        self.request::<_, MethodResponse<Output>>(method, Some(params))
            .await
            .map(|response| response.result)
    }

    /// `getMe`: the bot, which also proves the token.
    pub async fn me(&self) -> Result<Me, ServiceError> {
        self.request::<(), MethodResponse<Me>>("getMe", None)
            .await
            .map(|response| response.result)
    }

    /// `getUpdates`, each update left as JSON to be read on its own.
    pub async fn updates(
        &self,
        params: &GetUpdatesParams,
    ) -> Result<Vec<serde_json::Value>, ServiceError> {
        self.call("getUpdates", params).await
    }

    /// `sendMessage`: `html` to `chat`, with `markup` if any, replying to `reply_to` if it is
    /// still there; the message's id.
    pub async fn send(
        &self,
        chat: i64,
        html: String,
        markup: Option<ReplyMarkup>,
        reply_to: Option<i32>,
    ) -> Result<i32, ServiceError> {
        let params = SendMessageParams::builder()
            .chat_id(chat)
            .text(html)
            .parse_mode(ParseMode::Html)
            .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
            .maybe_reply_markup(markup)
            .maybe_reply_parameters(reply_to.map(|message| {
                ReplyParameters::builder()
                    .message_id(message)
                    .allow_sending_without_reply(true)
                    .build()
            }))
            .build();
        let sent: Sent = self.call("sendMessage", &params).await?;
        Ok(sent.message_id)
    }

    /// `editMessageText` (its answer, the message again, is not needed).
    pub async fn edit(&self, params: &EditMessageTextParams) -> Result<(), ServiceError> {
        self.call::<_, serde::de::IgnoredAny>("editMessageText", params)
            .await
            .map(|_| ())
    }

    /// `answerCallbackQuery`: ends the spinner on a tapped button.
    pub async fn answer_tap(
        &self,
        query: &str,
        notice: Option<String>,
    ) -> Result<(), ServiceError> {
        let params = AnswerCallbackQueryParams::builder()
            .callback_query_id(query)
            .maybe_text(notice)
            .build();
        self.call::<_, bool>("answerCallbackQuery", &params)
            .await
            .map(|_| ())
    }
}

#[async_trait::async_trait]
impl AsyncTelegramApi for BotApi {
    type Error = ServiceError;

    async fn request<Params, Output>(
        &self,
        method: &str,
        params: Option<Params>,
    ) -> Result<Output, ServiceError>
    where
        Params: serde::ser::Serialize + std::fmt::Debug + std::marker::Send,
        Output: serde::de::DeserializeOwned,
    {
        let mut request = self.http.post(format!("{}/{method}", self.address));
        if method == "getUpdates" {
            // A long poll outlives the client's usual limit by design.
            request = request.timeout(Duration::from_secs(u64::from(POLL_SECS) + 15));
        }
        if let Some(params) = params {
            request = request.json(&params);
        }
        let answer = exchange(CHANNEL, request).await?;
        if answer.status.is_success() {
            return answer.json();
        }
        let status = answer.status.as_u16();
        let Ok(refusal) = answer.json::<ErrorResponse>() else {
            // A proxy's or a load balancer's page, not Telegram's JSON.
            let reason = answer
                .status
                .canonical_reason()
                .unwrap_or("no reason given");
            let refused = ServiceError::refused(CHANNEL, status, 0, reason);
            return Err(refused.reading(status == 429, false));
        };
        if let Some(secs) = refusal
            .parameters
            .and_then(|parameters| parameters.retry_after)
        {
            return Err(answer.rate_limited(u64::from(secs)));
        }
        let message = refusal.description;
        let gone = message.contains("message to edit not found");
        let status = u16::try_from(refusal.error_code).unwrap_or(status);
        Err(ServiceError::refused(CHANNEL, status, 0, message).reading(status == 429, gone))
    }

    async fn request_with_form_data<Params, Output>(
        &self,
        method: &str,
        _params: Params,
        _files: Vec<(&str, PathBuf)>,
    ) -> Result<Output, ServiceError>
    where
        Params: serde::ser::Serialize + std::fmt::Debug + std::marker::Send,
        Output: serde::de::DeserializeOwned,
    {
        // Hark sends text and buttons only; no method it calls uploads a file.
        let refusal = format!("{method} with a file is not something Hark sends");
        Err(ServiceError::refused(CHANNEL, 400, 0, refusal))
    }
}
