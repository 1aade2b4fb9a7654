//! Webhooks (SPEC §11): each event a webhook asked for is POSTed to it as `{event, question}` (or
//! `{event, session}` for `session:updated`, an agent session's change, SPEC §20),
//! signed `X-Hark-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<delivery id>.<body>">`
//! with the webhook's secret (`secrets.json`), in the manner of Stripe's `Stripe-Signature`: the
//! time and the delivery id are signed with the body, so a receiver that takes no
//! signature older than five minutes and remembers the ids it took refuses a replayed delivery. With
//! `X-Hark-Event` and the delivery id (`X-Hark-Delivery`, the same on every retry; each attempt is
//! signed anew). One worker per webhook delivers in order and retries with backoff, a bounded number
//! of times; its queue is bounded too, so a receiver that is down costs the daemon nothing but
//! the failures recorded in its status.

use super::outbound;
use super::retry::{DELIVERY, retried};
use super::workers::Workers;
use super::{Channel, Relay};
use crate::daemon::secrets::MintedKeys;
use hark_core::model::channels::webhook::WebhookEvent;
use hark_core::model::{
    AgentSession, ChannelError, ChannelName, Channels, Config, Event, Question,
};
use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::Sha256;
use std::sync::Arc;

/// Each webhook's signing secret in `secrets.json`, by its URL.
pub const SIGNING: MintedKeys = MintedKeys {
    map: "webhooks",
    prefix: "whsec_",
};

/// The channel: a worker per webhook.
#[derive(Default)]
pub struct Webhooks {
    workers: Workers<Delivery>,
}

#[async_trait::async_trait]
impl Channel for Webhooks {
    fn name(&self) -> ChannelName {
        ChannelName::Webhook
    }

    fn on(&self, channels: &Channels) -> bool {
        !channels.webhooks.is_empty()
    }

    fn handle(&self, relay: &Arc<Relay>, event: &Arc<Event>, config: &Config) {
        let webhooks = &config.channels.webhooks;
        let deliver =
            |event: WebhookEvent, question: Option<&Question>, session: Option<&AgentSession>| {
                let payload = Payload {
                    event: event.name(),
                    question,
                    session,
                };
                for webhook in webhooks.iter().filter(|webhook| webhook.wants(event)) {
                    self.send(relay, &webhook.url, &payload);
                }
            };
        match &**event {
            Event::QuestionCreated(question) => {
                deliver(WebhookEvent::QuestionCreated, Some(question), None);
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                deliver(WebhookEvent::QuestionClosed, Some(question), None);
            }
            Event::QuestionRemind(remind)
                if webhooks
                    .iter()
                    .any(|webhook| webhook.wants(WebhookEvent::QuestionRemind)) =>
            {
                for question in relay.store.pending() {
                    if remind.ids.contains(&question.id) {
                        deliver(WebhookEvent::QuestionRemind, Some(&question), None);
                    }
                }
            }
            Event::SessionUpdated(session) => {
                deliver(WebhookEvent::SessionUpdated, None, Some(session));
            }
            Event::QuestionRemind(_)
            | Event::Init(_)
            | Event::ConfigUpdated(_)
            | Event::QuestionUpdated(_)
            | Event::MessageCreated(_)
            | Event::MessageDelivered(_) => {}
        }
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        test(relay).await
    }

    /// Each webhook's signing secret, by its address, for its receiver to check signatures
    /// with.
    async fn shown_secrets(
        &self,
        relay: &Arc<Relay>,
    ) -> Result<Vec<(String, String)>, ChannelError> {
        let urls: Vec<String> = relay.store.read_config(|config| {
            config
                .channels
                .webhooks
                .iter()
                .map(|webhook| webhook.url.clone())
                .collect()
        });
        let secrets = relay.secrets.clone();
        // A webhook without a secret gets one here, synced to disk: on the blocking pool. One
        // that cannot be kept is left out (and goes in its status); the others are shown.
        let keeper = relay.clone();
        tokio::task::spawn_blocking(move || {
            urls.into_iter()
                .filter_map(|url| match secrets.minted(SIGNING, &url) {
                    Ok(secret) => Some((url, secret)),
                    Err(error) => {
                        let reason = format!("cannot keep the webhook's secret: {}", error.kind());
                        keeper.statuses.failed(ChannelName::Webhook, &url, reason);
                        None
                    }
                })
                .collect()
        })
        .await
        .map_err(|error| ChannelError::NotSaved(format!("the secrets could not be read: {error}")))
    }
}

impl Webhooks {
    /// Queues `event` about `question` for the webhook at `url`, without waiting.
    fn send(&self, relay: &Arc<Relay>, url: &str, payload: &Payload<'_>) {
        let body = match serde_json::to_vec(payload) {
            Ok(body) => body,
            Err(error) => {
                let reason = format!("cannot encode the event: {error}");
                relay.statuses.failed(ChannelName::Webhook, url, reason);
                return;
            }
        };
        let delivery = Delivery {
            id: uuid::Uuid::new_v4(),
            event: payload.event,
            body,
        };
        let (worker, target) = (relay.clone(), url.to_string());
        let work = move |delivery: Delivery| {
            let (relay, url) = (worker.clone(), target.clone());
            async move {
                let _ = deliver(&relay, &url, &delivery, DELIVERY.attempts).await;
            }
        };
        (self.workers).send(relay, ChannelName::Webhook, url, delivery, work);
    }
}

/// What a webhook receives: the event, and the question or the session it is about.
#[derive(Serialize)]
pub struct Payload<'a> {
    pub event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<&'a Question>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a AgentSession>,
}

struct Delivery {
    id: uuid::Uuid,
    event: &'static str,
    body: Vec<u8>,
}

/// `X-Hark-Signature` for `body`, delivery `delivery`, sent at `at` (unix seconds).
pub fn signature(secret: &str, at: i64, delivery: &str, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(format!("{at}.{delivery}.").as_bytes());
    mac.update(body);
    format!("t={at},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// Delivers one event in at most `attempts`, with backoff between them; records the outcome.
async fn deliver(
    relay: &Relay,
    url: &str,
    delivery: &Delivery,
    attempts: u32,
) -> Result<(), ChannelError> {
    // A first delivery creates the secret and syncs it to disk: on the blocking pool.
    let (secrets, owned) = (relay.secrets.clone(), url.to_string());
    let secret = tokio::task::spawn_blocking(move || secrets.minted(SIGNING, &owned))
        .await
        .map_err(std::io::Error::other)
        .and_then(|created| created);
    let secret = secret.map_err(|error| {
        let reason = format!("cannot keep the webhook's secret: {}", error.kind());
        relay
            .statuses
            .failed(ChannelName::Webhook, url, reason.clone());
        ChannelError::NotSaved(reason)
    })?;
    let (secret, delivery_id) = (secret.as_str(), delivery.id.to_string());
    let delivery_id = delivery_id.as_str();
    retried(DELIVERY.with_attempts(attempts), |attempt| async move {
        let now = chrono::Utc::now().timestamp();
        let signed = signature(secret, now, delivery_id, &delivery.body);
        let request = relay
            .http
            .post(url)
            .header("content-type", "application/json")
            .header("X-Hark-Event", delivery.event)
            .header("X-Hark-Delivery", delivery_id)
            .header("X-Hark-Signature", signed)
            .body(delivery.body.clone());
        let said = |reason| format!("{reason} (attempt {attempt} of {attempts})");
        outbound::delivered(relay, ChannelName::Webhook, url, request, said).await
    })
    .await
}

/// `hark channel test webhook`: a `hark:test` delivery to every webhook, at once, one attempt
/// each (the person is waiting for the answer).
async fn test(relay: &Arc<Relay>) -> Result<String, ChannelError> {
    let webhooks = relay.store.config().channels.webhooks;
    if webhooks.is_empty() {
        return Err(ChannelError::NotSetUp(
            "no webhook is set: add one to channels.webhooks (settings, \"Notify me elsewhere\")"
                .into(),
        ));
    }
    let body = serde_json::to_vec(&serde_json::json!({"event": "hark:test"})).unwrap_or_default();
    let mut reached = Vec::new();
    for webhook in &webhooks {
        let delivery = Delivery {
            id: uuid::Uuid::new_v4(),
            event: "hark:test",
            body: body.clone(),
        };
        let shown = super::status::shown(&webhook.url);
        match deliver(relay, &webhook.url, &delivery, 1).await {
            Ok(()) => reached.push(shown),
            // Which of them failed, and why.
            Err(error) => return Err(error.map_reason(|reason| format!("{shown}: {reason}"))),
        }
    }
    Ok(format!(
        "delivered a signed test event to {}",
        reached.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_signature_is_the_documented_hmac() {
        // RFC 4231, test case 2.
        // RFC 4231's HMAC over what is signed: the time, the delivery id and the body.
        let signed = super::signature(
            "Jefe",
            1_700_000_000,
            "d-1",
            b"what do ya want for nothing?",
        );
        let mut mac = <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(b"Jefe").unwrap();
        hmac::Mac::update(&mut mac, b"1700000000.d-1.what do ya want for nothing?");
        let expected = hex::encode(hmac::Mac::finalize(mac).into_bytes());
        assert_eq!(signed, format!("t=1700000000,v1={expected}"));
        // And the RFC's own vector, for the HMAC itself.
        let mut mac = <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(b"Jefe").unwrap();
        hmac::Mac::update(&mut mac, b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(hmac::Mac::finalize(mac).into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
