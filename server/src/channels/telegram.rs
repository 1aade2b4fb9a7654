//! The Telegram bot (SPEC §11): each question becomes a message in one paired chat, with buttons
//! that answer it there; the message is edited when the question closes anywhere. The bot only
//! ever calls out (long polling), so it works behind NAT with nothing reaching this machine. Its
//! wire only: the chat engine (`channels::chat`) does the rest. Telegram's own ways: the chat
//! is the person (its id), pairing is `/start <code>`, and "Other…" and "Skip" ask for a reply
//! with a ForceReply prompt, whose reply (or a reply to the question) answers in words.
//!
//! - `bot_api`: the Bot API client (frankenstein's methods over our reqwest);
//! - `updates`: the few fields of Telegram's answers Hark reads; `inbound`: updates read into
//!   the engine's inbounds;
//! - `render`: a question's message as the shared walk (`channels::walk`) stands;
//! - `poller`: `getUpdates`, the bot's connection;
//! - `setup`: checking and keeping the token, and the bot's report;

mod bot_api;
mod inbound;
mod poller;
mod render;
mod setup;
mod updates;

pub use bot_api::BotApi;

use super::Relay;
use super::chat::learned::Learned;
use super::chat::service::ServiceError;
use super::chat::{ChatApp, LinkEnded, Listening, Responded, Response};
use crate::daemon::secrets::BoundKey;
use frankenstein::ParseMode;
use frankenstein::methods::{AnswerCallbackQueryParams, EditMessageTextParams, SendMessageParams};
use frankenstein::types::{ForceReply, LinkPreviewOptions, ReplyMarkup, ReplyParameters};
use hark_core::model::ChannelName;
use render::Shown;

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Telegram;
/// The bot's token in `secrets.json`, bound to the Bot API address it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "telegramToken",
    server: "telegramApiBase",
};

/// The bot as the settings stand: its API.
pub struct Line {
    pub api: BotApi,
    pub api_base: String,
}

impl Line {
    /// Sends `html` to `chat`, with `markup` if any.
    async fn send(
        &self,
        chat: i64,
        html: String,
        markup: Option<ReplyMarkup>,
        reply_to: Option<i32>,
    ) -> Result<i32, ServiceError> {
        let params = SendMessageParams::builder()
            .chat_id(chat)
            .text(html)
            .parse_mode(ParseMode::Html)
            .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
            .maybe_reply_markup(markup)
            .maybe_reply_parameters(reply_to.map(|message| {
                ReplyParameters::builder()
                    .message_id(message)
                    .allow_sending_without_reply(true)
                    .build()
            }))
            .build();
        self.api.send(&params).await.map(|sent| sent.message_id)
    }

    /// Answers a tap (Telegram shows a spinner until then), with a short notice if any.
    async fn answer_tap(&self, query: &str, notice: Option<String>) -> Responded {
        let params = AnswerCallbackQueryParams::builder()
            .callback_query_id(query)
            .maybe_text(notice)
            .build();
        match self.api.answer_tap(&params).await {
            Ok(()) => Responded::Done,
            Err(error) => {
                tracing::warn!(channel = %CHANNEL, %error, "could not answer a Telegram button");
                Responded::Failed
            }
        }
    }
}

/// Telegram's own part: the bot's username, once Telegram confirmed the token.
#[derive(Default)]
pub struct Telegram {
    bot: Learned<String>,
}

/// A chat id as the config keeps it, from the engine's person.
fn chat_of(person: &str) -> Result<i64, ServiceError> {
    person
        .parse()
        .map_err(|_| ServiceError::refused(CHANNEL, 400, 0, "not a chat id"))
}

#[async_trait::async_trait]
impl ChatApp for Telegram {
    const NAME: ChannelName = CHANNEL;
    const RECORD: &'static str = "telegram.json";
    const ASKS_IN_A_WINDOW: bool = false;
    const WORDS_ANSWER: bool = true;
    /// "tell" is a word like any other in a reply: only `/tell` tells.
    const BARE_TELL: bool = false;
    const PAIR_COMMAND: &'static str = "/start";

    type Line = Line;
    type Message = i32;
    /// The tapped button's callback query, to answer (none for a message).
    type Responder = Option<String>;
    type LinkState = poller::State;

    fn line(&self, relay: &Relay, api_base: &str) -> Option<Line> {
        let token = relay.secrets.bound(TOKEN, api_base)?;
        Some(Line {
            api: BotApi::new(relay.http.clone(), api_base, &token),
            api_base: api_base.to_string(),
        })
    }

    fn server(line: &Line) -> &str {
        &line.api_base
    }

    /// Polling has a status of its own, so a poll that gets through does not hide a message
    /// that could not be delivered.
    fn link_target(line: &Line) -> String {
        format!("{}/getUpdates", line.api_base)
    }

    fn link_key(line: &Line) -> u64 {
        line.api.fingerprint()
    }

    /// The chat is the person.
    async fn open(&self, _line: &Line, person: &str) -> Result<String, ServiceError> {
        Ok(person.to_string())
    }

    async fn post(&self, line: &Line, to: &str, view: &Shown) -> Result<i32, ServiceError> {
        let markup = view.keyboard.clone().map(ReplyMarkup::InlineKeyboardMarkup);
        line.send(chat_of(to)?, view.text.clone(), markup, None)
            .await
    }

    async fn update(
        &self,
        line: &Line,
        at: &str,
        message: &i32,
        view: &Shown,
    ) -> Result<(), ServiceError> {
        let params = EditMessageTextParams::builder()
            .chat_id(chat_of(at)?)
            .message_id(*message)
            .text(view.text.clone())
            .parse_mode(ParseMode::Html)
            .link_preview_options(LinkPreviewOptions::builder().is_disabled(true).build())
            .maybe_reply_markup(view.keyboard.clone())
            .build();
        match line.api.edit(&params).await {
            Err(error) if bot_api::unchanged(&error) => Ok(()),
            edited => edited,
        }
    }

    fn message_id(message: &i32) -> String {
        message.to_string()
    }

    /// A tap is answered with its notice; "Other…" and "Skip" send a prompt that asks for a
    /// reply. What a message did is said in the chat.
    async fn respond(
        &self,
        line: &Line,
        query: Option<String>,
        response: Response<'_>,
    ) -> Responded {
        let Some(query) = query else {
            return match response {
                Response::Notice(text) | Response::Closed(text) => Responded::SayInChat(text),
                _ => Responded::Done,
            };
        };
        match response {
            Response::Taken => line.answer_tap(&query, None).await,
            Response::Closed(text) | Response::Notice(text) | Response::Stranger(text) => {
                line.answer_tap(&query, Some(text)).await
            }
            Response::AskReply {
                lang,
                question,
                walk,
                awaiting,
                at,
                reply_to,
            } => {
                line.answer_tap(&query, None).await;
                let Some(chat) = at.as_deref().and_then(|at| at.parse().ok()) else {
                    return Responded::Failed;
                };
                let force = ForceReply::builder()
                    .force_reply(true)
                    .input_field_placeholder(hark_text::t_in(
                        lang,
                        "telegram-reply-placeholder",
                        &[],
                    ))
                    .build();
                let prompt = render::prompt(lang, question, walk, awaiting);
                match line
                    .send(
                        chat,
                        prompt,
                        Some(ReplyMarkup::ForceReply(force)),
                        reply_to.and_then(|message| message.parse().ok()),
                    )
                    .await
                {
                    Ok(message) => Responded::Prompted(message.to_string()),
                    Err(error) => {
                        tracing::warn!(channel = %CHANNEL, %error, "could not ask for a reply in Telegram");
                        Responded::Failed
                    }
                }
            }
        }
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &Line,
        state: &mut poller::State,
    ) -> LinkEnded {
        poller::listen(self, listening, line, state).await
    }
}
