//! The `Channel` trait: what every channel does for the hub (follow its events, send a test, say
//! how it fares, serve its own routes), so the relay, the API and settings handle every channel
//! the same way and a new one is a folder and a registry line.

use super::Relay;
use crate::http::state::AppState;
use axum::Router;
use hark_core::model::{ChannelError, ChannelName, Channels, ChannelsReport, Config, Event};
use std::any::Any;
use std::sync::Arc;

/// One channel: a peer of the page beyond this machine.
#[async_trait::async_trait]
pub trait Channel: Any + Send + Sync {
    /// Its name in the config, the API, statuses and `hark channel test`.
    fn name(&self) -> ChannelName;

    /// Whether `channels` turns it on; one that is off is handed no event.
    fn on(&self, channels: &Channels) -> bool;

    /// Sets its own tasks going, once, when the daemon starts (most start theirs on first use).
    fn start(self: Arc<Self>, _relay: &Arc<Relay>) {}

    /// The settings changed (whether it is on or not): a channel that holds a connection looks
    /// again.
    fn settings_changed(&self) {}

    /// One of the hub's events, while it is on, with the config as it was read for it. Never
    /// waits: a channel queues its work.
    fn handle(&self, relay: &Arc<Relay>, event: &Arc<Event>, config: &Config);

    /// Sends a test message now (once, without retries: the person is waiting), and says where
    /// it went.
    ///
    /// # Errors
    /// What kept it from arriving.
    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError>;

    /// Adds what it alone shows to `report` (statuses are the relay's).
    fn report(&self, _relay: &Relay, _report: &mut ChannelsReport) {}

    /// Its own routes under `/api` (`/<name>/<action>`, such as a bot's setup), if any.
    fn routes(self: Arc<Self>) -> Router<AppState> {
        Router::new()
    }

    /// Itself, for the one caller that needs its own type (`Relay::channel`).
    fn as_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
}
