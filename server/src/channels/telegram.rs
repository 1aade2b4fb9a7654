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
use frankenstein::methods::EditMessageTextParams;
use frankenstein::types::{ForceReply, LinkPreviewOptions, ReplyMarkup};
use hark_core::model::ChannelName;
use render::Shown;

/// The channel's name in statuses, `hark channel test` and the log.
pub const CHANNEL: ChannelName = ChannelName::Telegram;
/// The bot's token in `secrets.json`, bound to the Bot API address it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "telegramToken",
    server: "telegramApiBase",
};

/// Telegram's own part: the bot's username, once Telegram confirmed the token.
#[derive(Default)]
pub struct Telegram {
    bot: Learned<String>,
}

/// Answers a tap (Telegram shows a spinner until then), with a short notice if any.
async fn answer_tap(api: &BotApi, query: &str, notice: Option<String>) -> Responded {
    let answered = api
        .answer_tap(query, notice)
        .await
        .map(|()| Responded::Done);
    Responded::or_failed(CHANNEL, answered, "answer a button")
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

    /// Its Bot API client as the settings stand.
    type Line = BotApi;
    type Message = i32;
    /// The tapped button's callback query, to answer (none for a message).
    type Responder = Option<String>;
    type LinkState = poller::State;

    fn line(&self, relay: &Relay, api_base: &str) -> Option<BotApi> {
        let token = relay.secrets.bound(TOKEN, api_base)?;
        Some(BotApi::new(relay.http.clone(), api_base, &token))
    }

    /// Polling has a status of its own, so a poll that gets through does not hide a message
    /// that could not be delivered.
    fn link_target(server: &str) -> String {
        format!("{server}/getUpdates")
    }

    fn link_key(line: &BotApi) -> u64 {
        line.fingerprint()
    }

    async fn post(&self, line: &BotApi, to: &str, view: &Shown) -> Result<i32, ServiceError> {
        let markup = view.keyboard.clone().map(ReplyMarkup::InlineKeyboardMarkup);
        line.send(chat_of(to)?, view.text.clone(), markup, None)
            .await
    }

    async fn update(
        &self,
        line: &BotApi,
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
        match line.edit(&params).await {
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
        line: &BotApi,
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
            Response::Taken => answer_tap(line, &query, None).await,
            Response::Closed(text) | Response::Notice(text) | Response::Stranger(text) => {
                answer_tap(line, &query, Some(text)).await
            }
            Response::AskReply {
                lang,
                question,
                walk,
                awaiting,
                at,
                reply_to,
            } => {
                answer_tap(line, &query, None).await;
                let Some(chat) = at.as_deref().and_then(|at| at.parse().ok()) else {
                    return Responded::Failed;
                };
                let placeholder = hark_text::t_in(lang, "telegram-reply-placeholder", &[]);
                let force = ForceReply::builder()
                    .force_reply(true)
                    .input_field_placeholder(placeholder)
                    .build();
                let prompt = render::prompt(lang, question, walk, awaiting);
                let markup = Some(ReplyMarkup::ForceReply(force));
                let reply_to = reply_to.and_then(|message| message.parse().ok());
                let sent = line.send(chat, prompt, markup, reply_to).await;
                let prompted = sent.map(|message| Responded::Prompted(message.to_string()));
                Responded::or_failed(CHANNEL, prompted, "ask for a reply")
            }
        }
    }

    async fn listen(
        &self,
        listening: &Listening<'_, Self>,
        line: &BotApi,
        state: &mut poller::State,
    ) -> LinkEnded {
        poller::listen(self, listening, line, state).await
    }
}
