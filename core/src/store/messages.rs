//! Messages for a running agent (SPEC §18): the person writes one for an agent (client and
//! directory); it waits until that agent next reaches Hark, which collects every message
//! waiting for it, marked delivered in the same step, so each reaches the agent once.
//! Recorded on the log like questions: an acknowledged message survives a restart.

use super::{Durable, Store, StoreError, now};
use crate::model::{
    AgentMessage, AgentRef, Event, MessageId, MessageStatus, NewMessage, QuestionId, limits,
    validate_message,
};

impl Store {
    /// Keeps a new message for `message.to`; returns once it is durable, `message:created`
    /// having gone out.
    ///
    /// # Errors
    /// `Invalid` naming the field, `TooManyMessages` when too many wait already (for this
    /// agent, or for all), or `Storage` when the disk refused it (nothing kept then).
    pub async fn post_message(&self, message: NewMessage) -> Result<AgentMessage, StoreError> {
        validate_message(&message)?;
        let message = AgentMessage::waiting(message, now());
        let durable = {
            let mut state = self.state();
            let waiting = state.messages.iter().filter(|kept| kept.is_waiting());
            let for_agent = waiting.clone().filter(|kept| kept.to == message.to).count();
            if for_agent >= limits::MAX_WAITING_PER_AGENT {
                return Err(StoreError::TooManyMessages {
                    waiting: for_agent,
                    for_agent: true,
                });
            }
            let all = waiting.count();
            if all >= limits::MAX_MESSAGES {
                return Err(StoreError::TooManyMessages {
                    waiting: all,
                    for_agent: false,
                });
            }
            let durable = self.record_message(&message);
            state.messages.push_back(message.clone());
            // The oldest delivered ones leave memory first (the log keeps them); a waiting
            // one never does.
            while state.messages.len() > limits::MAX_MESSAGES {
                let Some(oldest_delivered) =
                    state.messages.iter().position(|kept| !kept.is_waiting())
                else {
                    break;
                };
                state.messages.remove(oldest_delivered);
            }
            self.announce(|| Event::MessageCreated(message.clone()));
            durable
        };
        let id = message.id;
        self.settle(durable, move |store, recorded| {
            if recorded.is_err() {
                store.forget_message(id);
            }
        })
        .await?;
        Ok(message)
    }

    /// The messages for agents, newest first.
    pub fn messages(&self) -> Vec<AgentMessage> {
        self.state().messages.iter().rev().cloned().collect()
    }

    /// Every message kept, newest first, for an export: the log's (which may keep more than
    /// memory does), or memory's without a log.
    pub async fn export_messages(&self) -> Vec<AgentMessage> {
        match &self.shared.log {
            Some(log) => {
                log.sync().await;
                log.messages().await
            }
            None => self.messages(),
        }
    }

    /// Hands `agent` every message waiting for it, oldest first, each marked delivered (and
    /// `message:delivered` sent) in the same step, so no message reaches an agent twice.
    /// Returns once the marks are durable.
    ///
    /// # Errors
    /// `Storage` when the disk refused the marks: the messages wait again, for the next call.
    pub async fn deliver_messages(
        &self,
        agent: &AgentRef,
    ) -> Result<Vec<AgentMessage>, StoreError> {
        self.deliver(agent, None).await
    }

    /// Like `deliver_messages`, but when none waits, waits up to `wait` for the first to come
    /// (a finished agent that may be continued, SPEC §20); nothing when none came, or the
    /// daemon stops.
    ///
    /// # Errors
    /// `Storage` when the disk refused the marks: the messages wait again, for the next call.
    pub async fn deliver_messages_within(
        &self,
        agent: &AgentRef,
        wait: std::time::Duration,
    ) -> Result<Vec<AgentMessage>, StoreError> {
        use tokio::sync::broadcast::error::RecvError;
        // Subscribed before the first look, so a message posted in between is not missed.
        let mut events = self.subscribe();
        let deadline = tokio::time::Instant::now() + wait;
        let shutdown = self.shutdown_token().clone();
        loop {
            let handed = self.deliver(agent, None).await?;
            if !handed.is_empty() || tokio::time::Instant::now() >= deadline {
                return Ok(handed);
            }
            loop {
                let event = tokio::select! {
                    event = tokio::time::timeout_at(deadline, events.recv()) => event,
                    () = shutdown.cancelled() => return Ok(Vec::new()),
                };
                match event {
                    Err(_) | Ok(Err(RecvError::Closed)) => return Ok(Vec::new()),
                    Ok(Err(RecvError::Lagged(_))) => break,
                    Ok(Ok(event)) => match &*event {
                        Event::MessageCreated(message) if message.to.matches(agent) => break,
                        _ => {}
                    },
                }
            }
        }
    }

    /// The messages for the agent that asked question `id`, to go with its answer (the wait's
    /// result): every one waiting for that agent, marked delivered with the question, and those
    /// delivered with it before. So a wait repeated because its result was lost on the way
    /// (the shim re-waits when its connection breaks; an agent may call `get_answer` again)
    /// hands the same messages over again, while no other question or call ever does. Returns
    /// once the marks are durable; nothing for a question without a known asking agent.
    ///
    /// # Errors
    /// `Storage` when the disk refused the marks: the messages wait again, for the next call.
    pub async fn deliver_with_answer(
        &self,
        id: QuestionId,
    ) -> Result<Vec<AgentMessage>, StoreError> {
        let in_memory = self
            .state()
            .entries
            .get(&id)
            .map(|entry| entry.question.source.clone());
        let source = match in_memory {
            Some(source) => source,
            None => self.get(id).await.and_then(|question| question.source),
        };
        match source.as_ref().and_then(AgentRef::of) {
            Some(agent) => self.deliver(&agent, Some(id)).await,
            None => Ok(Vec::new()),
        }
    }

    async fn deliver(
        &self,
        agent: &AgentRef,
        with: Option<QuestionId>,
    ) -> Result<Vec<AgentMessage>, StoreError> {
        let delivered_at = now();
        let (handed, newly, durable) = {
            let mut state = self.state();
            let mut handed = Vec::new();
            let mut newly = Vec::new();
            for message in state.messages.iter_mut() {
                if with.is_some() && message.delivered_with == with {
                    handed.push(message.clone());
                } else if message.is_waiting() && message.to.matches(agent) {
                    message.status = MessageStatus::Delivered;
                    message.delivered_at = Some(delivered_at);
                    message.delivered_with = with;
                    handed.push(message.clone());
                    newly.push(message.clone());
                }
            }
            let mut durable = Durable::Now;
            for message in &newly {
                durable = self.record_message(message);
                self.announce(|| Event::MessageDelivered(message.clone()));
            }
            (handed, newly, durable)
        };
        if newly.is_empty() {
            return Ok(handed);
        }
        // The writer commits in queue order: the last mark's acknowledgement covers them all.
        let ids: Vec<MessageId> = newly.iter().map(|message| message.id).collect();
        self.settle(durable, move |store, recorded| {
            if recorded.is_err() {
                store.undeliver(&ids);
            }
        })
        .await?;
        Ok(handed)
    }

    /// Brings back the messages the log held at start (newest first), before anything is served.
    pub(super) fn restore_messages(&self, newest_first: Vec<AgentMessage>) {
        let mut state = self.state();
        state.messages = newest_first.into_iter().rev().collect();
    }

    fn record_message(&self, message: &AgentMessage) -> Durable {
        match &self.shared.log {
            Some(log) => Durable::Queued(log.append_message(message.clone())),
            None => Durable::Now,
        }
    }

    /// Drops a message whose creation the disk refused, and resyncs every subscriber.
    fn forget_message(&self, id: MessageId) {
        let state = {
            let mut state = self.state();
            state.messages.retain(|message| message.id != id);
            self.snapshot_in_memory(&state)
        };
        self.send(Event::Init(state));
    }

    /// Makes messages whose delivery the disk refused wait again, and resyncs every subscriber.
    fn undeliver(&self, ids: &[MessageId]) {
        let state = {
            let mut state = self.state();
            for message in state.messages.iter_mut() {
                if ids.contains(&message.id) {
                    message.status = MessageStatus::Waiting;
                    message.delivered_at = None;
                    message.delivered_with = None;
                }
            }
            self.snapshot_in_memory(&state)
        };
        self.send(Event::Init(state));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Event;
    use tokio_util::sync::CancellationToken;

    fn to(client: &str, cwd: &str) -> AgentRef {
        AgentRef {
            client: client.into(),
            cwd: Some(cwd.into()),
        }
    }

    fn message(agent: AgentRef, text: &str) -> NewMessage {
        NewMessage {
            to: agent,
            text: text.into(),
            via: None,
        }
    }

    #[tokio::test]
    async fn a_message_waits_for_its_agent_and_reaches_it_once() {
        let store = Store::open(None, CancellationToken::new()).0;
        let mut events = store.subscribe();
        let first = store
            .post_message(message(to("claude-code", "/w/hark"), "use staging"))
            .await
            .unwrap();
        store
            .post_message(message(to("codex", "/w/hark"), "not for claude"))
            .await
            .unwrap();
        let second = store
            .post_message(message(to("claude-code", "/w/hark/"), "then stop"))
            .await
            .unwrap();
        assert!(
            matches!(&*events.recv().await.unwrap(), Event::MessageCreated(m) if m.id == first.id)
        );
        assert_eq!(first.status, MessageStatus::Waiting);

        let delivered = store
            .deliver_messages(&to("Claude-Code", "/w/hark"))
            .await
            .unwrap();
        let texts: Vec<_> = delivered.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["use staging", "then stop"]);
        assert!(delivered.iter().all(|m| m.delivered_at.is_some()));
        assert!(
            store
                .deliver_messages(&to("claude-code", "/w/hark"))
                .await
                .unwrap()
                .is_empty()
        );
        let listed = store.messages();
        assert_eq!(listed[0].id, second.id);
        assert_eq!(listed[0].status, MessageStatus::Delivered);
        assert_eq!(listed[1].status, MessageStatus::Waiting);
        let mut delivered_events = 0;
        while let Ok(event) = events.try_recv() {
            if matches!(&*event, Event::MessageDelivered(_)) {
                delivered_events += 1;
            }
        }
        assert_eq!(delivered_events, 2);
    }

    fn asked_by(client: &str, cwd: &str) -> crate::model::AskRequest {
        crate::model::AskRequest {
            questions: vec![crate::model::SubQuestion::text("Deploy now?")],
            source: Some(crate::model::Source {
                client: Some(client.into()),
                cwd: Some(cwd.into()),
                pid: None,
            }),
            ..crate::model::AskRequest::default()
        }
    }

    #[tokio::test]
    async fn an_answers_messages_come_again_with_that_answer_and_with_nothing_else() {
        let store = Store::open(None, CancellationToken::new()).0;
        let question = store
            .create(asked_by("claude-code 2.1", "/w/hark"))
            .await
            .unwrap()
            .question()
            .clone();
        let other = store
            .create(asked_by("codex", "/w/hark"))
            .await
            .unwrap()
            .question()
            .clone();
        store
            .post_message(message(to("claude-code", "/w/hark"), "use staging"))
            .await
            .unwrap();
        store
            .post_message(message(to("codex", "/w/hark"), "not for claude"))
            .await
            .unwrap();

        let first = store.deliver_with_answer(question.id).await.unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].text, "use staging");
        assert_eq!(first[0].delivered_with, Some(question.id));
        // The same wait again (its result lost on the way): the same message, once more.
        store
            .post_message(message(to("claude-code", "/w/hark"), "and then stop"))
            .await
            .unwrap();
        let again = store.deliver_with_answer(question.id).await.unwrap();
        let texts: Vec<_> = again.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["use staging", "and then stop"]);
        // Anything else the agent does finds nothing more.
        assert!(
            store
                .deliver_messages(&to("claude-code", "/w/hark"))
                .await
                .unwrap()
                .is_empty()
        );
        // Another agent's question takes only its own.
        let codex = store.deliver_with_answer(other.id).await.unwrap();
        assert_eq!(codex.len(), 1);
        assert_eq!(codex[0].text, "not for claude");
        // A question nobody knows the asker of takes nothing.
        let anonymous = store
            .create(crate::model::AskRequest {
                source: None,
                ..asked_by("x", "/")
            })
            .await
            .unwrap()
            .question()
            .id;
        assert!(
            store
                .deliver_with_answer(anonymous)
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn a_bad_message_names_its_field_and_is_not_kept() {
        let store = Store::open(None, CancellationToken::new()).0;
        let blank = store
            .post_message(message(to("claude-code", "/w"), "   "))
            .await
            .unwrap_err();
        assert!(
            matches!(&blank, StoreError::Invalid(body) if body.field.as_deref() == Some("text"))
        );
        let nobody = store
            .post_message(message(to(" ", "/w"), "hello"))
            .await
            .unwrap_err();
        assert!(
            matches!(&nobody, StoreError::Invalid(body) if body.field.as_deref() == Some("to.client"))
        );
        let long = "x".repeat(limits::MAX_MESSAGE_CHARS + 1);
        let too_long = store
            .post_message(message(to("claude-code", "/w"), &long))
            .await
            .unwrap_err();
        assert!(
            matches!(&too_long, StoreError::Invalid(body) if body.field.as_deref() == Some("text"))
        );
        assert!(store.messages().is_empty());
    }

    #[tokio::test]
    async fn messages_and_their_delivery_survive_a_restart() {
        let home = tempfile::tempdir().unwrap();
        let waiting_id;
        {
            let (store, _) = Store::open_persistent(home.path(), CancellationToken::new())
                .await
                .unwrap();
            store
                .post_message(message(to("claude-code", "/w/a"), "delivered one"))
                .await
                .unwrap();
            store
                .deliver_messages(&to("claude-code", "/w/a"))
                .await
                .unwrap();
            waiting_id = store
                .post_message(message(to("claude-code", "/w/b"), "still waiting"))
                .await
                .unwrap()
                .id;
            store.close_log().await;
        }
        let (store, _) = Store::open_persistent(home.path(), CancellationToken::new())
            .await
            .unwrap();
        let listed = store.messages();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0].id, waiting_id);
        assert!(listed[0].is_waiting());
        assert_eq!(listed[1].status, MessageStatus::Delivered);
        let delivered = store
            .deliver_messages(&to("claude-code", "/w/b"))
            .await
            .unwrap();
        assert_eq!(delivered.len(), 1);
    }
}
