//! What a chat app's service answered, read one way for every app: the one error of their API
//! clients (refused, slow down, unreachable, unreadable), in words that never hold a token, and
//! the one exchange their calls go through (sent over the daemon's client, the answer read
//! within the cap, the address left out of every error). What a refusal means (whether it
//! passes, whether the message is gone) is the app's to say when it reads one.

use crate::channels::outbound::{MAX_ANSWER_BYTES, ReadError, read_capped};
use crate::channels::status::describe;
use hark_core::model::ChannelName;
use std::time::Duration;

/// A refusal as the service gave it: the HTTP status, its own code (0 when it has none) and its
/// words (Slack's error code, Telegram's description).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub code: i64,
    pub message: String,
}

/// What went wrong with a call to a chat app's service.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// The service answered and refused; `passing` when the same call may succeed later (its
    /// own trouble, a token to fetch again), `gone` when the message is no more.
    #[error("{} refused the request ({})", .app.display(), words(.refusal))]
    Refused {
        app: ChannelName,
        refusal: Refusal,
        passing: bool,
        gone: bool,
    },
    /// 429, or the service's own flood control: wait this many seconds.
    #[error("{} asked to slow down for {secs} s", .app.display())]
    RateLimited { app: ChannelName, secs: u64 },
    /// No answer: the network, a proxy or the service is down.
    #[error("{} could not be reached: {reason}", .app.display())]
    Unreachable { app: ChannelName, reason: String },
    /// No answer within the request's time (for a long poll: no news, and no sign of life).
    #[error("{} did not answer in time", .app.display())]
    TimedOut { app: ChannelName },
    /// An answer that is not the service's JSON, or larger than any it gives.
    #[error("{}'s answer could not be read", .app.display())]
    Unreadable { app: ChannelName },
}

fn words(refusal: &Refusal) -> String {
    match refusal.code {
        0 if refusal.status == 200 => refusal.message.clone(),
        0 => format!("{}: {}", refusal.status, refusal.message),
        code => format!("code {code}: {}", refusal.message),
    }
}

impl ServiceError {
    /// A refusal that stays, and leaves the message where it is.
    pub fn refused(app: ChannelName, status: u16, code: i64, message: impl Into<String>) -> Self {
        ServiceError::Refused {
            app,
            refusal: Refusal {
                status,
                code,
                message: message.into(),
            },
            passing: status >= 500,
            gone: false,
        }
    }

    /// This refusal, said to pass (or not) and the message gone (or not), as the app reads it.
    #[must_use]
    pub fn reading(mut self, says_passing: bool, says_gone: bool) -> Self {
        if let ServiceError::Refused { passing, gone, .. } = &mut self {
            *passing |= says_passing;
            *gone = says_gone;
        }
        self
    }

    fn unreachable(app: ChannelName, error: reqwest::Error) -> Self {
        if error.is_timeout() {
            return ServiceError::TimedOut { app };
        }
        ServiceError::Unreachable {
            app,
            reason: describe(&error.without_url()),
        }
    }

    /// The service's refusal, if that is what this is.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            ServiceError::Refused { refusal, .. } => Some(refusal),
            _ => None,
        }
    }
}

/// What the engine needs to know of a failed call.
impl ServiceError {
    /// Whether the same call may succeed later, rather than never.
    pub fn passing(&self) -> bool {
        match self {
            ServiceError::Refused { passing, .. } => *passing,
            _ => true,
        }
    }

    /// How long the service asked to wait (a rate limit's retry-after).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ServiceError::RateLimited { secs, .. } => Some(Duration::from_secs(*secs)),
            _ => None,
        }
    }

    /// Whether the message is gone (deleted, recalled): an open question is posted again.
    pub fn gone(&self) -> bool {
        matches!(self, ServiceError::Refused { gone: true, .. })
    }
}

/// Tells credentials apart without showing them: equal for the same `parts` (an address and a
/// token), within this run of the daemon.
pub fn fingerprint(parts: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

/// A service's answer: its status, headers and body.
pub struct Answer {
    pub app: ChannelName,
    pub status: reqwest::StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as `T`.
    ///
    /// # Errors
    /// `Unreadable` when it is not.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, ServiceError> {
        serde_json::from_slice(&self.body).map_err(|_| ServiceError::Unreadable { app: self.app })
    }

    /// The body as the service's JSON. One that is not JSON is `Unreadable` in a success, and
    /// otherwise says the status (a proxy's page, not the service's words).
    pub fn service_json(&self) -> Result<serde_json::Value, ServiceError> {
        let json = self.json();
        if json.is_ok() || self.status.is_success() {
            return json;
        }
        Err(ServiceError::Unreachable {
            app: self.app,
            reason: format!("the server answered {}", self.status),
        })
    }

    /// A header's whole seconds (`Retry-After`).
    pub fn header_secs(&self, name: &str) -> Option<u64> {
        let value = self.headers.get(name)?.to_str().ok()?;
        value.trim().parse().ok()
    }

    /// A refusal read from the status alone (a body that is not the service's own: a proxy's
    /// page); a 429 passes.
    pub fn refused_by_status(&self) -> ServiceError {
        let status = self.status.as_u16();
        let reason = self.status.canonical_reason().unwrap_or("no reason given");
        ServiceError::refused(self.app, status, 0, reason).reading(status == 429, false)
    }

    /// A 429 as `RateLimited`, waiting `secs` (at least one second).
    pub fn rate_limited(&self, secs: u64) -> ServiceError {
        ServiceError::RateLimited {
            app: self.app,
            secs: secs.max(1),
        }
    }
}

/// Sends `request` and reads its answer, up to `MAX_ANSWER_BYTES`.
///
/// # Errors
/// `Unreachable` when no answer came, `Unreadable` when it was larger than any the service gives.
pub async fn exchange(
    app: ChannelName,
    request: reqwest::RequestBuilder,
) -> Result<Answer, ServiceError> {
    let response = request
        .send()
        .await
        .map_err(|error| ServiceError::unreachable(app, error))?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = read_capped(response, MAX_ANSWER_BYTES)
        .await
        .map_err(|error| match error {
            ReadError::TooLarge(_) => ServiceError::Unreadable { app },
            ReadError::Failed(error) => ServiceError::unreachable(app, error),
        })?;
    Ok(Answer {
        app,
        status,
        headers,
        body,
    })
}
