//! Channels (SPEC §11, §14): the hub's peers beyond this machine's page. Each is a `Channel`
//! (`channel`), listed once in `registry` below; the relay hands every one the hub's events and
//! answers what the API and settings ask of them. Nothing leaves the machine unless one is on.
//!
//! - `relay` holds what the channels share (the store, secrets, statuses, one HTTP client);
//! - `retry` is the one backoff schedule; `status` each channel's record since the start;
//!   `workers`: pushes and deliveries in order, one worker per target (ntfy, webhooks);
//! - `capability`: answer buttons that work away from the page (ntfy's; their route is
//!   `http::api::answer_link`);
//! - `pairing`: the one-time codes that pair a chat channel with its person; `posted`: what a
//!   chat channel posted, kept across restarts (`kept`: such a file); `refusals`: how often
//!   strangers hear back;
//!   `seen`: what a chat channel has already taken, heard once;
//! - `walk`: a question answered a sub-question at a time, shared by the chat channels; `tell`:
//!   their `/tell` command, a message for an agent;
//! - `chat`: the one chat engine and the `ChatApp` trait a chat app implements (Telegram,
//!   WeChat, Slack, Discord and Feishu/Lark);
//! - one folder per channel: `telegram` (a paired chat, with buttons that answer there), `wechat`
//!   (a logged-in WeChat, answered by typed replies), `slack` (direct messages with buttons over
//!   Socket Mode), `feishu` (cards in a Feishu/Lark chat over the long connection), `discord`
//!   (direct messages with buttons over the Gateway), `ntfy` (a push per question, replaced when it closes), `webhooks` (signed deliveries).

pub mod capability;
mod channel;
pub mod chat;
pub mod kept;
pub mod outbound;
pub mod pairing;
pub mod posted;
pub mod refusals;
pub mod relay;
mod retry;
pub mod seen;
pub mod status;
pub mod tell;
pub mod walk;
mod workers;

pub mod discord;
pub mod feishu;
pub mod ntfy;
pub mod slack;
pub mod telegram;
pub mod webhooks;
pub mod wechat;

pub use capability::Capabilities;
pub use channel::{Channel, input, output};
pub use relay::Relay;
pub use status::Statuses;

use std::sync::Arc;

/// Every channel, in the order settings and the report list them: a channel's `mod` line above
/// and its line here (docs/architecture.md's "Adding a chat app" lists the other places it touches). The
/// daemon hands it to its `Relay`; a test may hand in its own.
pub fn registry() -> Vec<Arc<dyn Channel>> {
    vec![
        Arc::new(chat::ChatChannel::new(telegram::Telegram::default())),
        Arc::new(chat::ChatChannel::new(wechat::Wechat::default())),
        Arc::new(chat::ChatChannel::new(slack::Slack::default())),
        Arc::new(chat::ChatChannel::new(feishu::Feishu::default())),
        Arc::new(chat::ChatChannel::new(discord::Discord::default())),
        Arc::new(ntfy::Ntfy::default()),
        Arc::new(webhooks::Webhooks::default()),
    ]
}
