//! What the daemon gives the page's server functions, declared here and provided by the server
//! crate (which holds the secrets, sends the messages and knows the network): the channels'
//! desk, the phone's pairing details, and the paths of the server functions whose bodies may be
//! large. Server only.

use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelError, ChannelName, ChannelsReport, Pairing,
};

/// What the daemon's channels can tell and do for this page (provided by the server crate,
/// which holds the secrets and sends the messages). Every channel is reached the same way: by
/// its name, and for what only it does, by its own action with its own JSON (what
/// `POST /api/<channel>/<action>` takes).
pub trait ChannelDesk: Send + Sync {
    /// How every channel has fared.
    fn report(&self) -> ChannelsReport;
    /// Sends a test message on `channel` now.
    fn test(&self, channel: ChannelName) -> DeskFuture<Result<String, ChannelError>>;
    /// Does `channel`'s own `action` with `input`, answering its own JSON.
    fn act(
        &self,
        channel: ChannelName,
        action: ChannelAction,
        input: serde_json::Value,
    ) -> DeskFuture<Result<serde_json::Value, ActionRefusal>>;
    /// Sets (or removes) `channel`'s access token, for the server its settings name.
    fn set_token(
        &self,
        channel: ChannelName,
        token: Option<String>,
    ) -> DeskFuture<Result<(), ChannelError>>;
    /// The secrets settings shows for `channel` (a receiver's signing secret), made when
    /// missing.
    fn shown_secrets(
        &self,
        channel: ChannelName,
    ) -> DeskFuture<Result<Vec<(String, String)>, ChannelError>>;
}

/// What the desk's slow calls return.
pub type DeskFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>;

/// The desk, as the page's context.
#[derive(Clone)]
pub struct ChannelDeskContext(pub std::sync::Arc<dyn ChannelDesk>);

/// Where the daemon's pairing details come from (provided by the server crate, which holds
/// the token and knows the network).
#[derive(Clone)]
pub struct PairingSource(pub std::sync::Arc<dyn Fn() -> Pairing + Send + Sync>);
