//! What comes over the Socket Mode link, read into the engine's inbounds: `block_actions` (a
//! button, or what a step's checkboxes or menu hold now), `view_submission` (the words of the
//! "Other…" and "Skip" modal) and `event_callback` with a direct message to the bot (Slack's
//! "Interactivity payloads" and the `message.im` event). The bot's own messages, edits and
//! other subtypes, and anything else, are left out.

use super::render;
use crate::channels::chat::{Inbound, Said, Target};
use crate::channels::walk::Callback;
use crate::channels::walk::shown::WindowFor;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Payload {
    BlockActions {
        user: User,
        #[serde(default)]
        trigger_id: String,
        #[serde(default)]
        container: Container,
        #[serde(default)]
        actions: Vec<Action>,
    },
    ViewSubmission {
        user: User,
        view: View,
    },
    EventCallback {
        event: Event,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct User {
    id: String,
}

#[derive(Deserialize, Default)]
struct Container {
    message_ts: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Action {
    action_id: String,
    block_id: String,
    value: Option<String>,
    selected_options: Vec<Selected>,
}

#[derive(Deserialize)]
struct Selected {
    value: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct View {
    callback_id: String,
    private_metadata: String,
    state: State,
}

#[derive(Deserialize, Default)]
struct State {
    /// Input values by block id, then by action id.
    #[serde(default)]
    values: BTreeMap<String, BTreeMap<String, Input>>,
}

#[derive(Deserialize)]
struct Input {
    value: Option<String>,
}

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    channel_type: Option<String>,
    subtype: Option<String>,
    bot_id: Option<String>,
    user: Option<String>,
    channel: Option<String>,
    text: Option<String>,
    thread_ts: Option<String>,
}

/// `payload` as an inbound for the engine; `None` for what is not one (or is the bot's own,
/// `bot_user`).
pub fn read(payload: serde_json::Value, bot_user: Option<&str>) -> Option<Inbound<String>> {
    match serde_json::from_value(payload).ok()? {
        Payload::BlockActions {
            user,
            trigger_id,
            container,
            actions,
        } => {
            let action = actions.into_iter().next()?;
            if action.action_id == "tick" {
                // The block id names the step it was drawn for (`render::controls`).
                let (step, _) = action.block_id.strip_prefix('h')?.split_once('-')?;
                return Some(Inbound::Ticked {
                    from: user.id,
                    on: Target::Message(container.message_ts?),
                    step: step.parse().ok()?,
                    within: None,
                    ticked: action
                        .selected_options
                        .iter()
                        .filter_map(|option| option.value.parse().ok())
                        .collect(),
                    responder: trigger_id,
                });
            }
            Some(Inbound::Tap {
                from: user.id,
                callback: Callback::decode(action.value.as_deref()?)?,
                responder: trigger_id,
            })
        }
        Payload::ViewSubmission { user, view } => {
            if view.callback_id != render::MODAL {
                return None;
            }
            let window = WindowFor::decode(&view.private_metadata)?;
            let text = view
                .state
                .values
                .get(render::MODAL_BLOCK)
                .and_then(|block| block.get(render::MODAL_ACTION))
                .and_then(|input| input.value.clone())
                .unwrap_or_default();
            Some(Inbound::Words {
                from: user.id,
                id: window.id,
                step: window.step,
                awaiting: window.awaiting,
                text,
                responder: String::new(),
            })
        }
        Payload::EventCallback { event } => {
            if event.kind != "message"
                || event.channel_type.as_deref() != Some("im")
                || event.subtype.is_some()
                || event.bot_id.is_some()
            {
                return None;
            }
            let from = event.user?;
            if bot_user == Some(from.as_str()) {
                return None;
            }
            Some(Inbound::Said(Said {
                // Slack's retries are told apart by their `event_id`, on the link.
                private: true,
                written: None,
                id: None,
                from,
                at: event.channel?,
                text: event.text.unwrap_or_default(),
                replying_to: event.thread_ts,
            }))
        }
        Payload::Other => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_direct_message_is_said_and_the_bots_own_are_not() {
        let message = json!({"type": "event_callback", "event": {"type": "message",
            "channel_type": "im", "user": "U1", "channel": "D1", "text": "tell hi",
            "thread_ts": "1.2"}});
        let Some(Inbound::Said(Said {
            from,
            at,
            text,
            replying_to,
            ..
        })) = read(message.clone(), Some("UBOT"))
        else {
            panic!("not said");
        };
        assert_eq!(
            (from.as_str(), at.as_str(), text.as_str()),
            ("U1", "D1", "tell hi")
        );
        assert_eq!(replying_to.as_deref(), Some("1.2"));
        assert!(read(message, Some("U1")).is_none(), "the bot's own");
        let edited = json!({"type": "event_callback", "event": {"type": "message",
            "channel_type": "im", "subtype": "message_changed", "user": "U1", "channel": "D1"}});
        assert!(read(edited, None).is_none());
        assert!(read(json!({"type": "shortcut"}), None).is_none());
    }

    #[test]
    fn ticks_name_their_step_and_message() {
        let tick = json!({"type": "block_actions", "user": {"id": "U1"}, "trigger_id": "T",
            "container": {"message_ts": "9.9"}, "actions": [{"action_id": "tick",
            "block_id": "h2-t.1", "selected_options": [{"value": "0"}, {"value": "3"}]}]});
        let Some(Inbound::Ticked {
            on, step, ticked, ..
        }) = read(tick, None)
        else {
            panic!("not ticked");
        };
        assert_eq!(on, Target::Message("9.9".into()));
        assert_eq!(step, 2);
        assert_eq!(ticked.into_iter().collect::<Vec<_>>(), [0, 3]);
    }
}
