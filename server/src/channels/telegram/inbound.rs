//! What the paired chat (and anyone else) sends the bot: `/start` with a pairing code, button
//! taps and typed replies, each turned into a step of the question's walk, an answer or a
//! decline in the store, and a short reply. Strangers get a polite refusal and change nothing.

use super::chat::{Chat, Conversation, Line};
use super::render;
use super::updates::{CallbackQuery, Message, Update};
use super::{CHANNEL, change_config};
use crate::channels::pairing::Redeemed;
use crate::channels::tell;
use crate::channels::walk::{Callback, Next, Refusal, Walk};
use frankenstein::methods::AnswerCallbackQueryParams;
use hark_core::model::{AgentRef, AnsweredVia, QuestionId, Status};
use hark_core::store::{Outcome, StoreError};
use hark_text::t_in;

impl Chat {
    /// Takes one update: a message, or a tap on a button.
    pub async fn take_update(&mut self, update: Update) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        if let Some(message) = update.message {
            self.take_message(&line, message).await;
        } else if let Some(query) = update.callback_query {
            self.take_tap(&line, query).await;
        }
    }

    /// Says `key` to a chat that is not the paired one, at most a few times in ten minutes:
    /// a stranger cannot make the bot spend Telegram's rate limit on them.
    async fn say_to_stranger(&mut self, line: &Line, chat: i64, key: &str) {
        if self.refusals.allow(chat) {
            self.say(line, chat, key).await;
        }
    }

    /// Says `key` in the chat, best effort.
    pub async fn say(&self, line: &Line, chat: i64, key: &str) {
        let text = render::escape(&t_in(line.lang, key, &[]));
        if let Err(error) = line.send(chat, text, None).await {
            tracing::warn!(channel = %CHANNEL, %error, "could not reply in Telegram");
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
            self.say_to_stranger(line, chat, "telegram-stranger").await;
            return;
        }
        let replied_to = message
            .reply_to_message
            .as_ref()
            .map(|replied| replied.message_id);
        if let Some(words) = tell::command(&text) {
            self.tell(line, chat, replied_to, words).await;
            return;
        }
        let prompted = self.conversations.iter().rposition(|conversation| {
            !conversation.closed
                && replied_to.is_some()
                && conversation.prompt.map(|prompt| prompt.message) == replied_to
        });
        if let Some(position) = prompted {
            // A reply to a prompt counts only while its question still waits for it.
            let conversation = &self.conversations[position];
            let current = conversation.prompt.is_some_and(|prompt| {
                conversation.walk.awaiting == Some(prompt.awaiting)
                    && conversation.walk.step == prompt.step
            });
            if !current {
                self.say(line, chat, "chat-stale").await;
                return;
            }
        }
        let position = prompted.or_else(|| {
            self.conversations.iter().rposition(|conversation| {
                !conversation.closed && replied_to.is_some() && conversation.message == replied_to
            })
        });
        // Without a reply, the words go to the question that asked for some.
        let position = position.or_else(|| {
            self.conversations.iter().rposition(|conversation| {
                !conversation.closed && conversation.walk.awaiting.is_some()
            })
        });
        let Some(position) = position else {
            // A reply to a question that has closed is for its agent.
            if self.agent_replied_to(replied_to).is_some() {
                self.tell(line, chat, replied_to, text.trim()).await;
                return;
            }
            self.say(line, chat, "telegram-use-buttons").await;
            return;
        };
        let conversation = &mut self.conversations[position];
        if text.trim().is_empty() {
            self.say(line, chat, "telegram-use-buttons").await;
            return;
        }
        let before = conversation.walk.clone();
        let next = conversation.walk.reply(&conversation.question, &text);
        let id = conversation.question.id;
        self.follow(line, id, next, before, None).await;
    }

    /// The agent of the question (or prompt) whose message `replied_to` is, closed or not.
    fn agent_replied_to(&self, replied_to: Option<i32>) -> Option<AgentRef> {
        let replied_to = replied_to?;
        let conversation = self.conversations.iter().rev().find(|conversation| {
            conversation.message == Some(replied_to)
                || conversation.prompt.map(|prompt| prompt.message) == Some(replied_to)
        });
        match conversation {
            Some(conversation) => tell::agent_of(&conversation.question),
            None => self
                .finished
                .iter()
                .rev()
                .find(|(message, _)| *message == replied_to)
                .map(|(_, agent)| agent.clone()),
        }
    }

    /// Leaves `words` for the agent of the question replied to, else the one that asked last
    /// (SPEC §18), and says so.
    async fn tell(&self, line: &Line, chat: i64, replied_to: Option<i32>, words: &str) {
        let store = &self.relay.store;
        let to = match self.agent_replied_to(replied_to) {
            Some(agent) => Some(agent),
            None => tell::last_asker(store).await,
        };
        let reply = tell::tell(store, to, words, CHANNEL, line.lang).await;
        if let Err(error) = line.send(chat, render::escape(&reply), None).await {
            tracing::warn!(channel = %CHANNEL, %error, "could not reply in Telegram");
        }
    }

    async fn take_start(&mut self, line: &Line, message: &Message, code: &str) {
        let chat = message.chat.id;
        if message.chat.kind != "private" {
            self.say_to_stranger(line, chat, "telegram-private-only")
                .await;
            return;
        }
        if code.is_empty() {
            if line.chat == Some(chat) {
                self.say(line, chat, "telegram-already-paired").await;
            } else {
                self.say_to_stranger(line, chat, "telegram-start-needs-code")
                    .await;
            }
            return;
        }
        match self.bot.codes.redeem(chat, code) {
            Redeemed::Paired => {
                let paired = change_config(&self.relay, move |telegram| {
                    telegram.chat_id = Some(chat);
                    telegram.enabled = true;
                })
                .await;
                match paired {
                    Ok(()) => {
                        self.bot.paired();
                        tracing::info!(channel = %CHANNEL, "a Telegram chat was paired");
                        self.say(line, chat, "telegram-paired").await;
                    }
                    Err(error) => {
                        tracing::warn!(channel = %CHANNEL, %error, "could not save the paired chat");
                        self.say(line, chat, "telegram-pairing-failed").await;
                    }
                }
            }
            Redeemed::Wrong => {
                tracing::info!(
                    channel = %CHANNEL,
                    "a wrong pairing code was sent to the bot"
                );
                self.say_to_stranger(line, chat, "telegram-wrong-code")
                    .await;
            }
            Redeemed::Expired => {
                self.say_to_stranger(line, chat, "telegram-expired-code")
                    .await;
            }
        }
    }

    async fn take_tap(&mut self, line: &Line, query: CallbackQuery) {
        let chat = query.message.as_ref().map(|message| message.chat.id);
        if chat.is_none() || chat != line.chat {
            answer_tap(line, &query.id, Some("telegram-not-yours")).await;
            return;
        }
        let Some(callback) = query.data.as_deref().and_then(Callback::decode) else {
            answer_tap(line, &query.id, Some("chat-stale")).await;
            return;
        };
        if self.find(callback.id).is_none() {
            // Sent before a restart: still answerable while it is pending.
            match self.relay.store.get(callback.id).await {
                Some(question) if question.status == Status::Pending => {
                    let mut conversation = Conversation::new(question);
                    conversation.message = query.message.as_ref().map(|message| message.message_id);
                    self.conversations.push(conversation);
                }
                _ => {
                    answer_tap(line, &query.id, Some("chat-closed")).await;
                    return;
                }
            }
        }
        let Some(conversation) = self.find(callback.id).filter(|found| !found.closed) else {
            answer_tap(line, &query.id, Some("chat-closed")).await;
            return;
        };
        let before = conversation.walk.clone();
        let next = conversation
            .walk
            .tap(&conversation.question, callback.step, callback.tap);
        self.follow(line, callback.id, next, before, Some(&query.id))
            .await;
    }

    /// Does what a tap or a reply decided, and answers the tap. When the store refuses, the
    /// walk goes back to `before`, so the person can try again where they were.
    async fn follow(
        &mut self,
        line: &Line,
        id: QuestionId,
        next: Next,
        before: Walk,
        tap: Option<&str>,
    ) {
        let store = self.relay.store.clone();
        let outcome = match next {
            Next::Show => Ok(None),
            Next::Refuse(refusal) => Ok(Some(match refusal {
                Refusal::Stale => "chat-stale",
                Refusal::TickFirst => "chat-tick-first",
                Refusal::UseButtons => "telegram-use-buttons",
            })),
            Next::AskReply(awaiting) => {
                if let Some(conversation) = self.find(id) {
                    conversation.prompt_wanted = Some(awaiting);
                }
                // The person is about to type: a time limit waits for them (SPEC §18).
                store.typing(id);
                Ok(None)
            }
            Next::Submit(answers) => store
                .close(
                    id,
                    Outcome::Answered(answers.to_vec()),
                    Some(AnsweredVia::Channel(CHANNEL)),
                )
                .await
                .map(|_| Some("telegram-answer-sent")),
            Next::Decline(note) => store
                .close(
                    id,
                    Outcome::Declined { note },
                    Some(AnsweredVia::Channel(CHANNEL)),
                )
                .await
                .map(|_| Some("telegram-skipped")),
        };
        let key = match outcome {
            Ok(key) => key,
            Err(error) => {
                if let Some(conversation) = self.find(id) {
                    conversation.walk = before;
                }
                Some(match error {
                    StoreError::NotPending { .. } | StoreError::NotFound(_) => "chat-closed",
                    StoreError::Invalid(_) => "chat-too-long",
                    _ => "chat-not-recorded",
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
}

/// Answers a tap (Telegram shows a spinner until then), with a short notice when `key` says.
async fn answer_tap(line: &Line, query: &str, key: Option<&str>) {
    let params = AnswerCallbackQueryParams::builder()
        .callback_query_id(query)
        .maybe_text(key.map(|key| t_in(line.lang, key, &[])))
        .build();
    if let Err(error) = line.api.answer_tap(&params).await {
        tracing::warn!(channel = %CHANNEL, %error, "could not answer a Telegram button");
    }
}
