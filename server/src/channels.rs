//! Channels (SPEC §11): the hub's peers beyond this machine's page. One task reads the store's
//! events and hands each to the Telegram bot, ntfy and the webhooks through bounded queues, so a
//! slow or dead receiver never holds up the store or the API; every channel keeps a status for
//! settings and `hark status`. Nothing leaves the machine unless a channel is on.
//!
//! - `telegram` sends each question to a paired chat, with buttons that answer it there;
//! - `ntfy` publishes a push per question, with answer buttons that POST to a capability URL
//!   (`capability`), and replaces it when the question closes;
//! - `webhooks` POSTs signed `{event, question}` deliveries, retried with backoff;
//! - `push_text` turns a question into the few plain words a push may carry.

pub mod capability;
mod ntfy;
mod push_text;
pub mod status;
pub mod telegram;
mod webhooks;

pub use capability::Capabilities;
pub use status::Statuses;

use crate::access::Access;
use crate::secrets::Secrets;
use app::components::elsewhere::DeskFuture;
use hark_core::model::{ChannelStatus, Event, Question};
use hark_core::store::Store;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// How long one request to a channel's server may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything the channels share: the store they serve, their secrets, the answer buttons
/// handed out, their statuses and one HTTP client.
pub struct Relay {
    pub store: Store,
    pub secrets: Arc<Secrets>,
    pub capabilities: Capabilities,
    pub statuses: Statuses,
    access: Arc<Access>,
    port: u16,
    http: reqwest::Client,
    ntfy: ntfy::Queue,
    webhooks: webhooks::Queues,
    pub telegram: telegram::Telegram,
    /// `HARK_HOME`, where the channels keep what must survive a restart (none in memory only).
    home: Option<std::path::PathBuf>,
}

impl Relay {
    /// The relay of a daemon on `port`; `start` sets it to work.
    pub fn new(
        store: Store,
        secrets: Arc<Secrets>,
        access: Arc<Access>,
        port: u16,
        home: Option<std::path::PathBuf>,
    ) -> Arc<Relay> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .user_agent(concat!("hark/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        Arc::new(Relay {
            store,
            secrets,
            capabilities: Capabilities::default(),
            statuses: Statuses::default(),
            access,
            port,
            http,
            ntfy: ntfy::Queue::default(),
            webhooks: webhooks::Queues::default(),
            telegram: telegram::Telegram::default(),
            home,
        })
    }

    /// Reads the store's events until the daemon stops.
    pub fn start(self: &Arc<Relay>) {
        telegram::Telegram::start(self);
        let relay = self.clone();
        tokio::spawn(async move {
            let mut events = relay.store.subscribe();
            let shutdown = relay.store.shutdown_token().clone();
            loop {
                let event = tokio::select! {
                    event = events.recv() => event,
                    () = shutdown.cancelled() => return,
                };
                match event {
                    Ok(event) => relay.handle(&event),
                    Err(RecvError::Lagged(skipped)) => {
                        tracing::warn!(
                            skipped,
                            "the channels fell behind; some events were not sent"
                        );
                    }
                    Err(RecvError::Closed) => return,
                }
            }
        });
    }

    fn handle(self: &Arc<Relay>, event: &Arc<Event>) {
        if matches!(**event, Event::ConfigUpdated(_)) {
            self.telegram.settings_changed();
        }
        // Most daemons have no channel on: then nothing is copied or sent.
        let (telegram_on, any_on) = self.store.read_config(|config| {
            let channels = &config.channels;
            let telegram = channels.telegram.enabled;
            (
                telegram,
                telegram || channels.ntfy.enabled || !channels.webhooks.is_empty(),
            )
        });
        if telegram_on {
            self.telegram.tell(telegram::Input::Event(event.clone()));
        }
        if !any_on {
            return;
        }
        let config = self.store.config();
        let channels = &config.channels;
        match &**event {
            Event::QuestionCreated(question) => {
                if channels.ntfy.enabled {
                    self.ntfy.send(self, ntfy::Job::Publish(question.clone()));
                }
                self.deliver(channels, "question:created", question);
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                self.capabilities.forget(question.id);
                if channels.ntfy.enabled {
                    self.ntfy.send(self, ntfy::Job::Replace(question.clone()));
                }
                self.deliver(channels, "question:closed", question);
            }
            Event::QuestionRemind(remind) => {
                let wanted = channels
                    .webhooks
                    .iter()
                    .any(|webhook| webhook.wants("question:remind"));
                if wanted {
                    for question in self.store.pending() {
                        if remind.ids.contains(&question.id) {
                            self.deliver(channels, "question:remind", &question);
                        }
                    }
                }
            }
            Event::Init(_) | Event::ConfigUpdated(_) | Event::QuestionUpdated(_) => {}
        }
    }

    /// Queues `event` about `question` for every webhook of `channels` that asked for it.
    fn deliver(
        self: &Arc<Relay>,
        channels: &hark_core::model::Channels,
        event: &'static str,
        question: &Question,
    ) {
        for webhook in &channels.webhooks {
            if webhook.wants(event) {
                self.webhooks.send(self, &webhook.url, event, question);
            }
        }
    }

    /// Where links sent away from this machine start: `channels.publicUrl`, else LAN mode's
    /// address; `None` with neither, when only text can be sent.
    pub fn public_base(&self) -> Option<String> {
        self.public_base_in(&self.store.config())
    }

    /// `public_base` under `config` (already read by the caller).
    pub(crate) fn public_base_in(&self, config: &hark_core::model::Config) -> Option<String> {
        if let Some(url) = &config.channels.public_url {
            return Some(url.clone());
        }
        if !self.access.lan {
            return None;
        }
        crate::network::pairing_address().map(|address| format!("http://{address}:{}", self.port))
    }

    /// Every channel's status.
    pub fn statuses(&self) -> Vec<ChannelStatus> {
        self.statuses.all()
    }

    /// Sends a test message on `channel` (`telegram`, `ntfy` or `webhook`) now, and says how
    /// it went.
    ///
    /// # Errors
    /// A sentence saying what failed (never a secret).
    pub async fn test(self: &Arc<Relay>, channel: &str) -> Result<String, String> {
        match channel {
            "telegram" => telegram::Telegram::test(self).await,
            "ntfy" => ntfy::test(self).await,
            "webhook" | "webhooks" => webhooks::test(self).await,
            other => Err(format!(
                "there is no channel \"{other}\"; the channels are telegram, ntfy and webhook"
            )),
        }
    }
}

/// The settings page's view of the channels (`app::components::elsewhere`).
pub struct Desk(pub Arc<Relay>);

impl app::components::elsewhere::ChannelDesk for Desk {
    fn report(&self) -> hark_core::model::ChannelsReport {
        let server = self.0.store.config().channels.ntfy.server;
        hark_core::model::ChannelsReport {
            channels: self.0.statuses(),
            ntfy_token: self.0.secrets.ntfy_token_for(&server).is_some(),
            links: self.0.public_base().is_some(),
            telegram: self.0.telegram.report(&self.0),
        }
    }

    fn webhook_secret(&self, url: &str) -> Option<String> {
        self.0.secrets.webhook_secret(url).ok()
    }

    fn set_ntfy_token(&self, token: Option<String>, server: &str) -> std::io::Result<()> {
        self.0.secrets.set_ntfy_token(token, server)
    }

    fn test(&self, channel: String) -> DeskFuture<Result<String, String>> {
        let relay = self.0.clone();
        Box::pin(async move { relay.test(&channel).await })
    }

    fn telegram_setup(
        &self,
        token: Option<String>,
    ) -> DeskFuture<Result<hark_core::model::TelegramReport, hark_core::model::TelegramRefusal>>
    {
        let relay = self.0.clone();
        Box::pin(async move { telegram::Telegram::setup(&relay, token).await })
    }

    fn telegram_unpair(&self) -> DeskFuture<Result<(), String>> {
        let relay = self.0.clone();
        Box::pin(async move { telegram::Telegram::unpair(&relay).await.map(|_| ()) })
    }

    fn telegram_forget(&self) -> DeskFuture<Result<(), String>> {
        let relay = self.0.clone();
        Box::pin(async move { telegram::Telegram::forget(&relay).await })
    }
}
