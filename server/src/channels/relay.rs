//! The relay: one task reads the store's events and hands each to every channel that is on,
//! which queues its work, so a slow or dead receiver never holds up the store or the API; it
//! holds what the channels share (secrets, answer buttons, statuses, one HTTP client) and answers
//! what settings and the API ask of them (their report, a test message, their actions).

use super::{Capabilities, Channel, Statuses};
use crate::daemon::secrets::Secrets;
use crate::security::access::Access;
use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelError, ChannelName, ChannelsReport, Event,
};
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
    /// `HARK_HOME`, where the channels keep what must survive a restart (none in memory only).
    pub(super) home: Option<std::path::PathBuf>,
    channels: Vec<Arc<dyn Channel>>,
}

impl Relay {
    /// The relay of `channels` (`channels::registry()` in a daemon) for a daemon on `port`;
    /// `start` sets it to work.
    pub fn new(
        store: Store,
        secrets: Arc<Secrets>,
        access: Arc<Access>,
        port: u16,
        home: Option<std::path::PathBuf>,
        channels: Vec<Arc<dyn Channel>>,
    ) -> Arc<Relay> {
        let http = super::outbound::client(REQUEST_TIMEOUT);
        Arc::new(Relay {
            store,
            secrets,
            capabilities: Capabilities::default(),
            statuses: Statuses::default(),
            access,
            port,
            http,
            home,
            channels,
        })
    }

    /// Changes `channels` in the config under the config's lock (a pairing made meanwhile is
    /// kept), as a channel's setup, pairing and unpairing do.
    ///
    /// # Errors
    /// When the config cannot be saved.
    pub async fn change_channels(
        &self,
        change: impl FnOnce(&mut hark_core::model::Channels) + Send + 'static,
    ) -> Result<(), ChannelError> {
        self.store
            .update_config_with(move |config| {
                let mut channels = config.channels.clone();
                change(&mut channels);
                serde_json::json!({ "channels": channels })
            })
            .await
            .map(|_| ())
            .map_err(|error| {
                ChannelError::NotSaved(format!("the config could not be saved: {error}"))
            })
    }

    /// Sets (with `None`: removes) credentials bound to the service address `server`, in one
    /// write to `secrets.json`, synced to disk on the blocking pool.
    ///
    /// # Errors
    /// When `secrets.json` cannot be written.
    pub async fn save_credentials(
        &self,
        values: Vec<(crate::daemon::secrets::BoundKey, Option<String>)>,
        server: &str,
    ) -> std::io::Result<()> {
        let (secrets, server) = (self.secrets.clone(), server.to_string());
        tokio::task::spawn_blocking(move || secrets.set_bound(values, &server))
            .await
            .map_err(std::io::Error::other)?
    }

    /// Reads the store's events until the daemon stops.
    pub fn start(self: &Arc<Relay>) {
        for channel in &self.channels {
            channel.clone().start(self);
        }
        let (relay, mut events) = (self.clone(), self.store.subscribe());
        let shutdown = self.store.shutdown_token().clone();
        tokio::spawn(shutdown.run_until_cancelled_owned(async move {
            loop {
                match events.recv().await {
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
        }));
    }

    fn handle(self: &Arc<Relay>, event: &Arc<Event>) {
        match &**event {
            Event::ConfigUpdated(_) => {
                for channel in &self.channels {
                    channel.settings_changed();
                }
            }
            // Answer buttons die with their question, whichever channel handed them out.
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                self.capabilities.forget(question.id);
            }
            _ => {}
        }
        // Most daemons have no channel on: then the config is not copied, and nothing is sent.
        let on: Vec<bool> = self.store.read_config(|config| {
            self.channels
                .iter()
                .map(|channel| channel.on(&config.channels))
                .collect()
        });
        if !on.contains(&true) {
            return;
        }
        let config = self.store.config();
        for (channel, on) in self.channels.iter().zip(on) {
            if on {
                channel.handle(self, event, &config);
            }
        }
    }

    /// Where links sent away from this machine start under `config`: `channels.publicUrl`,
    /// else LAN mode's address; `None` with neither, when only text can be sent.
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

    /// The channel called `name`.
    fn named(&self, name: ChannelName) -> Result<&Arc<dyn Channel>, ChannelError> {
        (self.channels.iter().find(|channel| channel.name() == name))
            .ok_or_else(|| ChannelError::NotSetUp(format!("this daemon has no {name} channel")))
    }

    /// Sends a test message on `channel` now, and says where it went.
    ///
    /// # Errors
    /// What kept it from arriving (never a secret).
    pub async fn test(self: &Arc<Relay>, channel: ChannelName) -> Result<String, ChannelError> {
        let tested = self.named(channel)?.test(self).await;
        tested.map_err(|error| error.map_reason(crate::security::redact::secrets))
    }

    /// How every channel has fared, without a secret: what settings and `GET /api/channels`
    /// show.
    pub fn report(&self) -> ChannelsReport {
        let mut report = ChannelsReport {
            channels: self.statuses.all(),
            links: self.public_base_in(&self.store.config()).is_some(),
            ..ChannelsReport::default()
        };
        for channel in &self.channels {
            channel.report(self, &mut report);
        }
        // A report may quote a service's words, which may quote a credential back.
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        crate::security::redact::secrets_in(&mut value);
        serde_json::from_value(value).unwrap_or(report)
    }

    /// Does `channel`'s own `action` (see `Channel::act`).
    ///
    /// # Errors
    /// The channel's refusal; a 404 for a channel or action there is not.
    pub async fn act(
        self: &Arc<Relay>,
        channel: ChannelName,
        action: ChannelAction,
        input: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        match self.named(channel) {
            Ok(found) if found.actions().contains(&action) => {
                found.act(self, action, input).await.map_err(|mut refusal| {
                    refusal.body.error = crate::security::redact::secrets(&refusal.body.error);
                    if let Some(words) = refusal.refusal.as_deref_mut() {
                        crate::security::redact::secrets_in(words);
                    }
                    refusal
                })
            }
            _ => Err(ActionRefusal::no_action(channel, action)),
        }
    }

    /// Sets (or removes) `channel`'s access token (see `Channel::set_token`).
    ///
    /// # Errors
    /// When it takes none, or it cannot be saved.
    pub async fn set_token(
        self: &Arc<Relay>,
        channel: ChannelName,
        token: Option<String>,
    ) -> Result<(), ChannelError> {
        self.named(channel)?.set_token(self, token).await
    }

    /// The secrets settings shows for `channel` (see `Channel::shown_secrets`).
    ///
    /// # Errors
    /// When one cannot be made and saved.
    pub async fn shown_secrets(
        self: &Arc<Relay>,
        channel: ChannelName,
    ) -> Result<Vec<(String, String)>, ChannelError> {
        self.named(channel)?.shown_secrets(self).await
    }

    /// Every channel's own actions, by channel: each is `POST /api/<channel>/<action>`.
    pub fn actions(&self) -> Vec<(ChannelName, ChannelAction)> {
        self.channels
            .iter()
            .flat_map(|channel| {
                let name = channel.name();
                channel.actions().iter().map(move |action| (name, *action))
            })
            .collect()
    }
}
