//! What the long connection carries, read into the engine's inbounds (schema 2.0 events):
//! `card.action.trigger` (a button on a card, or one of its forms: the ticked options and own
//! words of "Send", the note of "Skip") and `im.message.receive_v1` with a text written to the
//! bot in a one-to-one chat. Anything else is left out.

use super::render;
use crate::channels::chat::{Inbound, Said};
use crate::channels::walk::{Awaiting, Callback};
use serde::Deserialize;
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct Envelope {
    header: Header,
    #[serde(default)]
    event: serde_json::Value,
}

#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    event_type: String,
}

#[derive(Deserialize)]
struct CardAction {
    operator: OpenIds,
    action: Action,
}

#[derive(Deserialize)]
struct OpenIds {
    open_id: Option<String>,
}

#[derive(Deserialize)]
struct Action {
    #[serde(default)]
    value: ActionValue,
    #[serde(default)]
    form_value: FormValue,
}

/// What Hark put in a button's value: its callback, and which form it submits.
#[derive(Deserialize, Default)]
struct ActionValue {
    h: Option<String>,
    form: Option<String>,
}

#[derive(Deserialize, Default)]
struct FormValue {
    ticked: Option<Vec<String>>,
    words: Option<String>,
    note: Option<String>,
}

#[derive(Deserialize)]
struct MessageReceived {
    sender: Sender,
    message: Message,
}

#[derive(Deserialize)]
struct Sender {
    #[serde(default)]
    sender_type: String,
    sender_id: OpenIds,
}

#[derive(Deserialize)]
struct Message {
    message_id: String,
    #[serde(default)]
    chat_type: String,
    #[serde(default)]
    message_type: String,
    #[serde(default)]
    content: String,
    parent_id: Option<String>,
}

#[derive(Deserialize)]
struct Text {
    #[serde(default)]
    text: String,
}

/// An event as an inbound for the engine; `None` for what is not one.
pub fn read(payload: serde_json::Value) -> Option<Inbound<()>> {
    let envelope: Envelope = serde_json::from_value(payload).ok()?;
    match envelope.header.event_type.as_str() {
        "card.action.trigger" => card_action(serde_json::from_value(envelope.event).ok()?),
        "im.message.receive_v1" => message(serde_json::from_value(envelope.event).ok()?),
        _ => None,
    }
}

fn card_action(event: CardAction) -> Option<Inbound<()>> {
    let from = event.operator.open_id?;
    let callback = Callback::decode(event.action.value.h.as_deref()?)?;
    let form = event.action.form_value;
    Some(match event.action.value.form.as_deref() {
        Some(render::SEND_FORM) => Inbound::Form {
            from,
            id: callback.id,
            step: callback.step,
            ticked: form
                .ticked
                .unwrap_or_default()
                .iter()
                .filter_map(|value| value.parse().ok())
                .collect::<BTreeSet<usize>>(),
            words: form.words.unwrap_or_default(),
            responder: (),
        },
        Some(render::NOTE_FORM) => Inbound::Words {
            from,
            id: callback.id,
            step: callback.step,
            awaiting: Awaiting::SkipNote,
            text: form.note.unwrap_or_default(),
            responder: (),
        },
        _ => Inbound::Tap {
            from,
            callback,
            responder: (),
        },
    })
}

fn message(event: MessageReceived) -> Option<Inbound<()>> {
    let message = event.message;
    if event.sender.sender_type != "user"
        || message.chat_type != "p2p"
        || message.message_type != "text"
    {
        return None;
    }
    let from = event.sender.sender_id.open_id?;
    let text = serde_json::from_str::<Text>(&message.content)
        .map(|content| content.text)
        .unwrap_or_default();
    Some(Inbound::Said(Said {
        id: Some(message.message_id),
        private: true,
        written: None,
        at: from.clone(),
        from,
        text,
        replying_to: message.parent_id.filter(|parent| !parent.is_empty()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_text_in_a_one_to_one_chat_is_said_and_nothing_else_is() {
        let event = |chat: &str, kind: &str| {
            json!({"header": {"event_type": "im.message.receive_v1"}, "event": {
                "sender": {"sender_type": "user", "sender_id": {"open_id": "ou_1"}},
                "message": {"message_id": "om_1", "chat_type": chat, "message_type": kind,
                            "content": "{\"text\":\"tell hi\"}", "parent_id": ""}}})
        };
        let Some(Inbound::Said(Said {
            from,
            text,
            replying_to,
            id,
            ..
        })) = read(event("p2p", "text"))
        else {
            panic!("not said");
        };
        assert_eq!((from.as_str(), text.as_str()), ("ou_1", "tell hi"));
        assert_eq!((replying_to, id.as_deref()), (None, Some("om_1")));
        assert!(read(event("group", "text")).is_none());
        assert!(read(event("p2p", "image")).is_none());
    }

    #[test]
    fn a_cards_send_form_carries_ticks_and_words() {
        let id = hark_core::model::QuestionId::new_random();
        let h = Callback {
            id,
            step: 0,
            tap: crate::channels::walk::Tap::Send,
        }
        .encode();
        let read = read(
            json!({"header": {"event_type": "card.action.trigger"}, "event": {
            "operator": {"open_id": "ou_1"},
            "action": {"value": {"h": h, "form": "send"},
                       "form_value": {"ticked": ["0", "2"], "words": "and docs"}}}}),
        );
        let Some(Inbound::Form { ticked, words, .. }) = read else {
            panic!("not a form");
        };
        assert_eq!(ticked.into_iter().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(words, "and docs");
    }
}
