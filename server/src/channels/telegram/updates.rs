//! The few fields Hark reads from Telegram's updates and replies, as narrow views. Telegram's
//! full `Message` (frankenstein's type) spans every kind of message there is, and its
//! deserializer alone weighs 3.6 MB of the binary (measured); these read the same JSON and
//! skip the rest. What Hark sends still goes through frankenstein's method types.

use serde::Deserialize;

/// One of `getUpdates`' results: a message or a button tap (the only kinds Hark asks for).
#[derive(Debug, Deserialize)]
pub struct Update {
    pub update_id: i64,
    pub message: Option<Message>,
    pub callback_query: Option<CallbackQuery>,
}

/// A message someone sent the bot.
#[derive(Debug, Deserialize)]
pub struct Message {
    pub chat: Chat,
    pub text: Option<String>,
    pub reply_to_message: Option<Sent>,
}

/// The chat a message is in.
#[derive(Debug, Deserialize)]
pub struct Chat {
    pub id: i64,
    /// `private`, `group`, `supergroup` or `channel`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// A tap on one of the bot's buttons.
#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    pub id: String,
    /// The message the button is under (an old one arrives with only its id, chat and date):
    /// its chat is the one that tapped.
    pub message: Option<Message>,
    pub data: Option<String>,
}

/// A message by its id: the one `sendMessage` made, or the one a reply answers.
#[derive(Debug, Deserialize)]
pub struct Sent {
    pub message_id: i32,
}

/// The bot, as `getMe` describes it.
#[derive(Debug, Deserialize)]
pub struct Me {
    pub username: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_read_as_telegram_sends_them() {
        let tap: Update = serde_json::from_value(serde_json::json!({
            "update_id": 9,
            "callback_query": {
                "id": "42", "from": {"id": 7, "is_bot": false, "first_name": "Me"},
                "chat_instance": "1", "data": "h1:x:0:s",
                "message": {"message_id": 3, "date": 0, "chat": {"id": 7, "type": "private"}}
            }
        }))
        .unwrap();
        let query = tap.callback_query.unwrap();
        assert_eq!(query.message.unwrap().chat.id, 7);
        let said: Update = serde_json::from_value(serde_json::json!({
            "update_id": 10,
            "message": {
                "message_id": 4, "date": 1, "text": "hi",
                "chat": {"id": -100, "type": "group", "title": "Team"},
                "from": {"id": 7, "is_bot": false, "first_name": "Me"},
                "reply_to_message": {"message_id": 3, "date": 0, "chat": {"id": -100, "type": "group"}},
                "sticker": {"whatever": true}
            }
        }))
        .unwrap();
        let message = said.message.unwrap();
        assert_eq!(
            (
                message.chat.kind.as_str(),
                message.reply_to_message.unwrap().message_id
            ),
            ("group", 3)
        );
    }
}
