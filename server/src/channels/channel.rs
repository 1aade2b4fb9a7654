//! The `Channel` trait: what every channel does for the hub (follow its events, send a test, say
//! how it fares, serve its own routes), so the relay, the API and settings handle every channel
//! the same way and a new one is mostly its own folder.

use super::Relay;
use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelError, ChannelName, Channels, ChannelsReport, Config,
    ErrorBody, Event,
};
use serde_json::Value;
use std::sync::Arc;

/// One channel: a peer of the page beyond this machine.
#[async_trait::async_trait]
pub trait Channel: Send + Sync {
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

    /// Its own actions (a bot's `setup`, `unpair`, `forget`): each is `POST /api/<name>/<action>`
    /// and what settings does through the desk.
    fn actions(&self) -> &'static [ChannelAction] {
        &[]
    }

    /// Does `action` with `input` (JSON of the channel's own request type), and answers JSON of
    /// its own report type.
    ///
    /// # Errors
    /// The action's refusal, with the status REST answers with.
    async fn act(
        &self,
        _relay: &Arc<Relay>,
        action: ChannelAction,
        _input: Value,
    ) -> Result<Value, ActionRefusal> {
        Err(ActionRefusal::no_action(self.name(), action))
    }

    /// Sets (or with `None` removes) its access token, for the server its settings name.
    ///
    /// # Errors
    /// When it takes no token, or the token cannot be saved.
    async fn set_token(
        &self,
        _relay: &Arc<Relay>,
        _token: Option<String>,
    ) -> Result<(), ChannelError> {
        Err(ChannelError::NotSetUp(format!(
            "{} takes no access token",
            self.name()
        )))
    }

    /// The secrets settings shows the person, by what each is for (a receiver's signing secret,
    /// which its receiver needs), made when missing.
    ///
    /// # Errors
    /// When one cannot be made and saved.
    async fn shown_secrets(
        &self,
        _relay: &Arc<Relay>,
    ) -> Result<Vec<(String, String)>, ChannelError> {
        Ok(Vec::new())
    }
}

/// An action's `input` as the channel's own request type; a value that does not fit is refused
/// naming its field (`botToken`).
///
/// # Errors
/// A 400 naming the field.
pub fn input<T: serde::de::DeserializeOwned>(input: Value) -> Result<T, ActionRefusal> {
    serde_path_to_error::deserialize(input).map_err(|error| {
        let field = hark_core::model::field_of(&error);
        let body = if matches!(field.as_str(), "." | "?" | "") {
            ErrorBody::new(format!("the request body does not fit: {}", error.inner()))
        } else {
            ErrorBody::field(field.clone(), format!("{field}: {}", error.inner()))
        };
        ActionRefusal {
            status: 400,
            body,
            refusal: None,
        }
    })
}

/// `value` as an action's answer.
pub fn output(value: &impl serde::Serialize) -> Result<Value, ActionRefusal> {
    serde_json::to_value(value).map_err(|error| ActionRefusal {
        status: 500,
        body: ErrorBody::new(format!("the answer could not be written: {error}")),
        refusal: None,
    })
}
