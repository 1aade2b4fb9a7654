//! The engine's task: one conversation per pending question in the paired person's chat. It
//! posts each question once, updates its message as the person walks through it and when it
//! closes (controls removed), posts replies and reminders in order, and keeps the record of
//! posted messages, so after a restart the messages are updated rather than posted again (and
//! posted again only when the service says one is gone). What could not go out waits, and is
//! tried again after the shared pause schedule.

use super::pauses::Pauses;
use super::words::Words;
use super::{ChatApp, Input, Lined, ServiceError, Shared};
use crate::channels::Relay;
use crate::channels::posted::{Entry, Place, Posted};
use crate::channels::refusals::Refusals;
use crate::channels::seen::Seen;
use crate::channels::tell;
use crate::channels::walk::Walk;
use hark_core::model::{AgentRef, Event, Question, QuestionId};
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Closed questions' messages remembered, so a reply to one reaches its agent.
pub(super) const FINISHED_KEPT: usize = 100;

/// A prompt that asked for words (Telegram's ForceReply): its message, and the step and
/// words it asked for.
#[derive(Clone, Debug)]
pub(super) struct Prompt {
    pub message: String,
    pub step: usize,
    pub awaiting: crate::channels::walk::Awaiting,
}

/// One question in the chat.
pub(super) struct Conversation<A: ChatApp> {
    pub question: Question,
    pub walk: Walk,
    pub posted: Option<A::Message>,
    shown: Option<A::View>,
    /// The prompt sent last, whose replies belong to this question.
    pub prompt: Option<Prompt>,
    pub closed: bool,
    /// A text-only app's step sent last, and when (milliseconds since 1970).
    pub shown_step: Option<(usize, i64)>,
    /// A text-only app shows the step again (after saying why a reply was not taken).
    pub reshow: bool,
}

impl<A: ChatApp> Conversation<A> {
    pub(super) fn new(question: Question, posted: Option<A::Message>) -> Self {
        Conversation {
            question,
            walk: Walk::default(),
            posted,
            shown: None,
            prompt: None,
            closed: false,
            shown_step: None,
            reshow: false,
        }
    }

    /// Whether `message` is this question's, or its prompt's.
    pub fn owns(&self, message: &str) -> bool {
        self.posted
            .as_ref()
            .is_some_and(|posted| A::message_id(posted) == message)
            || self
                .prompt
                .as_ref()
                .is_some_and(|prompt| prompt.message == message)
    }

    fn wanted(&self, app: &A, lang: hark_text::Lang) -> A::View {
        if self.closed {
            app.closed(lang, &self.question)
        } else {
            app.pending(lang, &self.question, &self.walk)
        }
    }
}

/// Where a text goes: a conversation known already, or the one with a person.
pub(super) enum To {
    At(String),
    Person(String),
}

/// The engine's state.
pub(super) struct Engine<A: ChatApp> {
    pub relay: Arc<Relay>,
    pub app: Arc<A>,
    pub shared: Arc<Shared>,
    pub conversations: Vec<Conversation<A>>,
    /// The conversation with the paired person, once opened: (person, conversation).
    pub direct: Option<(String, String)>,
    /// The person the conversations are with: another person starts them over.
    with: Option<String>,
    /// Texts to post, oldest first (replies, reminders), kept while the service is away.
    pub outbox: VecDeque<(To, A::View)>,
    /// Closed questions' messages and their agents.
    pub(super) finished: VecDeque<(String, AgentRef)>,
    /// The questions a reminder is due for.
    reminder: Option<Vec<QuestionId>>,
    pub strangers: Refusals<String>,
    /// Messages taken, by id.
    pub seen: Seen,
    /// Questions whose message the service refused for good: not posted again.
    pub given_up: HashSet<QuestionId>,
    pub retry_at: Option<Instant>,
    pauses: Pauses,
    /// Sessions' notices (`notices`), and the agent noticed last (a tell without a reply is
    /// for it, in an app without replies).
    pub(super) notices: Vec<super::notices::Notice<A>>,
    pub(super) last_noticed: Option<AgentRef>,
    /// Waiting for what came before them to be taken and kept.
    settling: Vec<tokio::sync::oneshot::Sender<()>>,
    posts: Posted<A::Message>,
}

/// Runs the engine until the daemon stops.
pub async fn run<A: ChatApp>(
    relay: Arc<Relay>,
    app: Arc<A>,
    shared: Arc<Shared>,
    mut inbox: mpsc::Receiver<Input<A::Responder>>,
) {
    let shutdown = relay.store.shutdown_token().clone();
    let posts = Posted::load(relay.home.clone(), A::RECORD).await;
    let mut engine = Engine::new(relay, app, shared, posts);
    loop {
        // What waits is taken first: a tap must be answered within the service's time (3 s
        // for Discord and Slack), before the sync's requests.
        while let Ok(input) = inbox.try_recv() {
            engine.take(input).await;
        }
        engine.sync().await;
        engine.settle().await;
        let retry_at = engine.retry_at;
        let input = tokio::select! {
            input = inbox.recv() => input,
            () = async {
                match retry_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => {
                engine.retry_at = None;
                continue;
            }
            () = shutdown.cancelled() => return,
        };
        let Some(input) = input else { return };
        engine.take(input).await;
    }
}

impl<A: ChatApp> Engine<A> {
    pub(super) fn new(
        relay: Arc<Relay>,
        app: Arc<A>,
        shared: Arc<Shared>,
        posts: Posted<A::Message>,
    ) -> Self {
        Engine {
            relay,
            app,
            shared,
            conversations: Vec::new(),
            direct: None,
            with: None,
            outbox: VecDeque::new(),
            finished: VecDeque::new(),
            reminder: None,
            strangers: Refusals::default(),
            seen: Seen::default(),
            given_up: HashSet::new(),
            retry_at: None,
            pauses: Pauses::default(),
            notices: Vec::new(),
            last_noticed: None,
            settling: Vec::new(),
            posts,
        }
    }

    pub(super) async fn take(&mut self, input: Input<A::Responder>) {
        match input {
            Input::Event(event) => self.follow(&event),
            Input::Inbound(inbound) => self.take_inbound(inbound).await,
            Input::Unpaired(person) => self.unpaired(person),
            Input::Settled(settled) => self.settling.push(settled),
        }
    }

    /// Keeps the record, then answers those waiting for what came before them.
    pub(super) async fn settle(&mut self) {
        if self.settling.is_empty() {
            return;
        }
        if let Some(person) = self.with.clone() {
            self.keep_record(&person).await;
        }
        for settled in self.settling.drain(..) {
            let _ = settled.send(());
        }
    }

    pub(super) fn words(&self) -> Words {
        Words::of::<A>(&self.relay)
    }

    /// The paired person, as the settings stand.
    pub(super) fn person(&self) -> Option<String> {
        self.relay
            .store
            .read_config(|config| config.channels.chat_app(A::NAME).1)
    }

    pub(super) fn find(&mut self, id: QuestionId) -> Option<&mut Conversation<A>> {
        self.conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id)
    }

    /// A store event: a new question to post, one to update, a reminder.
    fn follow(&mut self, event: &Event) {
        match event {
            // Without anyone to post to, the first look at the store brings it in.
            Event::QuestionCreated(question) => {
                // A tell without a reply is for the newer of the last notice and the asker.
                self.last_noticed = None;
                if self.with.is_some() && self.find(question.id).is_none() {
                    self.conversations
                        .push(Conversation::new(question.clone(), None));
                }
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                if let Some(conversation) = self.find(question.id) {
                    conversation.question = question.clone();
                    conversation.closed = true;
                }
            }
            // One reminder waits at most, the latest: drawn when it goes out, of what is still
            // open then, and dropped if it cannot go out (it is worth sending only now).
            Event::QuestionRemind(remind) => self.reminder = Some(remind.ids.clone()),
            Event::Init(_)
            | Event::QuestionUpdated(_)
            | Event::ConfigUpdated(_)
            | Event::MessageCreated(_)
            | Event::MessageDelivered(_) => {}
            Event::SessionUpdated(session) => self.follow_session(session),
        }
    }

    /// Queues `text` for the paired person, if one is.
    pub(super) fn say_to_the_person(&mut self, text: &str) {
        if let Some(person) = self.person() {
            self.say(To::Person(person), text);
        }
    }

    /// Queues `text` for `to`.
    pub(super) fn say(&mut self, to: To, text: &str) {
        let view = self.app.said(text);
        self.outbox.push_back((to, view));
    }

    /// The service could not be reached: try again later.
    pub(super) fn pause_after(&mut self, line: &Lined<A>, error: &ServiceError) {
        self.relay
            .statuses
            .failed(A::NAME, &line.server, error.to_string());
        let wait = self.pauses.next(error.retry_after());
        self.retry_at = Some(Instant::now() + wait);
    }

    /// The conversation with `person`, opened once for the paired person.
    async fn conversation_with(
        &mut self,
        line: &Lined<A>,
        person: &str,
    ) -> Result<String, ServiceError> {
        if let Some((known, at)) = &self.direct
            && known == person
        {
            return Ok(at.clone());
        }
        let at = self.app.open(line, person).await?;
        if self.person().as_deref() == Some(person) {
            self.direct = Some((person.to_string(), at.clone()));
        }
        Ok(at)
    }

    /// Brings the chat up to date: queued texts, new questions, updates.
    pub(super) async fn sync(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        let Some(line) = super::line_of(&*self.app, &self.relay) else {
            return;
        };
        let mut sent = false;
        // Replies first (a pairing's, a stranger's): they need no paired person.
        while let Some((to, view)) = self.outbox.front() {
            let view = view.clone();
            let at = match to {
                To::At(at) => Ok(at.clone()),
                To::Person(person) => {
                    let person = person.clone();
                    self.conversation_with(&line, &person).await
                }
            };
            let posted = match at {
                Ok(at) => self.app.post(&line, &at, &view).await.map(drop),
                Err(error) => Err(error),
            };
            match posted {
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                // Refused for good (the message, or opening its conversation): not tried again.
                Err(error) => {
                    tracing::warn!(channel = %A::NAME, %error, "a message was refused; it is dropped");
                }
                Ok(()) => {}
            }
            self.outbox.pop_front();
            sent = true;
        }
        let Some(person) = self.person() else {
            self.direct = None;
            return;
        };
        self.follow_the_store(&person).await;
        let at = match self.conversation_with(&line, &person).await {
            Ok(at) => at,
            Err(error) => return self.pause_after(&line, &error),
        };
        let synced = if A::TEXT_ONLY {
            self.sync_one_at_a_time(&line, &at).await
        } else {
            self.sync_conversations(&line, &at).await
        };
        // Kept also when the service went away halfway: what was posted is not posted again.
        self.keep_record(&person).await;
        match synced {
            Ok(posted) => sent |= posted,
            Err(error) => return self.pause_after(&line, &error),
        }
        if let Some(ids) = self.reminder.take() {
            let reminded = if A::TEXT_ONLY {
                self.remind_one_at_a_time(&line, &at, &ids).await
            } else {
                self.remind(&line, &at, &ids).await
            };
            match reminded {
                Ok(reminded) => sent |= reminded,
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                Err(error) => {
                    tracing::warn!(channel = %A::NAME, %error, "a reminder was refused");
                }
            }
        }
        match self.sync_notices(&line, &at).await {
            Ok(noticed) => sent |= noticed,
            Err(error) => return self.pause_after(&line, &error),
        }
        self.pauses.reset();
        if sent {
            self.relay.statuses.sent(A::NAME, &line.server);
        }
    }

    /// Posts one reminder of the questions `ids` still open; `Ok(true)` when it went out.
    async fn remind(
        &mut self,
        line: &Lined<A>,
        at: &str,
        ids: &[QuestionId],
    ) -> Result<bool, ServiceError> {
        let waiting: Vec<Question> = self
            .conversations
            .iter()
            .filter(|c| !c.closed && c.posted.is_some() && ids.contains(&c.question.id))
            .map(|c| c.question.clone())
            .collect();
        if waiting.is_empty() {
            return Ok(false);
        }
        let view = self.app.reminder(self.words().lang, &waiting);
        self.app.post(line, at, &view).await.map(|_| true)
    }

    /// Records the messages still to be updated (open questions', and closed ones' whose
    /// outcome is not shown yet).
    async fn keep_record(&mut self, person: &str) {
        let open = self
            .conversations
            .iter()
            .filter_map(|c| {
                Some(Entry {
                    id: c.question.id,
                    message: c.posted.clone()?,
                    place: Place {
                        walk: c.walk.clone(),
                        shown: c.shown_step,
                    },
                })
            })
            .collect();
        self.posts.keep(person, open).await;
    }

    /// Posts or updates each conversation's message as it should look; `Ok(true)` when
    /// something went out. A failure that may pass stops here.
    async fn sync_conversations(
        &mut self,
        line: &Lined<A>,
        at: &str,
    ) -> Result<bool, ServiceError> {
        let lang = self.words().lang;
        let mut sent = false;
        let mut index = 0;
        while index < self.conversations.len() {
            let conversation = &mut self.conversations[index];
            let wanted = conversation.wanted(&self.app, lang);
            let done = match (&conversation.posted, &conversation.shown) {
                (None, _) if conversation.closed => Ok(false),
                (None, _) => self.app.post(line, at, &wanted).await.map(|posted| {
                    conversation.posted = Some(posted);
                    true
                }),
                (Some(_), Some(shown)) if *shown == wanted => Ok(!conversation.closed),
                (Some(posted), _) => match self.app.update(line, at, posted, &wanted).await {
                    Ok(()) => Ok(!conversation.closed),
                    // Deleted meanwhile: a question still open is posted again, a closed one
                    // has nothing left to update.
                    Err(error) if error.gone() => {
                        if conversation.closed {
                            Ok(false)
                        } else {
                            conversation.posted = None;
                            conversation.shown = None;
                            continue;
                        }
                    }
                    Err(error) => Err(error),
                },
            };
            match done {
                Ok(keep) => {
                    let conversation = &mut self.conversations[index];
                    if conversation.shown.as_ref() != Some(&wanted) {
                        sent = true;
                    }
                    conversation.shown = Some(wanted);
                    if keep {
                        index += 1;
                    } else {
                        let done = self.conversations.remove(index);
                        self.remember_finished(done);
                    }
                }
                Err(error) if error.passing() => return Err(error),
                // Refused for good (the message, not the service's mood): said in the status,
                // and the other questions go on.
                Err(error) => {
                    tracing::warn!(channel = %A::NAME, %error, "a question's message was refused");
                    self.relay
                        .statuses
                        .failed(A::NAME, &line.server, error.to_string());
                    let conversation = &mut self.conversations[index];
                    if conversation.posted.is_none() {
                        self.given_up.insert(conversation.question.id);
                        self.conversations.remove(index);
                    } else {
                        conversation.shown = Some(wanted);
                        index += 1;
                    }
                }
            }
        }
        Ok(sent)
    }

    pub(super) fn remember_finished(&mut self, done: Conversation<A>) {
        let Some(agent) = tell::agent_of(&done.question) else {
            return;
        };
        let messages = done
            .posted
            .map(|posted| A::message_id(&posted))
            .into_iter()
            .chain(done.prompt.map(|prompt| prompt.message));
        for message in messages {
            self.remember_finished_message(message, agent.clone());
        }
    }

    /// Every pending question has a conversation (those asked before the engine started, or
    /// while it was paused), and a conversation whose question closed unseen is closed. With
    /// another person, the conversations start over; after a restart, messages whose question
    /// closed meanwhile get their outcome.
    pub(super) async fn follow_the_store(&mut self, person: &str) {
        let pending = self.relay.store.pending();
        if self.with.as_deref() != Some(person) {
            let restarted = self.with.is_none();
            self.with = Some(person.to_string());
            self.conversations.clear();
            self.given_up.clear();
            if restarted {
                for (id, posted) in self.posts.messages_of(person) {
                    if pending.iter().any(|open| open.id == id) {
                        continue;
                    }
                    if let Some(closed) = self.relay.store.get(id).await {
                        let mut conversation = Conversation::new(closed, Some(posted));
                        conversation.closed = true;
                        self.conversations.push(conversation);
                    }
                }
            }
        }
        for conversation in &mut self.conversations {
            if !conversation.closed && !pending.iter().any(|q| q.id == conversation.question.id) {
                if let Some(closed) = self.relay.store.get(conversation.question.id).await {
                    conversation.question = closed;
                }
                conversation.closed = true;
            }
        }
        for question in pending {
            if self.find(question.id).is_none() && !self.given_up.contains(&question.id) {
                // Posted before a restart: its message is updated, not posted again, and the
                // person goes on where they were.
                let kept = self.posts.message_of(person, question.id);
                let mut conversation = Conversation::new(question, None);
                if let Some((posted, place)) = kept {
                    conversation.posted = Some(posted);
                    conversation.walk = place.walk;
                    conversation.shown_step = place.shown;
                }
                self.conversations.push(conversation);
            }
        }
        self.conversations
            .sort_by_key(|conversation| conversation.question.created_at);
    }

    /// `person` was unpaired: they hear so, once, and their conversations are dropped.
    pub(super) fn unpaired(&mut self, person: String) {
        let view = self.app.said(&self.words().in_app("chat-unpaired"));
        let to = match self.direct.take() {
            Some((known, at)) if known == person => To::At(at),
            _ => To::Person(person),
        };
        self.outbox.push_back((to, view));
        self.conversations.clear();
        self.with = None;
    }

    /// The agent of the question whose message (or prompt) is `id`, open or lately closed.
    pub(super) fn agent_of_message(&self, id: &str) -> Option<AgentRef> {
        self.conversations
            .iter()
            .rev()
            .find(|c| c.owns(id))
            .and_then(|c| tell::agent_of(&c.question))
            .or_else(|| {
                self.finished
                    .iter()
                    .rev()
                    .find(|(posted, _)| posted == id)
                    .map(|(_, agent)| agent.clone())
            })
    }

    /// The question whose message is `id`.
    pub(super) fn question_of_message(&self, id: &str) -> Option<QuestionId> {
        self.conversations
            .iter()
            .find(|c| {
                c.posted
                    .as_ref()
                    .is_some_and(|posted| A::message_id(posted) == id)
            })
            .map(|conversation| conversation.question.id)
    }
}
