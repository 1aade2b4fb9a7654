//! A typed HTTP client of the daemon, shared by the MCP shim and the CLI: recognising a Hark
//! daemon, and every question call of SPEC §3 they need. `connection` reaches a daemon (and
//! starts the local one on demand); `asking` is one question's round trip on top of both.

pub mod asking;
pub mod connection;
pub mod detach;
pub mod process;

use hark_core::model::{
    AskRequest, ChannelTest, ChannelTestResult, ChannelsReport, Config, ErrorBody, Health,
    OneTimeLogin, Pairing, Question, QuestionId, Stopping, SubQuestionAnswer, WAIT_UPGRADE,
    WaitResult,
};
use reqwest::{Method, RequestBuilder, StatusCode};
use std::time::Duration;

/// A daemon at `base` (`http://127.0.0.1:13390`), optionally with a token.
#[derive(Clone)]
pub struct DaemonClient {
    base: String,
    token: Token,
    http: reqwest::Client,
}

/// Where the client's token comes from.
#[derive(Clone)]
enum Token {
    /// Given (`--token`, `HARK_TOKEN`), or none.
    Given(Option<String>),
    /// This user's token file, read at each request: a daemon this client started may create
    /// it, or rotate it, after the client was made. Sent only where the daemon listening on
    /// the address is not another user's (`peer_owner::listener_is_ours`): another account
    /// holding the port while Hark is down would collect it.
    File(std::path::PathBuf, std::net::SocketAddr),
}

/// What answers on a port.
#[derive(Debug)]
pub enum Probe {
    Hark(Health),
    /// Something answered, but it is not Hark.
    Foreign,
    Nothing,
}

/// Whether a wait takes along the messages the person left for the agent that asked (the MCP
/// shim's waits: they go into the tool result) or leaves them for the agent's next call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Messages {
    TakeAlong,
    Leave,
}

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No connection, or it broke: the daemon may have died.
    #[error("cannot reach the Hark daemon at {url}: {source}")]
    Unreachable {
        url: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The daemon refused the request; its error names the field.
    #[error("{}", body.error)]
    Api { status: StatusCode, body: ErrorBody },
}

impl ClientError {
    /// The daemon answered with this status.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            ClientError::Api { status, .. } => Some(*status),
            ClientError::Unreachable { .. } => None,
        }
    }
}

/// How long an idle pooled connection is kept for reuse.
pub const IDLE_CONNECTION: Duration = Duration::from_secs(5);

/// How much longer than a long poll the HTTP request itself may take.
const WAIT_GRACE: Duration = Duration::from_secs(15);

/// The longest answer to a wait read: a closed question's result carries its answers with their
/// images (an answer's body is at most `MAX_ANSWER_BODY_BYTES`) and the messages taken along.
const MAX_WAIT_LINE: u64 = 2 * hark_core::model::limits::MAX_ANSWER_BODY_BYTES as u64;

impl DaemonClient {
    /// A client of the daemon on this machine's `port`. It sends the daemon's token when this
    /// user has one, for a daemon that asks every peer to pair (`--require-token`).
    pub fn local(port: u16) -> Self {
        let mut client = Self::new(format!("http://127.0.0.1:{port}"), None);
        client.token = Token::File(
            crate::home::hark_home().join(crate::security::token::TOKEN_FILE),
            std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        );
        client
    }

    /// A client of the daemon at `base`, sending `token` as a bearer token when given.
    pub fn new(base: String, token: Option<String>) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            // Well under the daemon's 15 s idle cut-off, so a pooled connection is never
            // reused just as the daemon closes it.
            .pool_idle_timeout(IDLE_CONNECTION)
            .build()
            .unwrap_or_default();
        Self {
            base: base.trim_end_matches('/').to_string(),
            token: Token::Given(token),
            http,
        }
    }

    /// The daemon's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let builder = self.http.request(method, format!("{}{path}", self.base));
        let token = match &self.token {
            Token::Given(token) => token.clone(),
            Token::File(file, daemon) => (crate::security::peer_owner::listener_is_ours(*daemon)
                != Some(false))
            .then(|| std::fs::read_to_string(file).ok())
            .flatten()
            .map(|token| token.trim().to_string())
            .filter(|token| !token.is_empty()),
        };
        match token {
            Some(token) => builder.bearer_auth(token),
            None => builder,
        }
    }

    fn unreachable(
        &self,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> ClientError {
        ClientError::Unreachable {
            url: self.base.clone(),
            source: source.into(),
        }
    }

    /// The connection broke off, or carried what the daemon never sends.
    fn broken(&self, what: &str) -> ClientError {
        self.unreachable(what.to_string())
    }

    async fn send(&self, builder: RequestBuilder) -> Result<reqwest::Response, ClientError> {
        let response = builder
            .send()
            .await
            .map_err(|error| self.unreachable(error))?;
        // 101: the switch of protocols a wait asks for.
        if response.status().is_success() || response.status() == StatusCode::SWITCHING_PROTOCOLS {
            return Ok(response);
        }
        let status = response.status();
        let body = response
            .json::<ErrorBody>()
            .await
            .unwrap_or_else(|_| ErrorBody::new(format!("the daemon answered {status}")));
        Err(ClientError::Api { status, body })
    }

    /// Asks `/api/health` who is there.
    pub async fn probe(&self) -> Probe {
        let response = self
            .request(Method::GET, "/api/health")
            .timeout(Duration::from_secs(2))
            .send()
            .await;
        let Ok(response) = response else {
            return Probe::Nothing;
        };
        match response.json::<Health>().await {
            Ok(health) if health.service == Health::SERVICE => Probe::Hark(health),
            _ => Probe::Foreign,
        }
    }

    /// Creates the question (or finds it again, when its id is known).
    ///
    /// # Errors
    /// `Api` naming the field for bad input, `Unreachable` when the daemon is gone.
    pub async fn create(&self, request: &AskRequest) -> Result<Question, ClientError> {
        // Refused here rather than sent: the daemon refuses a body over its limit before reading
        // it and closes the connection, which would read as "cannot reach the daemon".
        let body = serde_json::to_vec(request).unwrap_or_default();
        if body.len() > hark_core::model::limits::MAX_BODY_BYTES {
            return Err(ClientError::Api {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                body: ErrorBody::new(format!(
                    "the question is too large for Hark: {} KB, and a question may take up to {} KB",
                    body.len().div_ceil(1024),
                    hark_core::model::limits::MAX_BODY_BYTES / 1024
                )),
            });
        }
        let response = self
            .send(
                self.request(Method::POST, "/api/questions")
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(body),
            )
            .await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// One question by id.
    ///
    /// # Errors
    /// `Api` with 404 for an unknown id, `Unreachable` when the daemon is gone.
    pub async fn question(&self, id: QuestionId) -> Result<Question, ClientError> {
        let response = self
            .send(self.request(Method::GET, &format!("/api/questions/{id}")))
            .await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Long-polls for at most `secs` (≤ 60): `Some` once closed, `None` if still pending. With
    /// `cancel_if_gone`, the daemon withdraws the question should this connection drop first,
    /// so a killed caller leaves nothing waiting on the person's screen. With
    /// `Messages::TakeAlong`, the result carries the messages for the asking agent.
    ///
    /// # Errors
    /// `Api` with 404 when the daemon does not know the id, `Unreachable` when it is gone.
    pub async fn wait(
        &self,
        id: QuestionId,
        secs: u64,
        cancel_if_gone: bool,
        messages: Messages,
    ) -> Result<Option<WaitResult>, ClientError> {
        let mut path = format!("/api/questions/{id}/wait?timeout={secs}");
        if cancel_if_gone {
            path.push_str("&cancelOnDisconnect=true");
        }
        if messages == Messages::TakeAlong {
            path.push_str("&messages=true");
        }
        let deadline = Duration::from_secs(secs) + WAIT_GRACE;
        let builder = self
            .request(Method::GET, &path)
            .header(reqwest::header::CONNECTION, "upgrade")
            .header(reqwest::header::UPGRADE, WAIT_UPGRADE)
            .timeout(deadline);
        let response = self.send(builder).await?;
        if response.status() == StatusCode::SWITCHING_PROTOCOLS {
            let line = tokio::time::timeout(deadline, self.switched_line(response)).await;
            return line.unwrap_or_else(|_| Err(self.broken("the wait outlived its deadline")));
        }
        if response.status() == StatusCode::NO_CONTENT {
            return Ok(None);
        }
        response
            .json()
            .await
            .map(Some)
            .map_err(|error| self.unreachable(error))
    }

    /// The one line a wait that switched protocols ends with (`WAIT_UPGRADE`), read as the
    /// plain wait's answer would be.
    async fn switched_line(
        &self,
        response: reqwest::Response,
    ) -> Result<Option<WaitResult>, ClientError> {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt};
        let connection = response
            .upgrade()
            .await
            .map_err(|error| self.unreachable(error))?;
        let mut line = Vec::new();
        // Read to its end of line, not to the close that follows it. Bounded as a body would
        // be: a result carries its images' bytes.
        tokio::io::BufReader::new(connection.take(MAX_WAIT_LINE + 1))
            .read_until(b'\n', &mut line)
            .await
            .map_err(|error| self.unreachable(error))?;
        if line.len() as u64 > MAX_WAIT_LINE {
            return Err(self.broken("the daemon's answer to a wait is larger than any it sends"));
        }
        let Some(line) = line.strip_suffix(b"\n") else {
            return Err(self.broken("the connection closed before the wait's answer"));
        };
        let (status, body) = match line.iter().position(|byte| *byte == b' ') {
            Some(space) => (&line[..space], &line[space + 1..]),
            None => (line, &[][..]),
        };
        let status = std::str::from_utf8(status)
            .ok()
            .and_then(|status| status.parse::<StatusCode>().ok())
            .ok_or_else(|| self.broken("the wait's answer does not start with a status"))?;
        let unreadable = |_| self.broken("the wait's answer is not the JSON it should be");
        match status {
            StatusCode::NO_CONTENT => Ok(None),
            StatusCode::OK => serde_json::from_slice(body).map(Some).map_err(unreadable),
            status => Err(ClientError::Api {
                status,
                body: serde_json::from_slice(body).map_err(unreadable)?,
            }),
        }
    }

    /// How a phone reaches this daemon: its local and LAN addresses.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn pairing(&self) -> Result<Pairing, ClientError> {
        let response = self.send(self.request(Method::GET, "/api/pairing")).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Asks the daemon to stop (`hark stop`); it answers before it is gone.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn stop(&self) -> Result<Stopping, ClientError> {
        let response = self.send(self.request(Method::POST, "/api/stop")).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// A one-time login for a page this client opens or shows (`OneTimeLogin::url`).
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn one_time_login(&self) -> Result<OneTimeLogin, ClientError> {
        let response = self.send(self.request(Method::POST, "/api/login")).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Replaces the daemon's token; sessions paired with the old one end.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn rotate_token(&self) -> Result<Pairing, ClientError> {
        let response = self
            .send(self.request(Method::POST, "/api/token/rotate"))
            .await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// The whole history in `format` (`json` or `markdown`).
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` naming the field when it refuses.
    pub async fn export(&self, format: &str, of: &str) -> Result<String, ClientError> {
        let response = self
            .send(
                self.request(Method::GET, "/api/export")
                    .query(&[("format", format), ("of", of)]),
            )
            .await?;
        response
            .text()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// How every channel has fared.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn channels(&self) -> Result<ChannelsReport, ClientError> {
        let response = self
            .send(self.request(Method::GET, "/api/channels"))
            .await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Sends a test message on `channel` and says how it went.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` with the channel's failure.
    pub async fn test_channel(
        &self,
        channel: hark_core::model::ChannelName,
    ) -> Result<ChannelTestResult, ClientError> {
        let request = self
            .request(Method::POST, "/api/channels/test")
            .json(&ChannelTest { channel });
        let response = self.send(request).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// POSTs `body` to one of `channel`'s own routes (`/api/<channel>/<action>`) and reads
    /// what it answers.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses (naming the field).
    pub async fn channel_action<T: serde::de::DeserializeOwned>(
        &self,
        channel: hark_core::model::ChannelName,
        action: hark_core::model::ChannelAction,
        body: &impl serde::Serialize,
    ) -> Result<T, ClientError> {
        let request = self
            .request(Method::POST, &format!("/api/{channel}/{action}"))
            .json(body);
        let response = self.send(request).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Answers the question as the person did in the client's own dialog (noted so).
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; `Api` when it refuses (409: closed already).
    pub async fn answer(
        &self,
        id: QuestionId,
        answers: &[SubQuestionAnswer],
    ) -> Result<Question, ClientError> {
        let request = self
            .request(Method::POST, &format!("/api/questions/{id}/answer"))
            .json(&serde_json::json!({ "answers": answers, "via": "client" }));
        let response = self.send(request).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Declines the question as the person did in the client's own dialog (noted so).
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; `Api` when it refuses (409: closed already).
    pub async fn decline(&self, id: QuestionId) -> Result<(), ClientError> {
        let request = self
            .request(Method::POST, &format!("/api/questions/{id}/decline"))
            .json(&serde_json::json!({ "via": "client" }));
        self.send(request).await.map(|_| ())
    }

    /// The daemon's config.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone, `Api` when it refuses.
    pub async fn config(&self) -> Result<Config, ClientError> {
        let response = self.send(self.request(Method::GET, "/api/config")).await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// Says the asker stopped waiting: the question stays answerable for the daemon's
    /// `lateSecs`. Already closed counts as done.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn abandon(&self, id: QuestionId) -> Result<(), ClientError> {
        match self
            .send(self.request(Method::POST, &format!("/api/questions/{id}/abandon")))
            .await
        {
            Ok(_) => Ok(()),
            Err(error) if error.status() == Some(StatusCode::CONFLICT) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// Withdraws the question saying why. Already closed counts as done.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn withdraw(&self, id: QuestionId, note: &str) -> Result<(), ClientError> {
        let request = self
            .request(Method::POST, &format!("/api/questions/{id}/cancel"))
            .json(&serde_json::json!({ "note": note }));
        match self.send(request).await {
            Ok(_) => Ok(()),
            Err(error) if error.status() == Some(StatusCode::CONFLICT) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// Withdraws the question. Already closed counts as done.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn cancel(&self, id: QuestionId) -> Result<(), ClientError> {
        match self
            .send(self.request(Method::POST, &format!("/api/questions/{id}/cancel")))
            .await
        {
            Ok(_) => Ok(()),
            Err(error) if error.status() == Some(StatusCode::CONFLICT) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// Collects the messages waiting for `agent` (SPEC §18), oldest first; the daemon marks
    /// them delivered.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn deliver_messages(
        &self,
        agent: &hark_core::model::AgentRef,
    ) -> Result<Vec<hark_core::model::AgentMessage>, ClientError> {
        self.deliver_messages_within(agent, 0).await
    }

    /// Like `deliver_messages`, but when none waits the daemon waits up to `secs` (at most a
    /// minute) for one to come.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn deliver_messages_within(
        &self,
        agent: &hark_core::model::AgentRef,
        secs: u64,
    ) -> Result<Vec<hark_core::model::AgentMessage>, ClientError> {
        let path = format!("/api/messages/deliver?wait={secs}");
        let builder = (self.request(Method::POST, &path).json(agent))
            .timeout(Duration::from_secs(secs) + WAIT_GRACE);
        let response = self.send(builder).await?;
        response
            .json::<hark_core::model::MessageList>()
            .await
            .map(|list| list.messages)
            .map_err(|error| self.unreachable(error))
    }

    /// Says what an agent session is doing (SPEC §20); the session as it now stands.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn report_session(
        &self,
        report: &hark_core::model::SessionReport,
    ) -> Result<hark_core::model::AgentSession, ClientError> {
        let response = self
            .send(self.request(Method::POST, "/api/sessions").json(report))
            .await?;
        response
            .json()
            .await
            .map_err(|error| self.unreachable(error))
    }

    /// The agent sessions the daemon knows, the one heard from last first.
    ///
    /// # Errors
    /// `Unreachable` when the daemon is gone; other refusals are reported.
    pub async fn sessions(&self) -> Result<Vec<hark_core::model::AgentSession>, ClientError> {
        let response = self
            .send(self.request(Method::GET, "/api/sessions"))
            .await?;
        response
            .json::<hark_core::model::SessionList>()
            .await
            .map(|list| list.sessions)
            .map_err(|error| self.unreachable(error))
    }
}
