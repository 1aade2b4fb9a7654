//! The Telegram Bot API client: frankenstein's method types and request plumbing
//! (`AsyncTelegramApi`) carried by the daemon's own reqwest client, so the bot shares its TLS,
//! its runtime and its connection pool instead of bringing a second HTTP stack. Answers are read
//! into the narrow views of `updates`. Requests go to `<apiBase>/bot<token>/<method>`; that
//! address holds the token, so no error, log line or status ever carries it.

use super::super::outbound::{MAX_ANSWER_BYTES, ReadError, read_capped};
use super::super::status::describe;
use super::updates::{Me, Sent};
use frankenstein::AsyncTelegramApi;
use frankenstein::methods::{
    AnswerCallbackQueryParams, EditMessageTextParams, GetUpdatesParams, SendMessageParams,
};
use frankenstein::response::{ErrorResponse, MethodResponse};
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

/// What went wrong with a request, in words that never hold the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// Telegram answered, and refused.
    #[error("Telegram refused the request ({code}: {description})")]
    Refused {
        code: u64,
        description: String,
        /// Seconds to wait before the next request, when Telegram asks for it (429).
        retry_after: Option<u64>,
    },
    /// No answer: the network, a proxy or Telegram is down.
    #[error("Telegram could not be reached: {0}")]
    Unreachable(String),
    /// An answer that is not the Bot API's JSON.
    #[error("Telegram's answer could not be read")]
    Unreadable,
    /// An answer larger than any the Bot API gives (`outbound::MAX_ANSWER_BYTES`).
    #[error("Telegram's answer was larger than any the Bot API gives; it was not read")]
    TooLarge,
}

impl BotError {
    /// Whether Telegram said the token is not a bot's (401 for a wrong one, 404 for a
    /// malformed one).
    pub fn wrong_token(&self) -> bool {
        matches!(
            self,
            BotError::Refused {
                code: 401 | 404,
                ..
            }
        )
    }

    /// Whether the same request may succeed later (the network, Telegram's own trouble, or
    /// its flood control), rather than never.
    pub fn passing(&self) -> bool {
        match self {
            BotError::Unreachable(_) | BotError::Unreadable | BotError::TooLarge => true,
            BotError::Refused { code, .. } => *code == 429 || *code >= 500,
        }
    }

    /// Telegram's "the message is not modified": an edit that is already shown.
    pub fn unchanged(&self) -> bool {
        matches!(self, BotError::Refused { description, .. }
            if description.contains("message is not modified"))
    }
}

impl BotApi {
    /// Tells bots apart without showing their tokens: equal for the same address and token.
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.address.hash(&mut hasher);
        hasher.finish()
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
    async fn call<Params, Output>(&self, method: &str, params: &Params) -> Result<Output, BotError>
    where
        Params: serde::Serialize + std::fmt::Debug + Send + Sync,
        Output: serde::de::DeserializeOwned,
    {
        self.request::<_, MethodResponse<Output>>(method, Some(params))
            .await
            .map(|response| response.result)
    }

    /// `getMe`: the bot, which also proves the token.
    pub async fn me(&self) -> Result<Me, BotError> {
        self.request::<(), MethodResponse<Me>>("getMe", None)
            .await
            .map(|response| response.result)
    }

    /// `getUpdates`, each update left as JSON to be read on its own.
    pub async fn updates(
        &self,
        params: &GetUpdatesParams,
    ) -> Result<Vec<serde_json::Value>, BotError> {
        self.call("getUpdates", params).await
    }

    /// `sendMessage`.
    pub async fn send(&self, params: &SendMessageParams) -> Result<Sent, BotError> {
        self.call("sendMessage", params).await
    }

    /// `editMessageText` (its answer, the message again, is not needed).
    pub async fn edit(&self, params: &EditMessageTextParams) -> Result<(), BotError> {
        self.call::<_, serde::de::IgnoredAny>("editMessageText", params)
            .await
            .map(|_| ())
    }

    /// `answerCallbackQuery`: ends the spinner on a tapped button.
    pub async fn answer_tap(&self, params: &AnswerCallbackQueryParams) -> Result<(), BotError> {
        self.call::<_, bool>("answerCallbackQuery", params)
            .await
            .map(|_| ())
    }
}

#[async_trait::async_trait]
impl AsyncTelegramApi for BotApi {
    type Error = BotError;

    async fn request<Params, Output>(
        &self,
        method: &str,
        params: Option<Params>,
    ) -> Result<Output, BotError>
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
        let response = request
            .send()
            .await
            .map_err(|error| BotError::Unreachable(describe(&error.without_url())))?;
        let status = response.status();
        let body = read_capped(response, MAX_ANSWER_BYTES)
            .await
            .map_err(|error| match error {
                ReadError::TooLarge(_) => BotError::TooLarge,
                ReadError::Failed(error) => BotError::Unreachable(describe(&error.without_url())),
            })?;
        if status.is_success() {
            return serde_json::from_slice(&body).map_err(|_| BotError::Unreadable);
        }
        match serde_json::from_slice::<ErrorResponse>(&body) {
            Ok(refusal) => Err(BotError::Refused {
                code: refusal.error_code,
                description: refusal.description,
                retry_after: refusal
                    .parameters
                    .and_then(|parameters| parameters.retry_after)
                    .map(u64::from),
            }),
            // A proxy's or a load balancer's page, not Telegram's JSON.
            Err(_) => Err(BotError::Refused {
                code: u64::from(status.as_u16()),
                description: status
                    .canonical_reason()
                    .unwrap_or("no reason given")
                    .to_string(),
                retry_after: None,
            }),
        }
    }

    async fn request_with_form_data<Params, Output>(
        &self,
        method: &str,
        _params: Params,
        _files: Vec<(&str, PathBuf)>,
    ) -> Result<Output, BotError>
    where
        Params: serde::ser::Serialize + std::fmt::Debug + std::marker::Send,
        Output: serde::de::DeserializeOwned,
    {
        // Hark sends text and buttons only; no method it calls uploads a file.
        Err(BotError::Refused {
            code: 400,
            description: format!("{method} with a file is not something Hark sends"),
            retry_after: None,
        })
    }
}
