//! The relay: one task reads the store's events and hands each to the Telegram bot, ntfy and
//! the webhooks through bounded queues, so a slow or dead receiver never holds up the store or
//! the API; it holds what the channels share (secrets, answer buttons, statuses, one HTTP
//! client) and what settings and the API ask of them (their report, a test message).

use super::{Capabilities, Statuses, ntfy, telegram, webhooks};
use crate::daemon::secrets::Secrets;
use crate::security::access::Access;
use hark_core::model::{ChannelName, ChannelStatus, Event, Question, WebhookEvent};
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
    pub(super) access: Arc<Access>,
    pub(super) port: u16,
    pub(super) http: reqwest::Client,
    pub(super) ntfy: ntfy::Queue,
    pub(super) webhooks: webhooks::Queues,
    pub telegram: telegram::Telegram,
    /// `HARK_HOME`, where the channels keep what must survive a restart (none in memory only).
    pub(super) home: Option<std::path::PathBuf>,
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
                self.deliver(channels, WebhookEvent::QuestionCreated, question);
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                self.capabilities.forget(question.id);
                if channels.ntfy.enabled {
                    self.ntfy.send(self, ntfy::Job::Replace(question.clone()));
                }
                self.deliver(channels, WebhookEvent::QuestionClosed, question);
            }
            Event::QuestionRemind(remind) => {
                let wanted = channels
                    .webhooks
                    .iter()
                    .any(|webhook| webhook.wants(WebhookEvent::QuestionRemind));
                if wanted {
                    for question in self.store.pending() {
                        if remind.ids.contains(&question.id) {
                            self.deliver(channels, WebhookEvent::QuestionRemind, &question);
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
        event: WebhookEvent,
        question: &Question,
    ) {
        for webhook in &channels.webhooks {
            if webhook.wants(event) {
                self.webhooks
                    .send(self, &webhook.url, event.name(), question);
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
        crate::security::network::pairing_address()
            .map(|address| format!("http://{address}:{}", self.port))
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
    pub async fn test(self: &Arc<Relay>, channel: ChannelName) -> Result<String, String> {
        match channel {
            ChannelName::Telegram => telegram::Telegram::test(self).await,
            ChannelName::Ntfy => ntfy::test(self).await,
            ChannelName::Webhook => webhooks::test(self).await,
        }
    }

    /// How every channel has fared, without a secret: what settings and `GET /api/channels`
    /// show.
    pub fn report(&self) -> hark_core::model::ChannelsReport {
        let server = self.store.config().channels.ntfy.server;
        hark_core::model::ChannelsReport {
            channels: self.statuses(),
            ntfy_token: self.secrets.ntfy_token_for(&server).is_some(),
            links: self.public_base().is_some(),
            telegram: self.telegram.report(self),
        }
    }
}
