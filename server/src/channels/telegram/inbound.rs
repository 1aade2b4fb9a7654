//! Updates read into the engine's inbounds: a message (in which chat, its text, the message it
//! replies to) and a tap on a button (the chat of the message it is under, and its callback).
//! A tap that names nothing Hark drew (an older format), or comes without its message, is
//! answered here, as the engine has nothing to take.

use super::updates::Update;
use super::{BotApi, Telegram};
use crate::channels::chat::words::Words;
use crate::channels::chat::{Inbound, Listening, Said};
use crate::channels::walk::Callback;

/// Hands `update` to the engine, or answers a tap that names nothing.
pub async fn take(update: Update, listening: &Listening<'_, Telegram>, line: &BotApi) {
    if let Some(message) = update.message {
        let chat = message.chat.id.to_string();
        listening
            .hand(Inbound::Said(Said {
                id: Some(update.update_id.to_string()),
                from: chat.clone(),
                at: chat,
                text: message.text.unwrap_or_default(),
                replying_to: message
                    .reply_to_message
                    .map(|replied| replied.message_id.to_string()),
                private: message.chat.kind == "private",
                written: None,
            }))
            .await;
    } else if let Some(query) = update.callback_query {
        let words = Words::of::<Telegram>(listening.relay);
        let Some(chat) = query.message.map(|message| message.chat.id) else {
            let notice = words.plain("chat-not-yours");
            super::answer_tap(line, &query.id, Some(notice)).await;
            return;
        };
        let Some(callback) = query.data.as_deref().and_then(Callback::decode) else {
            let notice = words.in_app("chat-stale");
            super::answer_tap(line, &query.id, Some(notice)).await;
            return;
        };
        listening
            .hand(Inbound::Tap {
                from: chat.to_string(),
                callback,
                responder: Some(query.id),
            })
            .await;
    }
}
