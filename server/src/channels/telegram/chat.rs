//! The chat task: one conversation per pending question in the paired chat. It sends each
//! question's message once, edits it as the person walks through it and when it closes, sends
//! the reply prompts and the reminders, and turns taps and replies into answers. Messages that
//! could not go out (Telegram unreachable) wait and go out, once, when it is back.

use super::bot_api::{BotApi, BotError};
use super::pairing::Redeemed;
use super::render::{self, Shown};
use super::walk::{Awaiting, Callback, Next, Walk};
use super::{CHANNEL, Input, change_config};
use crate::channels::Relay;
use app::i18n::{Lang, t_in};
use frankenstein::AsyncTelegramApi;
use frankenstein::ParseMode;
use frankenstein::methods::{AnswerCallbackQueryParams, EditMessageTextParams, SendMessageParams};
use frankenstein::types::{
    ChatType, ForceReply, LinkPreviewOptions, MaybeInaccessibleMessage, Message, ReplyMarkup,
    ReplyParameters,
};
use frankenstein::updates::UpdateContent;
use hark_core::model::{AnsweredVia, Event, Question, QuestionId, Status};
use hark_core::store::StoreError;
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
                config.language.unwrap_or_else(Lang::from_environment),
            )
        });
        if !telegram.enabled {
            return None;
        }
        let token = relay.secrets.telegram_token_for(&telegram.api_base)?;
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
    ) -> Result<Message, BotError> {
        let params = SendMessageParams::builder()
            .chat_id(chat)
            .text(html)
            .parse_mode(ParseMode::Html)
            .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
            .maybe_reply_markup(markup)
            .build();
        self.api.send_message(&params).await.map(|sent| sent.result)
    }
}

/// One question in the chat.
struct Conversation {
    question: Question,
    walk: Walk,
    /// The question's message, once sent.
    message: Option<i32>,
    /// What the message shows now.
    shown: Option<Shown>,
    /// A reply prompt to send (Other…, Skip).
    prompt_wanted: Option<Awaiting>,
    /// The reply prompt sent last, whose replies belong to this question.
    prompt: Option<i32>,
    closed: bool,
}

impl Conversation {
    fn new(question: Question) -> Conversation {
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

struct Chat {
    relay: Arc<Relay>,
    conversations: Vec<Conversation>,
    /// The chat the conversations' messages are in.
    chat: Option<i64>,
    /// A reminder waiting to go out.
    reminder: Option<Vec<QuestionId>>,
    /// When to try again after Telegram could not be reached.
    retry_at: Option<Instant>,
    pause: Duration,
}

/// Runs the chat task until the daemon stops.
pub async fn run(relay: Arc<Relay>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let mut chat = Chat {
        relay,
        conversations: Vec::new(),
        chat: None,
        reminder: None,
        retry_at: None,
        pause: FIRST_PAUSE,
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
    fn find(&mut self, id: QuestionId) -> Option<&mut Conversation> {
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
            Event::Init(_) | Event::ConfigUpdated(_) => {}
        }
    }

    /// Keeps a conversation for every pending question of the chat paired now; a chat paired
    /// anew starts over (the old chat's messages cannot be edited in it). What closed while
    /// the bot was off, or while events were lost, is closed here too.
    async fn follow_the_store(&mut self, chat: i64) {
        if self.chat != Some(chat) {
            self.conversations.clear();
            self.chat = Some(chat);
        }
        let pending = self.relay.store.pending();
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
            if self.find(question.id).is_none() {
                self.conversations.push(Conversation::new(question));
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
                    self.conversations.remove(index);
                }
                Err(error) => {
                    self.pause_after(&line, &error);
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
        if self.retry_at.is_none() {
            self.pause = FIRST_PAUSE;
        }
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
                match line.api.edit_message_text(&params).await {
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
                .input_field_placeholder(app::i18n::t_in(
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
            match line.api.send_message(&params).await {
                Ok(sent) => {
                    relay.statuses.sent(CHANNEL, &line.api_base);
                    conversation.prompt = Some(sent.result.message_id);
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

    async fn take_update(&mut self, update: frankenstein::updates::Update) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        match update.content {
            UpdateContent::Message(message) => self.take_message(&line, *message).await,
            UpdateContent::CallbackQuery(query) => self.take_tap(&line, *query).await,
            _ => {}
        }
    }

    /// Says `key` in the chat, best effort.
    async fn say(&self, line: &Line, chat: i64, key: &str) {
        let text = render::escape(&t_in(line.lang, key, &[]));
        if let Err(error) = line.send(chat, text, None).await {
            tracing::warn!(channel = CHANNEL, %error, "could not reply in Telegram");
        }
    }

    async fn take_message(&mut self, line: &Line, message: Message) {
        let chat = message.chat.id;
        let text = message.text.clone().unwrap_or_default();
        let mut words = text.split_whitespace();
        let command = words.next().unwrap_or_default();
        if command == "/start" || command.starts_with("/start@") {
            let code = words.next().unwrap_or_default();
            self.take_start(line, &message, code).await;
            return;
        }
        if line.chat != Some(chat) {
            self.say(line, chat, "telegram-stranger").await;
            return;
        }
        let replied_to = message
            .reply_to_message
            .as_ref()
            .map(|replied| replied.message_id);
        let position = self.conversations.iter().rposition(|conversation| {
            !conversation.closed
                && replied_to.is_some()
                && (conversation.prompt == replied_to || conversation.message == replied_to)
        });
        // Without a reply, the words go to the question that asked for some.
        let position = position.or_else(|| {
            self.conversations.iter().rposition(|conversation| {
                !conversation.closed && conversation.walk.awaiting.is_some()
            })
        });
        let Some(position) = position else {
            self.say(line, chat, "telegram-use-buttons").await;
            return;
        };
        let conversation = &mut self.conversations[position];
        if text.trim().is_empty() {
            self.say(line, chat, "telegram-use-buttons").await;
            return;
        }
        let next = conversation.walk.reply(&conversation.question, &text);
        let id = conversation.question.id;
        self.follow(line, id, next, None).await;
    }

    async fn take_start(&mut self, line: &Line, message: &Message, code: &str) {
        let chat = message.chat.id;
        if message.chat.type_field != ChatType::Private {
            self.say(line, chat, "telegram-private-only").await;
            return;
        }
        if code.is_empty() {
            let key = if line.chat == Some(chat) {
                "telegram-already-paired"
            } else {
                "telegram-start-needs-code"
            };
            self.say(line, chat, key).await;
            return;
        }
        match self.relay.telegram.codes.redeem(code) {
            Redeemed::Paired => {
                let paired = change_config(&self.relay, |telegram| {
                    telegram.chat_id = Some(chat);
                    telegram.enabled = true;
                })
                .await;
                match paired {
                    Ok(()) => {
                        tracing::info!(channel = CHANNEL, "a Telegram chat was paired");
                        self.say(line, chat, "telegram-paired").await;
                    }
                    Err(error) => {
                        tracing::warn!(channel = CHANNEL, %error, "could not save the paired chat");
                        self.say(line, chat, "telegram-pairing-failed").await;
                    }
                }
            }
            Redeemed::Wrong => {
                tracing::info!(
                    channel = CHANNEL,
                    "a wrong pairing code was sent to the bot"
                );
                self.say(line, chat, "telegram-wrong-code").await;
            }
            Redeemed::Expired => self.say(line, chat, "telegram-expired-code").await,
        }
    }

    async fn take_tap(&mut self, line: &Line, query: frankenstein::types::CallbackQuery) {
        let chat = match &query.message {
            Some(MaybeInaccessibleMessage::Message(message)) => Some(message.chat.id),
            Some(MaybeInaccessibleMessage::InaccessibleMessage(message)) => Some(message.chat.id),
            None => None,
        };
        if chat.is_none() || chat != line.chat {
            answer_tap(line, &query.id, Some("telegram-not-yours")).await;
            return;
        }
        let Some(callback) = query.data.as_deref().and_then(Callback::decode) else {
            answer_tap(line, &query.id, Some("telegram-stale")).await;
            return;
        };
        if self.find(callback.id).is_none() {
            // Sent before a restart: still answerable while it is pending.
            match self.relay.store.get(callback.id).await {
                Some(question) if question.status == Status::Pending => {
                    let mut conversation = Conversation::new(question);
                    conversation.message = match &query.message {
                        Some(MaybeInaccessibleMessage::Message(message)) => {
                            Some(message.message_id)
                        }
                        _ => None,
                    };
                    self.conversations.push(conversation);
                }
                _ => {
                    answer_tap(line, &query.id, Some("telegram-closed")).await;
                    return;
                }
            }
        }
        let Some(conversation) = self.find(callback.id) else {
            return;
        };
        if conversation.closed {
            answer_tap(line, &query.id, Some("telegram-closed")).await;
            return;
        }
        let next = conversation
            .walk
            .tap(&conversation.question, callback.step, callback.tap);
        self.follow(line, callback.id, next, Some(&query.id)).await;
    }

    /// Does what a tap or a reply decided, and answers the tap.
    async fn follow(&mut self, line: &Line, id: QuestionId, next: Next, tap: Option<&str>) {
        let store = self.relay.store.clone();
        let outcome = match next {
            Next::Show => Ok(None),
            Next::Refuse(key) => Ok(Some(key)),
            Next::AskReply(awaiting) => {
                if let Some(conversation) = self.find(id) {
                    conversation.prompt_wanted = Some(awaiting);
                }
                Ok(None)
            }
            Next::Submit(answers) => store
                .answer_via(id, &answers, Some(AnsweredVia::Telegram))
                .await
                .map(|_| Some("telegram-answer-sent")),
            Next::Decline(note) => store
                .decline_via(id, note, Some(AnsweredVia::Telegram))
                .await
                .map(|_| Some("telegram-skipped")),
        };
        let key = match outcome {
            Ok(key) => key,
            Err(error) => {
                if let Some(conversation) = self.find(id) {
                    conversation.walk.undo_submit();
                }
                Some(match error {
                    StoreError::NotPending { .. } | StoreError::NotFound(_) => "telegram-closed",
                    StoreError::Invalid(_) => "telegram-too-long",
                    _ => "telegram-not-recorded",
                })
            }
        };
        match tap {
            Some(tap) => answer_tap(line, tap, key).await,
            None => {
                if let (Some(key), Some(chat)) = (key, line.chat) {
                    self.say(line, chat, key).await;
                }
            }
        }
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

/// Answers a tap (Telegram shows a spinner until then), with a short notice when `key` says.
async fn answer_tap(line: &Line, query: &str, key: Option<&str>) {
    let params = AnswerCallbackQueryParams::builder()
        .callback_query_id(query)
        .maybe_text(key.map(|key| t_in(line.lang, key, &[])))
        .build();
    if let Err(error) = line.api.answer_callback_query(&params).await {
        tracing::warn!(channel = CHANNEL, %error, "could not answer a Telegram button");
    }
}
