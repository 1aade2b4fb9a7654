//! The chat task: one conversation per pending question in the paired chat. It sends each
//! question's message once, edits it as the person walks through it and when it closes, sends
//! the reply prompts and the reminders, and turns taps and replies into answers. Messages that
//! could not go out (Telegram unreachable) wait and go out, once, when it is back.

use super::bot_api::{BotApi, BotError};
use super::render::{self, Shown};
use super::sent::SentLog;
use super::updates::Sent;
use super::{CHANNEL, Input, TOKEN, Telegram};
use crate::channels::Relay;
use crate::channels::walk::{Awaiting, Walk};
use frankenstein::ParseMode;
use frankenstein::methods::{EditMessageTextParams, SendMessageParams};
use frankenstein::types::{ForceReply, LinkPreviewOptions, ReplyMarkup, ReplyParameters};
use hark_core::model::{AgentRef, Event, Question, QuestionId};
use hark_text::Lang;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The first pause after Telegram could not be reached, doubled each time up to the last.
const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);

/// The bot as the settings stand: its API, the paired chat and the language to write in.
pub struct Line {
    pub api: BotApi,
    pub api_base: String,
    pub chat: Option<i64>,
    pub lang: Lang,
}

impl Line {
    /// The bot, when it is on and has a token.
    pub fn of(relay: &Relay) -> Option<Line> {
        let (telegram, lang) = relay.store.read_config(|config| {
            (
                config.channels.telegram.clone(),
                hark_text::negotiate::daemon_lang(config),
            )
        });
        if !telegram.enabled {
            return None;
        }
        let token = relay.secrets.bound(TOKEN, &telegram.api_base)?;
        Some(Line {
            api: BotApi::new(relay.http.clone(), &telegram.api_base, &token),
            api_base: telegram.api_base,
            chat: telegram.chat_id,
            lang,
        })
    }

    /// Sends `html` to `chat`, with `markup` if any.
    pub async fn send(
        &self,
        chat: i64,
        html: String,
        markup: Option<ReplyMarkup>,
    ) -> Result<Sent, BotError> {
        let params = SendMessageParams::builder()
            .chat_id(chat)
            .text(html)
            .parse_mode(ParseMode::Html)
            .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
            .maybe_reply_markup(markup)
            .build();
        self.api.send(&params).await
    }
}

/// A reply prompt: its message, and the step and reply it asked for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prompt {
    pub message: i32,
    pub step: usize,
    pub awaiting: Awaiting,
}

/// One question in the chat.
pub(super) struct Conversation {
    pub question: Question,
    pub walk: Walk,
    /// The question's message, once sent.
    pub message: Option<i32>,
    /// What the message shows now.
    shown: Option<Shown>,
    /// A reply prompt to send (Other…, Skip).
    pub prompt_wanted: Option<Awaiting>,
    /// The reply prompt sent last, whose replies belong to this question.
    pub prompt: Option<Prompt>,
    pub closed: bool,
}

impl Conversation {
    pub fn new(question: Question) -> Conversation {
        Conversation {
            question,
            walk: Walk::default(),
            message: None,
            shown: None,
            prompt_wanted: None,
            prompt: None,
            closed: false,
        }
    }

    fn wanted(&self, lang: Lang) -> Shown {
        if self.closed {
            render::closed(lang, &self.question)
        } else {
            render::pending(lang, &self.question, &self.walk)
        }
    }
}

/// The chat task's state.
pub(super) struct Chat {
    pub relay: Arc<Relay>,
    /// The bot's shared part: pairing codes, what settings are shown.
    pub bot: Arc<Telegram>,
    pub conversations: Vec<Conversation>,
    /// The chat the conversations' messages are in.
    chat: Option<i64>,
    /// A reminder waiting to go out.
    reminder: Option<Vec<QuestionId>>,
    /// Which message each open question has, across restarts.
    sent: SentLog,
    /// Replies given to strangers lately.
    pub refusals: crate::channels::refusals::Refusals<i64>,
    /// Questions Telegram refused for good in this chat (the bot blocked, say): not retried.
    given_up: std::collections::HashSet<QuestionId>,
    /// When to try again after Telegram could not be reached.
    retry_at: Option<Instant>,
    pause: Duration,
    /// The messages of closed questions lately done with, and their agents: a reply to one is
    /// a message for that agent (SPEC §18).
    pub finished: VecDeque<(i32, AgentRef)>,
}

/// Closed questions' messages remembered for replies to their agents.
const FINISHED_KEPT: usize = 100;

/// Runs the chat task until the daemon stops.
pub async fn run(relay: Arc<Relay>, bot: Arc<Telegram>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let sent = SentLog::load(relay.home.as_deref());
    let mut chat = Chat {
        relay,
        bot,
        conversations: Vec::new(),
        chat: None,
        reminder: None,
        sent,
        refusals: crate::channels::refusals::Refusals::default(),
        given_up: std::collections::HashSet::new(),
        retry_at: None,
        pause: FIRST_PAUSE,
        finished: VecDeque::new(),
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
        match input {
            Some(Input::Event(event)) => chat.take_event(&event),
            Some(Input::Update(update)) => chat.take_update(*update).await,
            Some(Input::Unpaired(old)) => chat.unpaired(old).await,
            None => return,
        }
    }
}

impl Chat {
    pub fn find(&mut self, id: QuestionId) -> Option<&mut Conversation> {
        self.conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id)
    }

    fn take_event(&mut self, event: &Event) {
        match event {
            Event::QuestionCreated(question) => {
                if self.find(question.id).is_none() {
                    self.conversations.push(Conversation::new(question.clone()));
                }
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                if let Some(conversation) = self.find(question.id) {
                    conversation.question = question.clone();
                    conversation.closed = true;
                    conversation.prompt_wanted = None;
                }
            }
            Event::QuestionUpdated(question) => {
                if let Some(conversation) = self.find(question.id) {
                    conversation.question = question.clone();
                }
            }
            Event::QuestionRemind(remind) => {
                self.reminder = Some(remind.ids.clone());
            }
            Event::Init(_)
            | Event::ConfigUpdated(_)
            | Event::MessageCreated(_)
            | Event::MessageDelivered(_) => {}
        }
    }

    /// Keeps a conversation for every pending question of the chat paired now; a chat paired
    /// anew starts over (the old chat's messages cannot be edited in it). What closed while
    /// the bot was off, or while events were lost, is closed here too.
    async fn follow_the_store(&mut self, chat: i64) {
        let pending = self.relay.store.pending();
        if self.chat != Some(chat) {
            self.conversations.clear();
            self.given_up.clear();
            self.chat = Some(chat);
            // Messages sent before a restart whose questions closed meanwhile still need their
            // outcome.
            for (id, message) in self.sent.messages_in(chat) {
                if pending.iter().any(|open| open.id == id) {
                    continue;
                }
                if let Some(closed) = self.relay.store.get(id).await {
                    let mut conversation = Conversation::new(closed);
                    conversation.message = Some(message);
                    conversation.closed = true;
                    self.conversations.push(conversation);
                }
            }
        }
        let mut index = 0;
        while index < self.conversations.len() {
            let conversation = &self.conversations[index];
            let open = pending
                .iter()
                .any(|question| question.id == conversation.question.id);
            if open || conversation.closed {
                index += 1;
                continue;
            }
            let id = conversation.question.id;
            match self.relay.store.get(id).await {
                Some(closed) if self.conversations[index].message.is_some() => {
                    let conversation = &mut self.conversations[index];
                    conversation.question = closed;
                    conversation.closed = true;
                    conversation.prompt_wanted = None;
                    index += 1;
                }
                // Never shown, or gone from the history: nothing to send or edit.
                _ => {
                    self.conversations.remove(index);
                }
            }
        }
        for question in pending {
            if self.find(question.id).is_none() && !self.given_up.contains(&question.id) {
                // Sent before a restart: the message is edited (its walk starts over), not
                // sent again.
                let message = self.sent.message_of(chat, question.id);
                let mut conversation = Conversation::new(question);
                conversation.message = message;
                self.conversations.push(conversation);
            }
        }
        self.conversations
            .sort_by_key(|conversation| conversation.question.created_at);
    }

    /// Telegram could not be reached: try again later, after a longer pause each time.
    fn pause_after(&mut self, line: &Line, error: &BotError) {
        self.relay
            .statuses
            .failed(CHANNEL, &line.api_base, error.to_string());
        let asked = match error {
            BotError::Refused {
                retry_after: Some(secs),
                ..
            } => Duration::from_secs(*secs),
            _ => self.pause,
        };
        self.retry_at = Some(Instant::now() + asked.min(LONGEST_PAUSE * 4));
        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
    }

    /// Brings the chat up to date: new messages, edits, prompts, the reminder.
    async fn sync(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let Some(chat) = line.chat else {
            self.chat = None;
            return;
        };
        self.follow_the_store(chat).await;
        let mut index = 0;
        while index < self.conversations.len() {
            match self.sync_one(&line, chat, index).await {
                Ok(true) => index += 1,
                Ok(false) => {
                    let done = self.conversations.remove(index);
                    if let (Some(message), Some(agent)) = (
                        done.message,
                        crate::channels::tell::agent_of(&done.question),
                    ) {
                        if self.finished.len() >= FINISHED_KEPT {
                            self.finished.pop_front();
                        }
                        self.finished.push_back((message, agent));
                    }
                }
                Err(error) => {
                    self.pause_after(&line, &error);
                    self.keep_record(chat).await;
                    return;
                }
            }
        }
        if let Some(ids) = self.reminder.take() {
            let waiting: Vec<Question> = self
                .conversations
                .iter()
                .filter(|conversation| {
                    !conversation.closed
                        && conversation.message.is_some()
                        && ids.contains(&conversation.question.id)
                })
                .map(|conversation| conversation.question.clone())
                .collect();
            if !waiting.is_empty() {
                // A reminder is worth sending only now: one that failed is not kept.
                match line
                    .send(chat, render::reminder(line.lang, &waiting), None)
                    .await
                {
                    Ok(_) => self.relay.statuses.sent(CHANNEL, &line.api_base),
                    Err(error) => self.pause_after(&line, &error),
                }
            }
        }
        self.keep_record(chat).await;
        if self.retry_at.is_none() {
            self.pause = FIRST_PAUSE;
        }
    }

    /// Records every message still to be edited (open questions, and closed ones whose
    /// outcome is not shown yet).
    async fn keep_record(&mut self, chat: i64) {
        let shown: Vec<(QuestionId, i32)> = self
            .conversations
            .iter()
            .filter_map(|conversation| Some((conversation.question.id, conversation.message?)))
            .collect();
        self.sent.keep(chat, shown.into_iter()).await;
    }

    /// Brings one conversation up to date; `Ok(false)` when it is done with.
    async fn sync_one(&mut self, line: &Line, chat: i64, index: usize) -> Result<bool, BotError> {
        let relay = self.relay.clone();
        let conversation = &mut self.conversations[index];
        let wanted = conversation.wanted(line.lang);
        match conversation.message {
            None if conversation.closed => return Ok(false),
            None => {
                let markup = wanted
                    .keyboard
                    .clone()
                    .map(ReplyMarkup::InlineKeyboardMarkup);
                match line.send(chat, wanted.text.clone(), markup).await {
                    Ok(sent) => {
                        relay.statuses.sent(CHANNEL, &line.api_base);
                        conversation.message = Some(sent.message_id);
                        conversation.shown = Some(wanted);
                    }
                    Err(error) if error.passing() => return Err(error),
                    Err(error) => {
                        // Blocked, or the chat is gone: this question stays on the page.
                        relay
                            .statuses
                            .failed(CHANNEL, &line.api_base, error.to_string());
                        let id = conversation.question.id;
                        self.given_up.insert(id);
                        return Ok(false);
                    }
                }
            }
            Some(message) if conversation.shown.as_ref() != Some(&wanted) => {
                let params = EditMessageTextParams::builder()
                    .chat_id(chat)
                    .message_id(message)
                    .text(wanted.text.clone())
                    .parse_mode(ParseMode::Html)
                    .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
                    .maybe_reply_markup(wanted.keyboard.clone())
                    .build();
                match line.api.edit(&params).await {
                    Ok(_) => relay.statuses.sent(CHANNEL, &line.api_base),
                    Err(error) if error.unchanged() => {}
                    Err(error) if error.passing() => return Err(error),
                    Err(error) => {
                        // Deleted in the chat: nothing left to edit.
                        relay
                            .statuses
                            .failed(CHANNEL, &line.api_base, error.to_string());
                    }
                }
                conversation.shown = Some(wanted);
            }
            Some(_) => {}
        }
        if conversation.closed {
            return Ok(false);
        }
        if let (Some(awaiting), Some(message)) = (conversation.prompt_wanted, conversation.message)
        {
            let text = render::prompt(
                line.lang,
                &conversation.question,
                &conversation.walk,
                awaiting,
            );
            let force = ForceReply::builder()
                .force_reply(true)
                .input_field_placeholder(hark_text::t_in(
                    line.lang,
                    "telegram-reply-placeholder",
                    &[],
                ))
                .build();
            let params = SendMessageParams::builder()
                .chat_id(chat)
                .text(text)
                .parse_mode(ParseMode::Html)
                .reply_parameters(
                    ReplyParameters::builder()
                        .message_id(message)
                        .allow_sending_without_reply(true)
                        .build(),
                )
                .reply_markup(ReplyMarkup::ForceReply(force))
                .build();
            match line.api.send(&params).await {
                Ok(sent) => {
                    relay.statuses.sent(CHANNEL, &line.api_base);
                    conversation.prompt = Some(Prompt {
                        message: sent.message_id,
                        step: conversation.walk.step,
                        awaiting,
                    });
                }
                Err(error) if error.passing() => return Err(error),
                Err(error) => {
                    relay
                        .statuses
                        .failed(CHANNEL, &line.api_base, error.to_string());
                }
            }
            conversation.prompt_wanted = None;
        }
        Ok(true)
    }

    /// The chat was unpaired: it is told, and its conversations are dropped.
    async fn unpaired(&mut self, old: i64) {
        self.conversations.clear();
        self.chat = None;
        if let Some(line) = Line::of(&self.relay) {
            self.say(&line, old, "telegram-unpaired").await;
        }
    }
}
