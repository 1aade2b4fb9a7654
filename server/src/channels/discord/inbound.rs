//! Gateway dispatches read into the engine's inbounds (Discord's "Interactions" and "Message"
//! objects): `INTERACTION_CREATE` of a component (a button, or what a select menu holds now)
//! or of a modal submission (in either of Discord's shapes: action rows, or the newer labels),
//! and `MESSAGE_CREATE` in a direct message. Guild messages, bots' messages and the bot's own
//! are left out.

use super::{Interaction as Answer, render};
use crate::channels::chat::{Inbound, Said, Target};
use crate::channels::walk::Callback;
use crate::channels::walk::shown::WindowFor;
use serde::Deserialize;

#[derive(Deserialize)]
struct User {
    id: String,
    #[serde(default)]
    bot: bool,
}

#[derive(Deserialize)]
struct Member {
    user: User,
}

#[derive(Deserialize)]
pub struct Interaction {
    id: String,
    token: String,
    #[serde(rename = "type")]
    kind: u8,
    user: Option<User>,
    member: Option<Member>,
    #[serde(default)]
    data: Data,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Data {
    custom_id: String,
    values: Vec<String>,
    components: Vec<Row>,
}

/// A modal's row: an action row of inputs, or a label holding one.
#[derive(Deserialize)]
struct Row {
    #[serde(default)]
    components: Vec<TextInput>,
    component: Option<TextInput>,
}

#[derive(Deserialize)]
struct TextInput {
    #[serde(default)]
    custom_id: String,
    value: Option<String>,
}

#[derive(Deserialize)]
pub struct Message {
    id: String,
    guild_id: Option<String>,
    author: User,
    channel_id: String,
    #[serde(default)]
    content: String,
    message_reference: Option<Reference>,
}

#[derive(Deserialize)]
struct Reference {
    message_id: Option<String>,
}

/// An interaction as an inbound; `None` for one that is not Hark's.
pub fn interaction(interaction: Interaction) -> Option<Inbound<Option<Answer>>> {
    let from = interaction
        .user
        .or(interaction.member.map(|member| member.user))?
        .id;
    let responder = Some(Answer {
        id: interaction.id,
        token: interaction.token,
    });
    let data = interaction.data;
    match interaction.kind {
        // A component: a select menu, or a button.
        3 => {
            if let Some((id, step, offset)) = render::read_select_id(&data.custom_id) {
                return Some(Inbound::Ticked {
                    from,
                    on: Target::Question(id),
                    step,
                    within: Some(offset..offset + 25),
                    ticked: data
                        .values
                        .iter()
                        .filter_map(|value| value.parse().ok())
                        .collect(),
                    responder,
                });
            }
            Some(Inbound::Tap {
                from,
                callback: Callback::decode(&data.custom_id)?,
                responder,
            })
        }
        // A modal submission.
        5 => {
            let window = WindowFor::decode(&data.custom_id)?;
            let text = data
                .components
                .into_iter()
                .flat_map(|row| row.components.into_iter().chain(row.component))
                .find(|input| input.custom_id == render::MODAL_INPUT)
                .and_then(|input| input.value)
                .unwrap_or_default();
            Some(Inbound::Words {
                from,
                id: window.id,
                step: window.step,
                awaiting: window.awaiting,
                text,
                responder,
            })
        }
        _ => None,
    }
}

/// A direct message to the bot as an inbound; `None` for any other (`bot_user` is the bot).
pub fn message(message: Message, bot_user: Option<&str>) -> Option<Inbound<Option<Answer>>> {
    if message.guild_id.is_some()
        || message.author.bot
        || bot_user == Some(message.author.id.as_str())
    {
        return None;
    }
    Some(Inbound::Said(Said {
        id: Some(message.id),
        private: true,
        written: None,
        from: message.author.id,
        at: message.channel_id,
        text: message.content,
        replying_to: message
            .message_reference
            .and_then(|reference| reference.message_id),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_modal_submission_reads_its_words_in_either_shape() {
        let id = hark_core::model::QuestionId::new_random();
        let window = WindowFor {
            id,
            step: 1,
            awaiting: crate::channels::walk::Awaiting::SkipNote,
        };
        let custom_id = window.encode();
        for components in [
            json!([{"type": 1, "components": [{"custom_id": "text", "value": "not now"}]}]),
            json!([{"type": 18, "component": {"custom_id": "text", "value": "not now"}}]),
        ] {
            let read: Interaction = serde_json::from_value(json!({"id": "1", "token": "t",
                "type": 5, "member": {"user": {"id": "U"}},
                "data": {"custom_id": custom_id, "components": components}}))
            .unwrap();
            let Some(Inbound::Words {
                from, text, step, ..
            }) = interaction(read)
            else {
                panic!("not words");
            };
            assert_eq!((from.as_str(), text.as_str(), step), ("U", "not now", 1));
        }
    }

    #[test]
    fn only_direct_messages_from_people_are_said() {
        let read = |value: serde_json::Value| {
            message(serde_json::from_value(value).unwrap(), Some("BOT")).is_some()
        };
        assert!(read(
            json!({"id": "1", "author": {"id": "U"}, "channel_id": "D", "content": "hi"})
        ));
        assert!(!read(
            json!({"id": "2", "author": {"id": "U"}, "channel_id": "C", "guild_id": "G"})
        ));
        assert!(!read(
            json!({"id": "3", "author": {"id": "X", "bot": true}, "channel_id": "D"})
        ));
        assert!(!read(
            json!({"id": "4", "author": {"id": "BOT"}, "channel_id": "D"})
        ));
    }
}
