//! The chat task: one conversation per pending question in the paired person's direct messages.
//! It sends each question once, edits its message as the person walks through it and when it
//! closes (components removed), sends the reminders, and turns interactions (taps, menus, modal
//! submissions: each answered within Discord's 3 s) and direct messages into answers, pairings
//! and messages for agents. What could not go out (Discord unreachable) is tried again, once it
//! is back, after a pause that doubles up to 30 s.

use super::render::{self, Shown};
use super::rest::{DiscordError, Sent};
use super::{CHANNEL, Discord, Input, Line};
use crate::channels::Relay;
use crate::channels::pairing::Redeemed;
use crate::channels::tell;
use crate::channels::walk::{Awaiting, Callback, Next, Refusal, Tap, Walk};
use hark_core::model::{AgentRef, AnsweredVia, Event, Question, QuestionId};
use hark_core::store::{Outcome, StoreError};
use hark_text::t_in;
use serde_json::{Value, json};
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
    posted: Option<Sent>,
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
    discord: Arc<Discord>,
    conversations: Vec<Conversation>,
    /// The direct-message conversation with the paired person, once opened.
    direct: Option<(String, String)>,
    /// Texts to post, oldest first (replies, reminders), kept while Discord is away.
    outbox: VecDeque<(String, Shown)>,
    /// Closed questions' messages and their agents.
    finished: VecDeque<(String, AgentRef)>,
    strangers: crate::channels::refusals::Refusals<String>,
    /// Questions whose message Discord refused for good: not posted again.
    given_up: HashSet<QuestionId>,
    retry_at: Option<Instant>,
    pause: Duration,
    /// The messages posted, kept across restarts (`$HARK_HOME/discord.json`).
    posts: crate::channels::posted::Posted<Sent>,
}

/// Runs the chat task until the daemon stops.
pub async fn run(relay: Arc<Relay>, discord: Arc<Discord>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let relay_home = relay.home.clone();
    let mut chat = Chat {
        relay,
        discord,
        conversations: Vec::new(),
        direct: None,
        outbox: VecDeque::new(),
        finished: VecDeque::new(),
        strangers: crate::channels::refusals::Refusals::default(),
        given_up: HashSet::new(),
        retry_at: None,
        pause: FIRST_PAUSE,
        posts: crate::channels::posted::Posted::load(relay_home, "discord.json").await,
    };
    loop {
        // What waits is taken first: an interaction must be answered within Discord's 3 s,
        // before the sync's requests.
        while let Ok(input) = inbox.try_recv() {
            chat.take(input).await;
        }
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
        chat.take(input).await;
    }
}

impl Chat {
    async fn take(&mut self, input: Input) {
        match input {
            Input::Event(event) => self.follow(&event),
            Input::Interaction(interaction) => self.take_interaction(interaction).await,
            Input::Message(message) => self.take_message(message).await,
            Input::Unpaired(user) => self.unpaired(user).await,
        }
    }

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

    /// Discord could not be reached: try again later.
    fn pause_after(&mut self, line: &Line, error: &DiscordError) {
        self.relay
            .statuses
            .failed(CHANNEL, &line.api_base, error.to_string());
        let wait = match error {
            DiscordError::RateLimited(secs) => Duration::from_secs(*secs),
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
            match line.rest.send(to, &shown.0).await {
                Ok(_) => {
                    self.outbox.pop_front();
                }
                Err(error) if error.passing() => return self.pause_after(&line, &error),
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Discord refused a message; it is dropped");
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
            match line.rest.direct(&user).await {
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
                (None, _) => line.rest.send(&channel, &wanted.0).await.map(|posted| {
                    conversation.posted = Some(posted);
                    true
                }),
                (Some(_), Some(shown)) if *shown == wanted => Ok(!conversation.closed),
                (Some(posted), _) => {
                    match line.rest.edit(posted, &wanted.0).await {
                        Ok(()) => Ok(!conversation.closed),
                        // Deleted in Discord meanwhile (10008 Unknown Message): a question
                        // still open is sent again, a closed one has nothing left to edit.
                        Err(DiscordError::Refused { code: 10008, .. }) => {
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
                // Refused for good (the message, not Discord's mood): said in the status, and
                // the other questions go on.
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "Discord refused a question's message");
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
            self.finished.push_back((posted.id, agent));
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
                .push_back((channel, render::said(&t_in(lang, "discord-unpaired", &[]))));
        }
        self.conversations.clear();
    }

    /// A tap, a menu choice or a modal submission: answered at once (Discord waits 3 s), then
    /// taken as a step of its question's walk.
    async fn take_interaction(&mut self, interaction: Value) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let lang = line.lang;
        let (Some(id), Some(token)) = (interaction["id"].as_str(), interaction["token"].as_str())
        else {
            return;
        };
        let user = interaction["user"]["id"]
            .as_str()
            .or_else(|| interaction["member"]["user"]["id"].as_str());
        let respond = |response: Value| {
            let rest = line.rest.clone();
            let (id, token) = (id.to_string(), token.to_string());
            async move {
                if let Err(error) = rest.respond(&id, &token, &response).await {
                    tracing::warn!(channel = %CHANNEL, %error, "could not answer a Discord interaction");
                }
            }
        };
        if !self.is_the_person(&line, user) {
            respond(ephemeral(lang, "discord-not-yours")).await;
            return;
        }
        let data = &interaction["data"];
        let custom_id = data["custom_id"].as_str().unwrap_or_default();
        let next = match interaction["type"].as_u64() {
            Some(3) => {
                if let Some((question, step, offset)) = render::read_select_id(custom_id) {
                    let values: BTreeSet<usize> = data["values"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|value| value.as_str()?.parse().ok())
                        .collect();
                    self.choose(question, step, offset, &values)
                } else if let Some(callback) = Callback::decode(custom_id) {
                    self.step(callback.id, |walk, question| {
                        walk.tap(question, callback.step, callback.tap)
                    })
                } else {
                    None
                }
            }
            Some(5) => render::read_modal_id(custom_id).and_then(|(question, step, awaiting)| {
                let text = modal_text(data).unwrap_or_default();
                self.step(question, move |walk, asked| {
                    if walk.step != step {
                        return Next::Refuse(Refusal::Stale);
                    }
                    walk.awaiting = Some(awaiting);
                    match awaiting {
                        Awaiting::SkipNote if text.trim().is_empty() => Next::Decline(None),
                        _ => walk.reply(asked, &text),
                    }
                })
            }),
            _ => None,
        };
        let Some((question, next, before)) = next else {
            respond(ephemeral(lang, "chat-closed")).await;
            return;
        };
        let via = Some(AnsweredVia::Channel(CHANNEL));
        let closed = match next {
            // The message is edited by the next sync.
            Next::Show => return respond(json!({"type": 6})).await,
            Next::AskReply(awaiting) => {
                let walk = self.find(question.id).map(|c| {
                    c.walk.awaiting = None;
                    c.walk.clone()
                });
                let walk = walk.unwrap_or_default();
                // Typing in the modal holds the question open (SPEC §18).
                self.relay.store.typing(question.id);
                return respond(render::modal(lang, &question, &walk, awaiting)).await;
            }
            Next::Refuse(refusal) => {
                let key = match refusal {
                    Refusal::Stale => "chat-stale",
                    Refusal::TickFirst => "chat-tick-first",
                    Refusal::UseButtons => "discord-use-buttons",
                };
                return respond(ephemeral(lang, key)).await;
            }
            Next::Submit(answers) => {
                respond(json!({"type": 6})).await;
                self.relay
                    .store
                    .close(question.id, Outcome::Answered(answers), via)
                    .await
            }
            Next::Decline(note) => {
                respond(json!({"type": 6})).await;
                self.relay
                    .store
                    .close(question.id, Outcome::Declined { note }, via)
                    .await
            }
        };
        match closed {
            Ok(_) => {}
            Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => {
                self.say_direct(lang, "chat-closed");
            }
            Err(error) => {
                if let Some(conversation) = self.find(question.id) {
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

    /// Takes one step of question `id`'s walk; `None` when it is not open here.
    fn step(
        &mut self,
        id: QuestionId,
        step: impl FnOnce(&mut Walk, &Question) -> Next,
    ) -> Option<(Question, Next, Walk)> {
        let conversation = self
            .conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id && !conversation.closed)?;
        let before = conversation.walk.clone();
        let question = conversation.question.clone();
        let next = step(&mut conversation.walk, &question);
        Some((question, next, before))
    }

    /// A select menu's choice: a single choice answers; a multi-select's menu sets what is
    /// ticked among its options (Send then answers).
    fn choose(
        &mut self,
        id: QuestionId,
        step: usize,
        offset: usize,
        values: &BTreeSet<usize>,
    ) -> Option<(Question, Next, Walk)> {
        self.step(id, |walk, question| {
            if walk.step != step {
                return Next::Refuse(Refusal::Stale);
            }
            let Some(sub) = question.questions.get(step) else {
                return Next::Refuse(Refusal::Stale);
            };
            if !sub.multi_select {
                return match values.iter().next() {
                    Some(choice) => walk.tap(question, step, Tap::Pick(*choice)),
                    None => Next::Show,
                };
            }
            let range = offset..offset + 25;
            let before: BTreeSet<usize> = walk
                .ticked
                .iter()
                .copied()
                .filter(|index| range.contains(index))
                .collect();
            for index in before.symmetric_difference(values) {
                walk.tap(question, step, Tap::Toggle(*index));
            }
            Next::Show
        })
    }

    fn is_the_person(&self, line: &Line, user: Option<&str>) -> bool {
        user.is_some() && line.user.as_deref() == user
    }

    fn say_direct(&mut self, lang: hark_text::Lang, key: &str) {
        let shown = render::said(&t_in(lang, key, &[]));
        self.queue_direct(shown);
    }

    /// A direct message to the bot: a pairing, a message for an agent, or a hint.
    async fn take_message(&mut self, message: Value) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        if message
            .get("guild_id")
            .is_some_and(|guild| !guild.is_null())
            || message["author"]["bot"] == true
        {
            return;
        }
        let (Some(user), Some(channel)) = (
            message["author"]["id"].as_str(),
            message["channel_id"].as_str(),
        ) else {
            return;
        };
        if self.discord.bot_user().as_deref() == Some(user) {
            return;
        }
        let lang = line.lang;
        let text = message["content"]
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
            let said = match self.discord.codes.redeem(user.to_string(), &code) {
                Redeemed::Paired => {
                    let paired = user.to_string();
                    match super::change_config(&self.relay, move |discord| {
                        discord.user_id = Some(paired);
                    })
                    .await
                    {
                        Ok(()) => {
                            self.discord.paired();
                            // Someone else pairs: the one before is told, and the questions
                            // move to the new person's messages.
                            if let Some(before) = line.user.clone().filter(|before| before != user)
                            {
                                self.unpaired(before).await;
                            }
                            self.direct = Some((user.to_string(), channel.to_string()));
                            "discord-paired"
                        }
                        Err(_) => "discord-pairing-failed",
                    }
                }
                Redeemed::Expired => "discord-expired-code",
                Redeemed::Wrong => "discord-wrong-code",
            };
            let paired_now = said == "discord-paired";
            if paired_now
                || self.is_the_person(&line, Some(user))
                || self.strangers.allow(user.to_string())
            {
                self.outbox.push_back((channel.to_string(), reply(said)));
            }
            return;
        }
        if !self.is_the_person(&line, Some(user)) {
            if self.strangers.allow(user.to_string()) {
                self.outbox
                    .push_back((channel.to_string(), reply("discord-stranger")));
            }
            return;
        }
        let told = tell::command_or_word(&text);
        let replied = message["message_reference"]["message_id"].as_str();
        let replied_agent = replied.and_then(|id| self.agent_of_message(id));
        let words = match (told, &replied_agent) {
            (Some(words), _) => words.to_string(),
            (None, Some(_)) => text.clone(),
            (None, None) => {
                self.outbox
                    .push_back((channel.to_string(), reply("discord-use-buttons")));
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

    /// The agent of the question whose message is `id`, open or lately closed.
    fn agent_of_message(&self, id: &str) -> Option<AgentRef> {
        self.conversations
            .iter()
            .find(|c| c.posted.as_ref().is_some_and(|posted| posted.id == id))
            .and_then(|c| tell::agent_of(&c.question))
            .or_else(|| {
                self.finished
                    .iter()
                    .rev()
                    .find(|(posted, _)| posted == id)
                    .map(|(_, agent)| agent.clone())
            })
    }
}

/// An answer only the tapper sees, saying `key`.
fn ephemeral(lang: hark_text::Lang, key: &str) -> Value {
    json!({"type": 4, "data": {"content": t_in(lang, key, &[]), "flags": 64}})
}

/// The text a modal submission carries, in either of Discord's shapes (action rows, or the newer
/// labels).
fn modal_text(data: &Value) -> Option<String> {
    data["components"].as_array()?.iter().find_map(|row| {
        let inputs = match row["components"].as_array() {
            Some(inputs) => inputs.clone(),
            None => vec![row["component"].clone()],
        };
        inputs
            .iter()
            .find(|input| input["custom_id"] == render::MODAL_INPUT)
            .and_then(|input| input["value"].as_str().map(str::to_string))
    })
}
