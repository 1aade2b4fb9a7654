//! Config key `channels.webhooks`: addresses that receive `{event, question}` for the events
//! each asked for (`WebhookEvent`), signed with a secret kept in `secrets.json`.

use super::address::web_address;
use crate::model::ErrorBody;
use serde::{Deserialize, Serialize};

/// Webhooks at most.
pub const MAX_WEBHOOKS: usize = 10;

/// One of `channels.webhooks`: a URL that receives `{event, question}` for its events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub url: String,
    #[serde(default = "default_events")]
    pub events: Vec<String>,
}

fn default_events() -> Vec<String> {
    [WebhookEvent::QuestionCreated, WebhookEvent::QuestionClosed]
        .map(|event| event.name().to_string())
        .to_vec()
}

impl Webhook {
    /// Whether this webhook asked for `event`.
    pub fn wants(&self, event: WebhookEvent) -> bool {
        self.events.iter().any(|wanted| wanted == event.name())
    }
}

/// An event a webhook may ask for. `question:closed` covers every close, answers included: the
/// question's `status` says which. The config lists them by name (`name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebhookEvent {
    QuestionCreated,
    QuestionClosed,
    QuestionRemind,
    /// An agent session changed state or said something (SPEC §20): `{event, session}`.
    SessionUpdated,
}

impl WebhookEvent {
    /// Every event, in the order the documentation lists them.
    pub const ALL: [WebhookEvent; 4] = [
        WebhookEvent::QuestionCreated,
        WebhookEvent::QuestionClosed,
        WebhookEvent::QuestionRemind,
        WebhookEvent::SessionUpdated,
    ];

    /// The event's name, as the config lists it and a delivery's `event` and `X-Hark-Event`
    /// carry it.
    pub fn name(self) -> &'static str {
        match self {
            WebhookEvent::QuestionCreated => "question:created",
            WebhookEvent::QuestionClosed => "question:closed",
            WebhookEvent::QuestionRemind => "question:remind",
            WebhookEvent::SessionUpdated => "session:updated",
        }
    }

    /// The event named `name`, if there is one.
    pub fn named(name: &str) -> Option<WebhookEvent> {
        WebhookEvent::ALL
            .into_iter()
            .find(|event| event.name() == name)
    }
}

/// Checks and tidies `channels.webhooks`.
pub(super) fn check(webhooks: &mut [Webhook]) -> Result<(), ErrorBody> {
    if webhooks.len() > MAX_WEBHOOKS {
        return Err(ErrorBody::field(
            "channels.webhooks",
            format!("channels.webhooks holds at most {MAX_WEBHOOKS} webhooks"),
        ));
    }
    for (index, webhook) in webhooks.iter_mut().enumerate() {
        webhook.url = web_address(&format!("channels.webhooks[{index}].url"), &webhook.url)?;
        let unknown = webhook
            .events
            .iter()
            .any(|event| WebhookEvent::named(event).is_none());
        if webhook.events.is_empty() || unknown {
            let field = format!("channels.webhooks[{index}].events");
            let names: Vec<&str> = WebhookEvent::ALL.map(WebhookEvent::name).to_vec();
            return Err(ErrorBody::field(
                field.clone(),
                format!("{field} must list some of {}", names.join(", ")),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::WebhookEvent;

    #[test]
    fn webhook_events_read_as_written() {
        for event in WebhookEvent::ALL {
            assert_eq!(WebhookEvent::named(event.name()), Some(event));
        }
        assert_eq!(WebhookEvent::named("question:deleted"), None);
    }
}
