//! The chat task: one card per pending question in the paired person's direct messages with
//! the bot. It sends each question once, updates its card as the person walks through it and
//! when it closes (controls removed), sends the reminders, and turns card callbacks (a button,
//! a form) and direct messages into answers, pairings and messages for agents. What could not go
//! out (Feishu unreachable) is tried again, once it is back, after a pause that doubles up to
//! 30 s (or as long as a rate limit asks, at most two minutes).

use super::open_api::FeishuError;
use super::render::{self, Said};
use super::{CHANNEL, Feishu, Input, Line};
use crate::channels::Relay;
use crate::channels::pairing::Redeemed;
use crate::channels::seen::Seen;
use crate::channels::tell;
use crate::channels::walk::{Awaiting, Callback, Next, Refusal, Tap, Walk};
use hark_core::model::{AgentRef, AnsweredVia, Event, Question, QuestionId};
use hark_core::store::{Outcome, StoreError};
use hark_text::t_in;
use serde_json::Value;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// Closed questions' messages remembered, so a reply to one reaches its agent.
const FINISHED_KEPT: usize = 100;

/// One question in the direct messages.
struct Conversation {
    question: Question,
    walk: Walk,
    /// Its message's id, once sent.
    posted: Option<String>,
    shown: Option<Value>,
    closed: bool,
}

impl Conversation {
    fn wanted(&self, lang: hark_text::Lang) -> Value {
        if self.closed {
            render::closed(lang, &self.question)
        } else {
            render::pending(lang, &self.question, &self.walk)
        }
    }
}

struct Chat {
    relay: Arc<Relay>,
    feishu: Arc<Feishu>,
    conversations: Vec<Conversation>,
    /// Texts to send, oldest first (replies, reminders) to an open id, kept while Feishu is
    /// away.
    outbox: VecDeque<(String, Said)>,
    /// Closed questions' messages and their agents.
    finished: VecDeque<(String, AgentRef)>,
    /// Messages taken, by id.
    seen: Seen,
    strangers: crate::channels::refusals::Refusals<String>,
    /// Questions whose message Feishu refused for good: not sent again.
    given_up: HashSet<QuestionId>,
    retry_at: Option<Instant>,
    pause: Duration,
    /// The messages sent, kept across restarts (`$HARK_HOME/feishu.json`).
    posts: crate::channels::posted::Posted<String>,
}

/// Runs the chat task until the daemon stops.
pub async fn run(relay: Arc<Relay>, feishu: Arc<Feishu>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let relay_home = relay.home.clone();
    let mut chat = Chat {
        relay,
        feishu,
        conversations: Vec::new(),
        outbox: VecDeque::new(),
        finished: VecDeque::new(),
        seen: Seen::default(),
        strangers: crate::channels::refusals::Refusals::default(),
        given_up: HashSet::new(),
        retry_at: None,
        pause: FIRST_PAUSE,
        posts: crate::channels::posted::Posted::load(relay_home, "feishu.json").await,
    };
    loop {
        chat.sync().await;
        let retry_at = chat.retry_at;
        let input = tokio::select! {
            input = inbox.recv() => input,
            () = async {
                match retry_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => {
                chat.retry_at = None;
                continue;
            }
            () = shutdown.cancelled() => return,
        };
        let Some(input) = input else { return };
        match input {
            Input::Event(event) => chat.follow(&event),
            Input::Payload(payload) => chat.take(payload).await,
            Input::Unpaired(person) => chat.unpaired(person),
        }
    }
}

impl Chat {
    fn lang(&self) -> hark_text::Lang {
        self.relay
            .store
            .read_config(hark_text::negotiate::daemon_lang)
    }

    fn line(&self) -> Option<Line> {
        Line::of(&self.relay, &self.feishu)
    }

    fn find(&mut self, id: QuestionId) -> Option<&mut Conversation> {
        self.conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id)
    }

    /// A store event: a new question to send, one to update.
    fn follow(&mut self, event: &Event) {
        match event {
            Event::QuestionCreated(question) => {
                if self.find(question.id).is_none() {
                    self.conversations.push(Conversation {
                        question: question.clone(),
                        walk: Walk::default(),
                        posted: None,
                        shown: None,
                        closed: false,
                    });
                }
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                if let Some(conversation) = self.find(question.id) {
                    conversation.question = question.clone();
                    conversation.closed = true;
                }
            }
            Event::QuestionRemind(remind) => {
                let waiting: Vec<Question> = self
                    .conversations
                    .iter()
                    .filter(|c| !c.closed && remind.ids.contains(&c.question.id))
                    .map(|c| c.question.clone())
                    .collect();
                if !waiting.is_empty() {
                    let said = render::reminder(self.lang(), &waiting);
                    self.say_to_the_person(said);
                }
            }
            Event::Init(_)
            | Event::QuestionUpdated(_)
            | Event::ConfigUpdated(_)
            | Event::MessageCreated(_)
            | Event::MessageDelivered(_) => {}
        }
    }

    fn say_to_the_person(&mut self, said: Said) {
        if let Some(person) = self.line().and_then(|line| line.open_id) {
            self.outbox.push_back((person, said));
        }
    }

    /// Feishu could not be reached: try again later.
    fn pause_after(&mut self, line: &Line, error: &FeishuError) {
        self.relay
            .statuses
            .failed(CHANNEL, &line.api_base, error.to_string());
        let wait = match error {
            FeishuError::RateLimited(secs) => Duration::from_secs(*secs),
            _ => self.pause,
        };
        self.retry_at = Some(Instant::now() + wait.min(LONGEST_PAUSE * 4));
        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
    }

    /// Brings the direct messages up to date: new questions, updates, queued texts.
    async fn sync(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        let Some(line) = self.line() else {
            return;
        };
        let mut sent = false;
        // Replies first (a pairing's, a stranger's): they need no paired person.
        while let Some((to, said)) = self.outbox.front() {
            match line.api.post(to, said.kind, &said.content).await {
                Ok(_) => {
                    self.outbox.pop_front();
                }
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Feishu refused a message; it is dropped");
                    self.outbox.pop_front();
                }
            }
            sent = true;
        }
        let Some(person) = line.open_id.clone() else {
            return;
        };
        self.follow_the_store(&person).await;
        let lang = line.lang;
        let mut index = 0;
        while index < self.conversations.len() {
            let conversation = &mut self.conversations[index];
            let wanted = conversation.wanted(lang);
            let done = match (&conversation.posted, &conversation.shown) {
                (None, _) if conversation.closed => Ok(false),
                (None, _) => line
                    .api
                    .post(&person, "interactive", &wanted)
                    .await
                    .map(|posted| {
                        conversation.posted = Some(posted);
                        true
                    }),
                (Some(_), Some(shown)) if *shown == wanted => Ok(!conversation.closed),
                (Some(posted), _) => match line.api.update(posted, &wanted).await {
                    Ok(()) => Ok(!conversation.closed),
                    // Recalled or deleted meanwhile: a question still open is sent again, a
                    // closed one has nothing left to update.
                    Err(error) if error.message_gone() => {
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
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                // Refused for good (the card, not Feishu's mood): said in the status, and the
                // other questions go on.
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Feishu refused a question's card");
                    self.relay
                        .statuses
                        .failed(CHANNEL, &line.api_base, error.to_string());
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
        self.pause = FIRST_PAUSE;
        if sent {
            self.relay.statuses.sent(CHANNEL, &line.api_base);
        }
        let open: Vec<_> = self
            .conversations
            .iter()
            .filter_map(|c| c.posted.clone().map(|posted| (c.question.id, posted)))
            .collect();
        self.posts.keep(&person, open.into_iter()).await;
    }

    fn remember_finished(&mut self, done: Conversation) {
        if let (Some(posted), Some(agent)) = (done.posted, tell::agent_of(&done.question)) {
            if self.finished.len() >= FINISHED_KEPT {
                self.finished.pop_front();
            }
            self.finished.push_back((posted, agent));
        }
    }

    /// Every pending question has a conversation (those asked before the chat started, or
    /// while it was paused), and a conversation whose question closed unseen is closed.
    async fn follow_the_store(&mut self, person: &str) {
        let pending = self.relay.store.pending();
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
                // Sent before a restart: its card is updated (its walk starts over), not sent
                // again.
                let posted = self.posts.message_of(person, question.id);
                self.conversations.push(Conversation {
                    question,
                    walk: Walk::default(),
                    posted,
                    shown: None,
                    closed: false,
                });
            }
        }
        self.conversations
            .sort_by_key(|conversation| conversation.question.created_at);
    }

    /// The person was unpaired: they hear so, once.
    fn unpaired(&mut self, person: String) {
        let lang = self.lang();
        self.outbox
            .push_back((person, render::said(&t_in(lang, "feishu-unpaired", &[]))));
        self.conversations.clear();
    }

    /// What arrived over the long connection (schema 2.0 events).
    async fn take(&mut self, payload: Value) {
        let Some(line) = self.line() else {
            return;
        };
        match payload["header"]["event_type"].as_str() {
            Some("card.action.trigger") => self.take_callback(&line, &payload["event"]).await,
            Some("im.message.receive_v1") => self.take_message(&line, &payload["event"]).await,
            _ => {}
        }
    }

    fn is_the_person(line: &Line, open_id: Option<&str>) -> bool {
        open_id.is_some() && line.open_id.as_deref() == open_id
    }

    /// A button or a form on a card.
    async fn take_callback(&mut self, line: &Line, event: &Value) {
        if !Self::is_the_person(line, event["operator"]["open_id"].as_str()) {
            tracing::debug!(channel = %CHANNEL, "ignored a tap by someone who is not paired");
            return;
        }
        let action = &event["action"];
        let Some(callback) = action["value"]["h"].as_str().and_then(Callback::decode) else {
            return;
        };
        let form = &action["form_value"];
        match action["value"]["form"].as_str() {
            Some(render::SEND_FORM) => {
                let ticked: BTreeSet<usize> = form[render::TICKED]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|value| value.as_str()?.parse().ok())
                    .collect();
                let words = form[render::WORDS].as_str().unwrap_or_default().to_string();
                let step = callback.step;
                self.walk(line, callback.id, move |walk, question| {
                    let Some(sub) = question.questions.get(walk.step) else {
                        return Next::Refuse(Refusal::Stale);
                    };
                    if walk.step != step {
                        return Next::Refuse(Refusal::Stale);
                    }
                    walk.awaiting = None;
                    if sub.multi_select {
                        walk.ticked = ticked
                            .into_iter()
                            .filter(|index| *index < sub.options.len())
                            .collect();
                    }
                    if !words.trim().is_empty() {
                        walk.reply(question, &words)
                    } else if sub.multi_select {
                        walk.tap(question, step, Tap::Send)
                    } else {
                        Next::Refuse(Refusal::UseButtons)
                    }
                })
                .await;
            }
            Some(render::NOTE_FORM) => {
                let note = form[render::NOTE].as_str().unwrap_or_default().to_string();
                let step = callback.step;
                self.walk(line, callback.id, move |walk, question| {
                    if walk.step != step {
                        return Next::Refuse(Refusal::Stale);
                    }
                    walk.awaiting = Some(Awaiting::SkipNote);
                    if note.trim().is_empty() {
                        Next::Decline(None)
                    } else {
                        walk.reply(question, &note)
                    }
                })
                .await;
            }
            _ => {
                self.walk(line, callback.id, |walk, question| {
                    walk.tap(question, callback.step, callback.tap)
                })
                .await;
            }
        }
    }

    /// Takes one step of question `id`'s walk, and does what it decides.
    async fn walk(
        &mut self,
        line: &Line,
        id: QuestionId,
        step: impl FnOnce(&mut Walk, &Question) -> Next,
    ) {
        let lang = line.lang;
        let Some(index) = self
            .conversations
            .iter()
            .position(|conversation| conversation.question.id == id && !conversation.closed)
        else {
            return self.say(lang, "chat-closed");
        };
        let conversation = &mut self.conversations[index];
        let before = conversation.walk.clone();
        let question = conversation.question.clone();
        let next = step(&mut conversation.walk, &question);
        let via = Some(AnsweredVia::Channel(CHANNEL));
        let closed = match next {
            Next::Show => return,
            // The card shows the note's form; the person typing it holds the question open
            // (SPEC §18).
            Next::AskReply(_) => {
                self.relay.store.typing(id);
                return;
            }
            Next::Refuse(refusal) => {
                return self.say(
                    lang,
                    match refusal {
                        Refusal::Stale => "chat-stale",
                        Refusal::TickFirst => "chat-tick-first",
                        Refusal::UseButtons => "feishu-use-card",
                    },
                );
            }
            Next::Submit(answers) => {
                self.relay
                    .store
                    .close(id, Outcome::Answered(answers), via)
                    .await
            }
            Next::Decline(note) => {
                self.relay
                    .store
                    .close(id, Outcome::Declined { note }, via)
                    .await
            }
        };
        match closed {
            Ok(_) => {}
            // Closed elsewhere a moment before: the update that follows shows how.
            Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => {
                self.say(lang, "chat-closed");
            }
            Err(error) => {
                if let Some(conversation) = self.find(id) {
                    conversation.walk = before;
                }
                self.say(
                    lang,
                    if matches!(error, StoreError::Invalid(_)) {
                        "chat-too-long"
                    } else {
                        "chat-not-recorded"
                    },
                );
            }
        }
    }

    fn say(&mut self, lang: hark_text::Lang, key: &str) {
        self.say_to_the_person(render::said(&t_in(lang, key, &[])));
    }

    /// A direct message to the bot: a pairing, a message for an agent, or a hint.
    async fn take_message(&mut self, line: &Line, event: &Value) {
        let message = &event["message"];
        if event["sender"]["sender_type"] != "user"
            || message["chat_type"] != "p2p"
            || message["message_type"] != "text"
        {
            return;
        }
        let (Some(sender), Some(id)) = (
            event["sender"]["sender_id"]["open_id"].as_str(),
            message["message_id"].as_str(),
        ) else {
            return;
        };
        // Feishu may push a message twice: it is taken once.
        if !self.seen.first_time(id) {
            return;
        }
        let text = message["content"]
            .as_str()
            .and_then(|content| serde_json::from_str::<Value>(content).ok())
            .and_then(|content| content["text"].as_str().map(str::to_string))
            .unwrap_or_default()
            .trim()
            .to_string();
        let lang = line.lang;
        let reply = |key: &str| render::said(&t_in(lang, key, &[]));
        let mut words = text.split_whitespace();
        if words
            .next()
            .is_some_and(|first| first.eq_ignore_ascii_case("pair"))
        {
            let code: String = words.collect::<Vec<_>>().join("");
            let said = match self.feishu.codes.redeem(sender.to_string(), &code) {
                Redeemed::Paired => {
                    let paired = sender.to_string();
                    match super::change_config(&self.relay, move |feishu| {
                        feishu.open_id = Some(paired);
                    })
                    .await
                    {
                        Ok(()) => {
                            self.feishu.paired();
                            // Someone else pairs: the one before is told, and the questions
                            // move to the new person's chat.
                            if let Some(before) =
                                line.open_id.clone().filter(|before| before != sender)
                            {
                                self.unpaired(before);
                            }
                            "feishu-paired"
                        }
                        Err(_) => "feishu-pairing-failed",
                    }
                }
                Redeemed::Expired => "feishu-expired-code",
                Redeemed::Wrong => "feishu-wrong-code",
            };
            if said == "feishu-paired"
                || Self::is_the_person(line, Some(sender))
                || self.strangers.allow(sender.to_string())
            {
                self.outbox.push_back((sender.to_string(), reply(said)));
            }
            return;
        }
        if !Self::is_the_person(line, Some(sender)) {
            if self.strangers.allow(sender.to_string()) {
                self.outbox
                    .push_back((sender.to_string(), reply("feishu-stranger")));
            }
            return;
        }
        let told = tell::command_or_word(&text);
        let replied_agent = message["parent_id"]
            .as_str()
            .filter(|parent| !parent.is_empty())
            .and_then(|parent| self.agent_of_message(parent));
        let words = match (told, &replied_agent) {
            (Some(words), _) => words.to_string(),
            (None, Some(_)) => text.clone(),
            (None, None) => {
                self.outbox
                    .push_back((sender.to_string(), reply("feishu-use-card")));
                return;
            }
        };
        let store = self.relay.store.clone();
        let to = match replied_agent {
            Some(agent) => Some(agent),
            None => tell::last_asker(&store).await,
        };
        let said = tell::tell(&store, to, &words, CHANNEL, lang).await;
        self.outbox
            .push_back((sender.to_string(), render::said(&said)));
    }

    /// The agent of the question whose message is `message_id`, open or lately closed.
    fn agent_of_message(&self, message_id: &str) -> Option<AgentRef> {
        self.conversations
            .iter()
            .find(|c| c.posted.as_deref() == Some(message_id))
            .and_then(|c| tell::agent_of(&c.question))
            .or_else(|| {
                self.finished
                    .iter()
                    .rev()
                    .find(|(posted, _)| posted == message_id)
                    .map(|(_, agent)| agent.clone())
            })
    }
}
