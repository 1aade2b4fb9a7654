//! The chat task: one conversation per pending question in the paired person's direct messages.
//! It posts each question once, updates its message as the person walks through it and when it
//! closes (buttons removed), posts the reminders, and turns taps, modal submissions and direct
//! messages into answers, pairings and messages for agents. What could not go out (Slack
//! unreachable) is tried again, once it is back, after a pause that doubles up to 30 s.

use super::render::{self, Shown};
use super::web_api::{Posted, SlackError};
use super::{CHANNEL, Input, Line, Slack};
use crate::channels::Relay;
use crate::channels::pairing::Redeemed;
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
/// Closed questions' messages remembered, so a thread reply to one reaches its agent.
const FINISHED_KEPT: usize = 100;

/// One question in the direct messages.
struct Conversation {
    question: Question,
    walk: Walk,
    posted: Option<Posted>,
    shown: Option<Shown>,
    closed: bool,
}

impl Conversation {
    fn wanted(&self, lang: hark_text::Lang) -> Shown {
        if self.closed {
            render::closed(lang, &self.question)
        } else {
            render::pending(lang, &self.question, &self.walk)
        }
    }
}

struct Chat {
    relay: Arc<Relay>,
    slack: Arc<Slack>,
    conversations: Vec<Conversation>,
    /// The direct-message conversation with the paired person, once opened.
    direct: Option<(String, String)>,
    /// Texts to post, oldest first (replies, reminders), kept while Slack is away.
    outbox: VecDeque<(String, Shown)>,
    /// Closed questions' messages and their agents.
    finished: VecDeque<(String, AgentRef)>,
    strangers: crate::channels::refusals::Refusals<String>,
    /// Questions whose message Slack refused for good: not posted again.
    given_up: HashSet<QuestionId>,
    retry_at: Option<Instant>,
    pause: Duration,
    /// The messages posted, kept across restarts (`$HARK_HOME/slack.json`).
    posts: crate::channels::posted::Posted<Posted>,
}

/// Runs the chat task until the daemon stops.
pub async fn run(relay: Arc<Relay>, slack: Arc<Slack>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let relay_home = relay.home.clone();
    let mut chat = Chat {
        relay,
        slack,
        conversations: Vec::new(),
        direct: None,
        outbox: VecDeque::new(),
        finished: VecDeque::new(),
        strangers: crate::channels::refusals::Refusals::default(),
        given_up: HashSet::new(),
        retry_at: None,
        pause: FIRST_PAUSE,
        posts: crate::channels::posted::Posted::load(relay_home, "slack.json").await,
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
            Input::Unpaired(user) => chat.unpaired(user).await,
        }
    }
}

impl Chat {
    fn lang(&self) -> hark_text::Lang {
        self.relay
            .store
            .read_config(hark_text::negotiate::daemon_lang)
    }

    fn find(&mut self, id: QuestionId) -> Option<&mut Conversation> {
        self.conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id)
    }

    /// A store event: a new question to post, one to update.
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
                if !waiting.is_empty() && self.direct.is_some() {
                    let shown = render::reminder(self.lang(), &waiting);
                    self.queue_direct(shown);
                }
            }
            Event::Init(_)
            | Event::QuestionUpdated(_)
            | Event::ConfigUpdated(_)
            | Event::MessageCreated(_)
            | Event::MessageDelivered(_) => {}
        }
    }

    fn queue_direct(&mut self, shown: Shown) {
        if let Some((_, channel)) = &self.direct {
            self.outbox.push_back((channel.clone(), shown));
        }
    }

    /// Slack could not be reached: try again later.
    fn pause_after(&mut self, line: &Line, error: &SlackError) {
        self.relay
            .statuses
            .failed(CHANNEL, &line.api_base, error.to_string());
        let wait = match error {
            SlackError::RateLimited(secs) => Duration::from_secs(*secs),
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
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let mut sent = false;
        // Replies first (a pairing's, a stranger's): they need no paired person.
        while let Some((to, shown)) = self.outbox.front() {
            match line.bot.post(to, &shown.text, &shown.blocks).await {
                Ok(_) => {
                    self.outbox.pop_front();
                }
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Slack refused a message; it is dropped");
                    self.outbox.pop_front();
                }
            }
            sent = true;
        }
        let Some(user) = line.user.clone() else {
            self.direct = None;
            return;
        };
        self.follow_the_store(&user).await;
        if self.direct.as_ref().is_none_or(|(known, _)| *known != user) {
            match line.bot.direct(&user).await {
                Ok(channel) => self.direct = Some((user.clone(), channel)),
                Err(error) => return self.pause_after(&line, &error),
            }
        }
        let Some((_, channel)) = self.direct.clone() else {
            return;
        };
        let lang = line.lang;
        let mut index = 0;
        while index < self.conversations.len() {
            let conversation = &mut self.conversations[index];
            let wanted = conversation.wanted(lang);
            let done = match (&conversation.posted, &conversation.shown) {
                (None, _) if conversation.closed => Ok(false),
                (None, _) => line
                    .bot
                    .post(&channel, &wanted.text, &wanted.blocks)
                    .await
                    .map(|posted| {
                        conversation.posted = Some(posted);
                        true
                    }),
                (Some(_), Some(shown)) if *shown == wanted => Ok(!conversation.closed),
                (Some(posted), _) => {
                    match line.bot.update(posted, &wanted.text, &wanted.blocks).await {
                        Ok(()) => Ok(!conversation.closed),
                        // Deleted in Slack meanwhile: a question still open is posted
                        // again, a closed one has nothing left to update.
                        Err(SlackError::Refused(code)) if code == "message_not_found" => {
                            if conversation.closed {
                                Ok(false)
                            } else {
                                conversation.posted = None;
                                conversation.shown = None;
                                continue;
                            }
                        }
                        Err(error) => Err(error),
                    }
                }
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
                // Refused for good (the message, not Slack's mood): said in the status, and
                // the other questions go on.
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Slack refused a question's message");
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
        self.posts.keep(&user, open.into_iter()).await;
    }

    fn remember_finished(&mut self, done: Conversation) {
        if let (Some(posted), Some(agent)) = (done.posted, tell::agent_of(&done.question)) {
            if self.finished.len() >= FINISHED_KEPT {
                self.finished.pop_front();
            }
            self.finished.push_back((posted.ts, agent));
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
                // Posted before a restart: its message is updated (its walk starts over), not
                // posted again.
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

    /// The person was unpaired: their direct messages hear so, once.
    async fn unpaired(&mut self, _user: String) {
        let lang = self.lang();
        if let Some((_, channel)) = self.direct.take() {
            self.outbox
                .push_back((channel, render::said(&t_in(lang, "slack-unpaired", &[]))));
        }
        self.conversations.clear();
    }

    /// What arrived over the Socket Mode link.
    async fn take(&mut self, payload: Value) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        match payload["type"].as_str() {
            Some("block_actions") => self.take_tap(&line, &payload).await,
            Some("view_submission") => self.take_submission(&line, &payload).await,
            Some("event_callback") => self.take_message(&line, &payload["event"]).await,
            _ => {}
        }
    }

    fn is_the_person(&self, line: &Line, user: Option<&str>) -> bool {
        user.is_some() && line.user.as_deref() == user
    }

    async fn take_tap(&mut self, line: &Line, payload: &Value) {
        if !self.is_the_person(line, payload["user"]["id"].as_str()) {
            tracing::debug!(channel = %CHANNEL, "ignored a tap by someone who is not paired");
            return;
        }
        let Some(action) = payload["actions"].get(0) else {
            return;
        };
        let trigger = payload["trigger_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if action["action_id"] == "tick" {
            // The checkboxes (or menu) say what is ticked now; the walk toggles the difference.
            // Their block id names the step they were drawn for (`render::controls`).
            let Some(id) = self.question_of_message(payload) else {
                return;
            };
            let Some(step) = action["block_id"].as_str().and_then(|block| {
                block
                    .strip_prefix('h')?
                    .split('-')
                    .next()?
                    .parse::<usize>()
                    .ok()
            }) else {
                return;
            };
            let ticked: BTreeSet<usize> = action["selected_options"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|option| option["value"].as_str()?.parse().ok())
                .collect();
            let Some(conversation) = self.find(id) else {
                return;
            };
            if conversation.walk.step != step || conversation.closed {
                return;
            }
            let before = conversation.walk.ticked.clone();
            let question = conversation.question.clone();
            for index in before.symmetric_difference(&ticked) {
                conversation.walk.tap(&question, step, Tap::Toggle(*index));
            }
            return;
        }
        let Some(callback) = action["value"].as_str().and_then(Callback::decode) else {
            return;
        };
        self.walk(line, callback.id, &trigger, |walk, question| {
            walk.tap(question, callback.step, callback.tap)
        })
        .await;
    }

    /// The question whose message a tap came from.
    fn question_of_message(&self, payload: &Value) -> Option<QuestionId> {
        let ts = payload["container"]["message_ts"].as_str()?;
        self.conversations
            .iter()
            .find(|c| c.posted.as_ref().is_some_and(|posted| posted.ts == ts))
            .map(|conversation| conversation.question.id)
    }

    async fn take_submission(&mut self, line: &Line, payload: &Value) {
        let view = &payload["view"];
        if view["callback_id"] != render::MODAL
            || !self.is_the_person(line, payload["user"]["id"].as_str())
        {
            return;
        }
        let Some((id, step, awaiting)) = view["private_metadata"]
            .as_str()
            .and_then(render::read_modal_metadata)
        else {
            return;
        };
        let text = view["state"]["values"][render::MODAL_BLOCK][render::MODAL_ACTION]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        self.walk(line, id, "", move |walk, question| {
            if walk.step != step {
                return Next::Refuse(Refusal::Stale);
            }
            walk.awaiting = Some(awaiting);
            match awaiting {
                Awaiting::SkipNote if text.trim().is_empty() => Next::Decline(None),
                _ => walk.reply(question, &text),
            }
        })
        .await;
    }

    /// Takes one step of question `id`'s walk, and does what it decides.
    async fn walk(
        &mut self,
        line: &Line,
        id: QuestionId,
        trigger: &str,
        step: impl FnOnce(&mut Walk, &Question) -> Next,
    ) {
        let lang = line.lang;
        let Some(index) = self
            .conversations
            .iter()
            .position(|conversation| conversation.question.id == id && !conversation.closed)
        else {
            return self.say_direct(lang, "chat-closed");
        };
        let conversation = &mut self.conversations[index];
        let before = conversation.walk.clone();
        let question = conversation.question.clone();
        let next = step(&mut conversation.walk, &question);
        let via = Some(AnsweredVia::Channel(CHANNEL));
        let closed = match next {
            Next::Show => return,
            Next::AskReply(awaiting) => {
                // The modal's words come with its submission, not as a reply to wait for.
                conversation.walk.awaiting = None;
                let view = render::modal(lang, &question, &conversation.walk, awaiting);
                // Typing in the modal holds the question open (SPEC §18).
                self.relay.store.typing(id);
                if let Err(error) = line.bot.open_view(trigger, &view).await {
                    tracing::warn!(channel = %CHANNEL, %error, "Slack did not open the reply window");
                    self.say_direct(lang, "chat-not-recorded");
                }
                return;
            }
            Next::Refuse(refusal) => {
                return self.say_direct(
                    lang,
                    match refusal {
                        Refusal::Stale => "chat-stale",
                        Refusal::TickFirst => "chat-tick-first",
                        Refusal::UseButtons => "slack-use-buttons",
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
                self.say_direct(lang, "chat-closed");
            }
            Err(error) => {
                if let Some(conversation) = self.find(id) {
                    conversation.walk = before;
                }
                self.say_direct(
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

    fn say_direct(&mut self, lang: hark_text::Lang, key: &str) {
        let shown = render::said(&t_in(lang, key, &[]));
        self.queue_direct(shown);
    }

    /// A direct message to the bot: a pairing, a message for an agent, or a hint.
    async fn take_message(&mut self, line: &Line, event: &Value) {
        if event["type"] != "message"
            || event["channel_type"] != "im"
            || event.get("subtype").is_some_and(|s| !s.is_null())
            || event.get("bot_id").is_some_and(|b| !b.is_null())
        {
            return;
        }
        let (Some(user), Some(channel)) = (event["user"].as_str(), event["channel"].as_str())
        else {
            return;
        };
        if self.slack.bot_user().as_deref() == Some(user) {
            return;
        }
        let lang = line.lang;
        let text = event["text"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string();
        let reply = |key: &str| render::said(&t_in(lang, key, &[]));
        let mut words = text.split_whitespace();
        if words
            .next()
            .is_some_and(|first| first.eq_ignore_ascii_case("pair"))
        {
            let code: String = words.collect::<Vec<_>>().join("");
            let said = match self.slack.codes.redeem(user.to_string(), &code) {
                Redeemed::Paired => {
                    let paired = user.to_string();
                    match super::change_config(&self.relay, move |slack| {
                        slack.user_id = Some(paired);
                    })
                    .await
                    {
                        Ok(()) => {
                            self.slack.paired();
                            // Someone else pairs: the one before is told, and the questions
                            // move to the new person's messages.
                            if let Some(before) = line.user.clone().filter(|before| before != user)
                            {
                                self.unpaired(before).await;
                            }
                            self.direct = Some((user.to_string(), channel.to_string()));
                            "slack-paired"
                        }
                        Err(_) => "slack-pairing-failed",
                    }
                }
                Redeemed::Expired => "slack-expired-code",
                Redeemed::Wrong => "slack-wrong-code",
            };
            let paired_now = said == "slack-paired";
            if paired_now
                || self.is_the_person(line, Some(user))
                || self.strangers.allow(user.to_string())
            {
                self.outbox.push_back((channel.to_string(), reply(said)));
            }
            return;
        }
        if !self.is_the_person(line, Some(user)) {
            if self.strangers.allow(user.to_string()) {
                self.outbox
                    .push_back((channel.to_string(), reply("slack-stranger")));
            }
            return;
        }
        // Slack takes a leading "/" for one of its own commands: "tell …" works as "/tell …".
        let told = tell::command_or_word(&text);
        let thread = event["thread_ts"].as_str();
        let replied_agent = thread.and_then(|ts| self.agent_of_message(ts));
        let words = match (told, &replied_agent) {
            (Some(words), _) => words.to_string(),
            (None, Some(_)) => text.clone(),
            (None, None) => {
                self.outbox
                    .push_back((channel.to_string(), reply("slack-use-buttons")));
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
            .push_back((channel.to_string(), render::said(&said)));
    }

    /// The agent of the question whose message is at `ts`, open or lately closed.
    fn agent_of_message(&self, ts: &str) -> Option<AgentRef> {
        self.conversations
            .iter()
            .find(|c| c.posted.as_ref().is_some_and(|posted| posted.ts == ts))
            .and_then(|c| tell::agent_of(&c.question))
            .or_else(|| {
                self.finished
                    .iter()
                    .rev()
                    .find(|(posted, _)| posted == ts)
                    .map(|(_, agent)| agent.clone())
            })
    }
}
