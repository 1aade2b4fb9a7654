//! Config key `channels.ntfy`: push notifications through an ntfy server (ntfy.sh or one's
//! own). Its access token is in `secrets.json`.

use super::address::web_address;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// `channels.ntfy`: push notifications through an ntfy server (ntfy.sh or one's own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Ntfy {
    pub enabled: bool,
    pub server: String,
    pub topic: String,
}

impl Default for Ntfy {
    fn default() -> Self {
        Self {
            enabled: false,
            server: "https://ntfy.sh".to_string(),
            topic: String::new(),
        }
    }
}

/// Checks and tidies `channels.ntfy`.
pub(super) fn check(ntfy: &mut Ntfy) -> Result<(), ErrorBody> {
    ntfy.server = web_address("channels.ntfy.server", &ntfy.server)?;
    ntfy.topic = ntfy.topic.trim().to_string();
    let topic = &ntfy.topic;
    let topic_fits = topic.len() <= 64
        && topic
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !topic_fits || (ntfy.enabled && topic.is_empty()) {
        return Err(ErrorBody::field(
            "channels.ntfy.topic",
            "channels.ntfy.topic must be 1 to 64 letters, digits, - or _ (hard to guess: \
             anyone who knows it can read the pushes)",
        ));
    }
    Ok(())
}
