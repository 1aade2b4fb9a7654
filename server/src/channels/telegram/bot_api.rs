//! The Telegram Bot API client: frankenstein's method and answer types, carried by the daemon's
//! own reqwest client, so the bot shares its TLS, its runtime and its connection pool instead
//! of bringing a second HTTP stack. Answers are read
//! into the narrow views of `updates`. Requests go to `<apiBase>/bot<token>/<method>`; that
//! address holds the token, so no error, log line or status ever carries it.

use super::CHANNEL;
use super::updates::{Me, Sent};
use crate::channels::chat::service::{ServiceError, exchange, fingerprint};
use frankenstein::ParseMode;
use frankenstein::methods::{
    AnswerCallbackQueryParams, EditMessageTextParams, GetUpdatesParams, SendMessageParams,
};
use frankenstein::response::{ErrorResponse, MethodResponse};
use frankenstein::types::{LinkPreviewOptions, ReplyMarkup, ReplyParameters};
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};
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

    /// Calls `method` with `params`, and reads its result.
    async fn call<Output: DeserializeOwned>(
        &self,
        method: &str,
        params: Option<&impl Serialize>,
    ) -> Result<Output, ServiceError> {
        let mut request = self.http.post(format!("{}/{method}", self.address));
        if method == "getUpdates" {
            // A long poll outlives the client's usual limit by design.
            request = request.timeout(Duration::from_secs(u64::from(POLL_SECS) + 15));
        }
        if let Some(params) = params {
            request = request.json(params);
        }
        let answer = exchange(CHANNEL, request).await?;
        if answer.status.is_success() {
            return answer
                .json()
                .map(|response: MethodResponse<Output>| response.result);
        }
        let Ok(refusal) = answer.json::<ErrorResponse>() else {
            // A proxy's or a load balancer's page, not Telegram's JSON.
            return Err(answer.refused_by_status());
        };
        if let Some(secs) = refusal
            .parameters
            .and_then(|parameters| parameters.retry_after)
        {
            return Err(answer.rate_limited(u64::from(secs)));
        }
        let message = refusal.description;
        let gone = message.contains("message to edit not found");
        let status = u16::try_from(refusal.error_code).unwrap_or(answer.status.as_u16());
        Err(ServiceError::refused(CHANNEL, status, 0, message).reading(status == 429, gone))
    }

    /// `getMe`: the bot, which also proves the token.
    pub async fn me(&self) -> Result<Me, ServiceError> {
        self.call("getMe", None::<&()>).await
    }

    /// `getUpdates`, each update left as JSON to be read on its own.
    pub async fn updates(
        &self,
        params: &GetUpdatesParams,
    ) -> Result<Vec<serde_json::Value>, ServiceError> {
        self.call("getUpdates", Some(params)).await
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
        let sent: Sent = self.call("sendMessage", Some(&params)).await?;
        Ok(sent.message_id)
    }

    /// `editMessageText` (its answer, the message again, is not needed).
    pub async fn edit(&self, params: &EditMessageTextParams) -> Result<(), ServiceError> {
        let _: IgnoredAny = self.call("editMessageText", Some(params)).await?;
        Ok(())
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
        let _: bool = self.call("answerCallbackQuery", Some(&params)).await?;
        Ok(())
    }
}
