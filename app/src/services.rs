//! What the daemon gives the page's server functions, declared here and provided by the server
//! crate (which holds the secrets, sends the messages and knows the network): the channels'
//! desk, the phone's pairing details, and the paths of the server functions whose bodies may be
//! large. Server only.

use hark_core::model::{ChannelError, ChannelsReport, Pairing};
use leptos::server_fn::ServerFn;

/// What the daemon's channels can tell and do for this page (provided by the server crate,
/// which holds the secrets and sends the messages).
pub trait ChannelDesk: Send + Sync {
    /// How every channel has fared.
    fn report(&self) -> ChannelsReport;
    /// The webhook's signing secret, created when it has none.
    fn webhook_secret(&self, url: &str) -> Option<String>;
    /// Sets (or removes) ntfy's access token, for `server` only.
    ///
    /// # Errors
    /// When it cannot be saved.
    fn set_ntfy_token(&self, token: Option<String>, server: &str) -> std::io::Result<()>;
    /// Sends a test message on `channel` now.
    fn test(
        &self,
        channel: hark_core::model::ChannelName,
    ) -> DeskFuture<Result<String, ChannelError>>;
    /// Checks the Telegram bot token (or the saved one), keeps it, turns the bot on and makes
    /// a pairing code.
    fn telegram_setup(
        &self,
        token: Option<String>,
    ) -> DeskFuture<
        Result<
            hark_core::model::channels::telegram::TelegramReport,
            hark_core::model::channels::telegram::TelegramRefusal,
        >,
    >;
    /// Forgets the paired Telegram chat.
    fn telegram_unpair(&self) -> DeskFuture<Result<(), ChannelError>>;
    /// Forgets the Telegram bot token and turns the bot off.
    fn telegram_forget(&self) -> DeskFuture<Result<(), ChannelError>>;
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

/// The answer form's server function: an answer may carry images, so its body may be large.
pub const ANSWER_FORM_PATH: &str = <crate::pages::question::SubmitAnswer as ServerFn>::PATH;

/// The skip form's server function, which takes only the usual small body.
pub const SKIP_FORM_PATH: &str = <crate::pages::question::SkipQuestion as ServerFn>::PATH;
