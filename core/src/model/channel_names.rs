//! What channels and their events are called: `ChannelName` (how the API, settings, statuses
//! and `hark channel test` name a channel) and `WebhookEvent` (what a webhook may ask for), so
//! the code names them by type, never by string.

use serde::{Deserialize, Serialize};

/// A channel, as the API, settings, statuses and `hark channel test` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ChannelName {
    Telegram,
    Ntfy,
    #[serde(alias = "webhooks")]
    Webhook,
}

impl ChannelName {
    /// Every channel, in the order settings lists them.
    pub const ALL: [ChannelName; 3] = [
        ChannelName::Telegram,
        ChannelName::Ntfy,
        ChannelName::Webhook,
    ];

    /// The name as it is written (`telegram`, `ntfy`, `webhook`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelName::Telegram => "telegram",
            ChannelName::Ntfy => "ntfy",
            ChannelName::Webhook => "webhook",
        }
    }
}

impl std::fmt::Display for ChannelName {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl std::str::FromStr for ChannelName {
    type Err = String;

    /// One of the names (`webhooks` too), case-insensitive; otherwise a sentence listing them.
    fn from_str(name: &str) -> Result<ChannelName, String> {
        let name = name.trim().to_ascii_lowercase();
        let name = if name == "webhooks" { "webhook" } else { &name };
        ChannelName::ALL
            .into_iter()
            .find(|channel| channel.as_str() == name)
            .ok_or_else(|| {
                format!(
                    "there is no channel \"{name}\"; the channels are telegram, ntfy and webhook"
                )
            })
    }
}

/// An event a webhook may ask for. `question:closed` covers every close, answers included: the
/// question's `status` says which. The config lists them by name (`name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebhookEvent {
    QuestionCreated,
    QuestionClosed,
    QuestionRemind,
}

impl WebhookEvent {
    /// Every event, in the order the documentation lists them.
    pub const ALL: [WebhookEvent; 3] = [
        WebhookEvent::QuestionCreated,
        WebhookEvent::QuestionClosed,
        WebhookEvent::QuestionRemind,
    ];

    /// The event's name, as the config lists it and a delivery's `event` and `X-Hark-Event`
    /// carry it.
    pub fn name(self) -> &'static str {
        match self {
            WebhookEvent::QuestionCreated => "question:created",
            WebhookEvent::QuestionClosed => "question:closed",
            WebhookEvent::QuestionRemind => "question:remind",
        }
    }

    /// The event named `name`, if there is one.
    pub fn named(name: &str) -> Option<WebhookEvent> {
        WebhookEvent::ALL
            .into_iter()
            .find(|event| event.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ChannelTest;
    use serde_json::json;

    #[test]
    fn channel_names_read_as_written_and_unknown_ones_are_named() {
        for channel in ChannelName::ALL {
            let json = serde_json::to_value(channel).unwrap();
            assert_eq!(json, channel.as_str());
            assert_eq!(
                serde_json::from_value::<ChannelName>(json).unwrap(),
                channel
            );
            assert_eq!(channel.as_str().parse::<ChannelName>(), Ok(channel));
        }
        assert_eq!("Webhooks".parse::<ChannelName>(), Ok(ChannelName::Webhook));
        let refused = "pigeon".parse::<ChannelName>().unwrap_err();
        assert!(refused.contains("\"pigeon\"") && refused.contains("telegram, ntfy and webhook"));
        let test: Result<ChannelTest, _> = serde_json::from_value(json!({"channel": "pigeon"}));
        assert!(test.is_err());
        for event in WebhookEvent::ALL {
            assert_eq!(WebhookEvent::named(event.name()), Some(event));
        }
        assert_eq!(WebhookEvent::named("question:deleted"), None);
    }
}
