//! Why a server function failed: one serialisable enum every server function returns, the key
//! of its explanation, and the HTTP status a script sees. How a page words and shows one is
//! `components::failure_notice`.

use crate::json::PageJson;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

mod read;

/// A server function's failure. Travels as JSON to the browser, and in the address of a plain
/// form post sent back to its page; the English text (`Display`) is for logs and tools, the
/// page shows `text()`.
///
/// Read as a flat record (`read`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "failure", rename_all = "camelCase", try_from = "read::Record")]
pub enum Failure {
    /// An answer that does not fit its question (the details name the field).
    #[error("the answer does not fit the question: {details}")]
    InvalidAnswer { details: String },
    /// A message for an agent that is empty or too long (the details name the field).
    #[error("the message cannot be sent: {details}")]
    InvalidMessage { details: String },
    /// A setting outside what its config key accepts.
    #[error("{} is not valid", if key.key().is_empty() { "a setting" } else { key.key() })]
    InvalidSetting { key: hark_core::model::SettingKey },
    /// A language or theme Hark does not offer.
    #[error("{field} is not one Hark offers")]
    UnknownPreference { field: String },
    #[error("no question has this id")]
    NotFound,
    #[error("the question is no longer pending")]
    NotPending,
    #[error("too many questions are pending")]
    TooManyPending,
    /// Too many messages already wait for the agent (or for all agents).
    #[error("too many messages are waiting")]
    TooManyMessages,
    #[error("the settings could not be saved")]
    SaveFailed,
    /// The daemon could not record the change, or is stopping.
    #[error("Hark cannot take this now: {reason}")]
    Unavailable { reason: String },
    /// A channel's test message did not get through; `error` says why (the daemon's words).
    #[error("the test did not get through: {error}")]
    ChannelTest {
        error: hark_core::model::ChannelError,
    },
    /// A channel's own action refused (a bot's setup): its settings part words the channel's
    /// refusal; elsewhere the daemon's sentence is shown.
    #[error("{channel} refused: {}", refusal.body.error)]
    ChannelRefused {
        channel: hark_core::model::ChannelName,
        refusal: hark_core::model::ActionRefusal<crate::live::KeptRefusal>,
    },
    /// Arguments the server function could not read: a form or call Hark's page never sends
    /// (a tampered form, a hand-written request).
    #[error("the request could not be read: {details}")]
    BadRequest { details: String },
    /// The call did not complete: the network, the daemon gone, a reply that did not parse.
    #[error("the request failed: {reason}")]
    Transport { reason: String },
}

impl FromServerFnError for Failure {
    type Encoder = PageJson;

    fn from_server_fn_error(error: ServerFnErrorErr) -> Self {
        match error {
            // Raised on the server while reading the call, before the function runs.
            ServerFnErrorErr::Args(details)
            | ServerFnErrorErr::MissingArg(details)
            | ServerFnErrorErr::UnsupportedRequestMethod(details) => {
                let failure = Failure::BadRequest { details };
                #[cfg(feature = "ssr")]
                ssr::answer_bad_request();
                failure
            }
            other => Failure::Transport {
                reason: other.to_string(),
            },
        }
    }
}

impl Failure {
    /// The Fluent key that explains this failure to the person.
    pub fn message_key(&self) -> &'static str {
        match self {
            Failure::InvalidAnswer { .. } => "error-invalid-answer",
            Failure::InvalidMessage { .. } => "tell-invalid",
            Failure::InvalidSetting { key } => {
                use hark_core::model::SettingKey;
                match key {
                    SettingKey::TimeoutSecs => "settings-timeout-invalid",
                    SettingKey::RemindSecs => "settings-remind-invalid",
                    SettingKey::TypingGraceSecs => "settings-typing-grace-invalid",
                    SettingKey::Port => "settings-port-invalid",
                    SettingKey::OrphanSecs => "settings-orphan-invalid",
                    SettingKey::LateSecs => "settings-late-invalid",
                    SettingKey::SessionIdleSecs => "settings-session-idle-invalid",
                    SettingKey::ContinueWaitSecs => "settings-continue-wait-invalid",
                    SettingKey::Presets => "presets-invalid",
                    SettingKey::HistoryDays => "settings-history-days-invalid",
                    SettingKey::HistoryMax => "settings-history-max-invalid",
                    SettingKey::Channels => "settings-channels-invalid",
                    SettingKey::Other => "settings-save-failed",
                }
            }
            Failure::UnknownPreference { .. } | Failure::SaveFailed => "settings-save-failed",
            Failure::NotFound => "error-not-found",
            Failure::NotPending => "error-not-pending",
            Failure::TooManyPending => "error-too-many",
            Failure::TooManyMessages => "error-too-many-messages",
            Failure::BadRequest { .. } => "error-bad-request",
            Failure::ChannelTest { .. } => "elsewhere-test-failed",
            Failure::ChannelRefused { .. } => "elsewhere-action-failed",
            Failure::Unavailable { .. } | Failure::Transport { .. } => "error-unavailable",
        }
    }
}

#[cfg(feature = "ssr")]
mod ssr {
    use super::Failure;
    use axum::http::StatusCode;
    use hark_core::store::StoreError;
    use leptos::prelude::*;

    impl Failure {
        /// The HTTP status a script sees for this failure.
        pub fn status(&self) -> StatusCode {
            match self {
                Failure::InvalidAnswer { .. }
                | Failure::InvalidMessage { .. }
                | Failure::InvalidSetting { .. }
                | Failure::UnknownPreference { .. }
                | Failure::BadRequest { .. } => StatusCode::BAD_REQUEST,
                Failure::NotFound => StatusCode::NOT_FOUND,
                Failure::NotPending => StatusCode::CONFLICT,
                Failure::TooManyPending | Failure::TooManyMessages => StatusCode::TOO_MANY_REQUESTS,
                Failure::SaveFailed | Failure::Transport { .. } => {
                    StatusCode::INTERNAL_SERVER_ERROR
                }
                Failure::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
                Failure::ChannelTest { error } => {
                    StatusCode::from_u16(error.status()).unwrap_or(StatusCode::BAD_GATEWAY)
                }
                Failure::ChannelRefused { refusal, .. } => StatusCode::from_u16(refusal.status)
                    .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            }
        }
    }

    impl Failure {
        /// A chat app's action refused, as the page will hold it.
        pub fn channel_refused(
            channel: hark_core::model::ChannelName,
            refusal: hark_core::model::ActionRefusal,
        ) -> Failure {
            Failure::ChannelRefused {
                channel,
                refusal: refusal.map_refusal(|refusal| crate::live::KeptRefusal::of(&*refusal)),
            }
        }
    }

    /// What a store refusal means on the page; the store knows no pages (its `status` is the
    /// number REST answers with).
    impl From<StoreError> for Failure {
        fn from(error: StoreError) -> Self {
            match error {
                StoreError::Invalid(body) => Failure::InvalidAnswer {
                    details: body.error,
                },
                StoreError::NotFound(_) | StoreError::RuleNotFound(_) => Failure::NotFound,
                StoreError::NotPending { .. } => Failure::NotPending,
                StoreError::TooManyPending => Failure::TooManyPending,
                StoreError::TooManyMessages { .. } => Failure::TooManyMessages,
                StoreError::ShuttingDown | StoreError::Storage(_) => Failure::Unavailable {
                    reason: error.to_string(),
                },
                StoreError::Save(_) => {
                    tracing::error!(%error, "a setting could not be saved");
                    Failure::SaveFailed
                }
            }
        }
    }

    /// A call whose arguments could not be read is the caller's mistake: 400, not leptos' 500.
    /// A plain form post answered 400 is turned into a page in the person's language by the
    /// daemon (leptos would otherwise send the browser back to `/` without a word).
    pub(super) fn answer_bad_request() {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(StatusCode::BAD_REQUEST);
        }
    }

    /// Refuses a server function call. A script gets `failure` with its status. A plain HTML
    /// form post (no JavaScript) is sent back to `page`, the form's own page, with the failure
    /// in its address, where the page explains it: under `Referrer-Policy: no-referrer` leptos
    /// cannot find the page by itself, and a status set here would turn its redirect into a
    /// dead end.
    pub fn refuse<F: leptos::server_fn::ServerFn>(page: &str, failure: Failure) -> Failure {
        use leptos::server_fn::error::ServerFnUrlError;
        let plain_form_post = use_context::<axum::http::request::Parts>()
            .is_some_and(|parts| hark_text::request::wants_html(&parts.headers));
        if plain_form_post {
            // Parsed against a placeholder origin only to build the path and query.
            let back = ServerFnUrlError::new(F::PATH, failure.clone())
                .to_url(&format!("http://hark{page}"));
            if let Ok(back) = back {
                leptos_axum::redirect(&format!(
                    "{}?{}",
                    back.path(),
                    back.query().unwrap_or_default()
                ));
            }
        } else if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(failure.status());
        }
        failure
    }

    /// `code` as a language Hark offers; the server function `F` refuses any other, naming
    /// the field.
    pub fn offered_lang<F: leptos::server_fn::ServerFn>(
        code: &str,
    ) -> Result<crate::i18n::Lang, Failure> {
        code.parse().map_err(|_| {
            let failure = Failure::UnknownPreference {
                field: "lang".to_string(),
            };
            refuse::<F>("/", failure)
        })
    }
}

#[cfg(feature = "ssr")]
pub use ssr::{offered_lang, refuse};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_survives_its_trip_as_json() {
        use hark_core::model::{ActionRefusal, ChannelError, ChannelName, ErrorBody, SettingKey};
        let failures = [
            Failure::InvalidAnswer {
                details: "answers[0]: pick one".into(),
            },
            Failure::InvalidMessage {
                details: "text: empty".into(),
            },
            Failure::InvalidSetting {
                key: SettingKey::Port,
            },
            Failure::UnknownPreference {
                field: "lang".into(),
            },
            Failure::NotFound,
            Failure::NotPending,
            Failure::TooManyPending,
            Failure::TooManyMessages,
            Failure::SaveFailed,
            Failure::Unavailable {
                reason: "stopping".into(),
            },
            Failure::ChannelTest {
                error: ChannelError::Undelivered("Slack said no".into()),
            },
            Failure::channel_refused(
                ChannelName::Feishu,
                ActionRefusal {
                    status: 400,
                    body: ErrorBody::new("wrong secret"),
                    refusal: Some(Box::new(serde_json::json!({"refusal": "wrongSecret"}))),
                },
            ),
            Failure::BadRequest {
                details: "id: not a UUID".into(),
            },
            Failure::Transport {
                reason: "offline".into(),
            },
        ];
        for failure in failures {
            let bytes = failure.ser();
            assert_eq!(Failure::de(bytes), failure);
        }
        assert_eq!(
            Failure::InvalidSetting {
                key: hark_core::model::SettingKey::Port,
            }
            .message_key(),
            "settings-port-invalid"
        );
    }

    #[test]
    fn a_failure_that_is_not_one_says_what_is_wrong() {
        let error = |text: &str| {
            serde_json::from_str::<Failure>(text)
                .unwrap_err()
                .to_string()
        };
        assert!(error(r#"{"failure": "eaten"}"#).contains("eaten"));
        assert!(error(r#"{"details": "x"}"#).contains("`failure`"));
        assert!(error(r#"{"failure": "badRequest"}"#).contains("`details`"));
        let wrong_key = error(r#"{"failure": "invalidSetting", "key": "colour"}"#);
        assert!(
            wrong_key.contains("unknown variant `colour`"),
            "{wrong_key}"
        );
        // Its fields may come in any order.
        let ahead: Failure =
            serde_json::from_str(r#"{"details": "x", "failure": "badRequest"}"#).unwrap();
        assert_eq!(
            ahead,
            Failure::BadRequest {
                details: "x".into()
            }
        );
    }
}
