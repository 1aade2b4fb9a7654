//! The WebSocket events of SPEC §3, one tagged enum so that sender and receiver share a type.
//!
//! An event is read by hand (`Deserialize` below) rather than by serde's derive: the derive
//! accepts `data` before `event`, so it carries a buffered second reading of every payload type,
//! which the page's WebAssembly paid for (issue 30). Every sender, the daemon included, writes
//! the name first.

use super::{AgentMessage, AgentSession, Config, Question, QuestionId};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// One message on `/api/ws`: `{"event": "question:created", "data": {…}}`.
///
/// The daemon sends the whole config (`C`), questions (`Q`) and messages (`M`); a reader may
/// take less of each (the page's first view reads a `PageConfig`'s, a `QuestionBrief`'s and a
/// `MessageBrief`'s worth).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", content = "data")]
pub enum Event<C = Config, Q = Question, M = AgentMessage> {
    /// Sent on connect and after a lagged stream: the whole state to rebuild from.
    #[serde(rename = "init")]
    Init(InitData<C, Q, M>),
    #[serde(rename = "question:created")]
    QuestionCreated(Q),
    #[serde(rename = "question:answered")]
    QuestionAnswered(Q),
    /// Declined, timed out or cancelled; the question's status says which.
    #[serde(rename = "question:closed")]
    QuestionClosed(Q),
    /// A pending question changed without closing: its agent stopped waiting, or came back.
    #[serde(rename = "question:updated")]
    QuestionUpdated(Q),
    /// Questions still pending after `remindSecs`, batched per tick.
    #[serde(rename = "question:remind")]
    QuestionRemind(RemindData),
    #[serde(rename = "config:updated")]
    ConfigUpdated(C),
    /// A message for an agent was written (SPEC §18); it waits for the agent.
    #[serde(rename = "message:created")]
    MessageCreated(M),
    /// The agent has had the message.
    #[serde(rename = "message:delivered")]
    MessageDelivered(M),
    /// An agent session changed state or said something (SPEC §20); `ended` is its last.
    #[serde(rename = "session:updated")]
    SessionUpdated(AgentSession),
}

/// The wire names of the events, as `Serialize` writes them (a test holds the two together).
const EVENT_NAMES: &[&str] = &[
    "init",
    "question:created",
    "question:answered",
    "question:closed",
    "question:updated",
    "question:remind",
    "config:updated",
    "message:created",
    "message:delivered",
    "session:updated",
];

impl<'de, C, Q, M> Deserialize<'de> for Event<C, Q, M>
where
    C: Deserialize<'de>,
    Q: Deserialize<'de>,
    M: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Event<C, Q, M>, D::Error> {
        deserializer.deserialize_map(EventVisitor(PhantomData))
    }
}

struct EventVisitor<C, Q, M>(PhantomData<(C, Q, M)>);

impl<'de, C, Q, M> Visitor<'de> for EventVisitor<C, Q, M>
where
    C: Deserialize<'de>,
    Q: Deserialize<'de>,
    M: Deserialize<'de>,
{
    type Value = Event<C, Q, M>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(r#"an event: {"event": its name, "data": …}, the name first"#)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event<C, Q, M>, A::Error> {
        match map.next_key::<std::borrow::Cow<'de, str>>()?.as_deref() {
            Some("event") => {}
            Some(_) => return Err(de::Error::custom("`event` must come first, then `data`")),
            None => return Err(de::Error::missing_field("event")),
        }
        let name = map.next_value::<std::borrow::Cow<'de, str>>()?;
        match map.next_key::<std::borrow::Cow<'de, str>>()?.as_deref() {
            Some("data") => {}
            Some(_) => return Err(de::Error::custom("`data` must follow `event`")),
            None => return Err(de::Error::missing_field("data")),
        }
        let event = match name.as_ref() {
            "init" => Event::Init(map.next_value()?),
            "question:created" => Event::QuestionCreated(map.next_value()?),
            "question:answered" => Event::QuestionAnswered(map.next_value()?),
            "question:closed" => Event::QuestionClosed(map.next_value()?),
            "question:updated" => Event::QuestionUpdated(map.next_value()?),
            "question:remind" => Event::QuestionRemind(map.next_value()?),
            "config:updated" => Event::ConfigUpdated(map.next_value()?),
            "message:created" => Event::MessageCreated(map.next_value()?),
            "message:delivered" => Event::MessageDelivered(map.next_value()?),
            "session:updated" => Event::SessionUpdated(map.next_value()?),
            other => return Err(de::Error::unknown_variant(other, EVENT_NAMES)),
        };
        // Whatever a later sender adds after the payload is not this reader's.
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(event)
    }
}

/// What the page says on `/api/ws`, which otherwise only listens:
/// `{"say": "typing", "id": "…"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "camelCase")]
pub enum PageSays {
    /// The person is editing an answer to question `id` (said at most every few seconds while
    /// they type): its time limit waits for them (SPEC §18).
    Typing { id: QuestionId },
}

/// The payload of `init`: pending questions and recent history, newest first, the config and
/// the messages for agents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    // Not serde's guess, which asks `Default` of the items of every list with a default.
    bound(deserialize = "C: Deserialize<'de>, Q: Deserialize<'de>, M: Deserialize<'de>")
)]
pub struct InitData<C = Config, Q = Question, M = AgentMessage> {
    pub questions: Vec<Q>,
    pub config: C,
    /// The messages for agents, newest first.
    #[serde(default)]
    pub messages: Vec<M>,
    /// The agent sessions Hark knows, the one heard from last first.
    #[serde(default)]
    pub sessions: Vec<AgentSession>,
}

/// The payload of `question:remind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemindData {
    pub ids: Vec<QuestionId>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MessageBrief, PageConfig, QuestionBrief};
    use serde_json::json;

    #[test]
    fn the_page_says_typing_with_the_question_id() {
        let id = QuestionId::new_random();
        let said = PageSays::Typing { id };
        let json = json!({"say": "typing", "id": id});
        assert_eq!(serde_json::to_value(&said).unwrap(), json);
        assert_eq!(serde_json::from_value::<PageSays>(json).unwrap(), said);
    }

    fn one_of_each() -> Vec<Event> {
        let question: Question = serde_json::from_value(json!({
            "id": QuestionId::new_random(), "status": "pending",
            "createdAt": "2026-12-03T10:00:00Z",
            "questions": [{"question": "Go?", "options": [{"label": "Yes"}]}]
        }))
        .unwrap();
        let message: AgentMessage = serde_json::from_value(json!({
            "id": uuid::Uuid::new_v4(), "to": {"client": "claude-code"}, "text": "hi",
            "status": "waiting", "createdAt": "2026-12-03T10:00:00Z"
        }))
        .unwrap();
        let session: AgentSession = serde_json::from_value(json!({
            "id": "0f3c", "agent": {"client": "claude-code", "cwd": "/w"}, "sessionId": "s1",
            "state": "finished", "since": "2026-12-03T10:00:00Z",
            "seenAt": "2026-12-03T10:00:00Z", "lastMessage": "Done."
        }))
        .unwrap();
        vec![
            Event::Init(InitData {
                questions: vec![question.clone()],
                config: Config::default(),
                messages: vec![message.clone()],
                sessions: vec![session.clone()],
            }),
            Event::QuestionCreated(question.clone()),
            Event::QuestionAnswered(question.clone()),
            Event::QuestionClosed(question.clone()),
            Event::QuestionUpdated(question),
            Event::QuestionRemind(RemindData {
                ids: vec![QuestionId::new_random()],
            }),
            Event::ConfigUpdated(Config::default()),
            Event::MessageCreated(message.clone()),
            Event::MessageDelivered(message),
            Event::SessionUpdated(session),
        ]
    }

    #[test]
    fn every_event_reads_back_as_written_under_its_wire_name() {
        let events = one_of_each();
        assert_eq!(events.len(), EVENT_NAMES.len());
        for (event, name) in events.into_iter().zip(EVENT_NAMES) {
            let text = serde_json::to_string(&event).unwrap();
            assert!(
                text.starts_with(&format!(r#"{{"event":"{name}","data":"#)),
                "{text}"
            );
            assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
        }
    }

    #[test]
    fn an_event_that_is_not_one_says_what_is_wrong() {
        let error = |text: &str| serde_json::from_str::<Event>(text).unwrap_err().to_string();
        assert!(error(r#"{"event": "question:eaten", "data": {}}"#).contains("question:eaten"));
        assert!(
            error(r#"{"data": {"ids": []}, "event": "question:remind"}"#)
                .contains("`event` must come first")
        );
        assert!(error(r#"{}"#).contains("missing field `event`"));
        assert!(error(r#"{"event": "question:remind"}"#).contains("`data`"));
        assert!(error(r#"{"event": "question:remind", "data": {}}"#).contains("`ids`"));
        assert!(error(r#"["question:remind"]"#).contains("the name first"));
        let later: Event =
            serde_json::from_str(r#"{"event": "question:remind", "data": {"ids": []}, "at": 1}"#)
                .unwrap();
        assert_eq!(later, Event::QuestionRemind(RemindData { ids: vec![] }));
    }

    #[test]
    fn a_page_reads_of_the_config_what_it_needs_and_the_rest_of_every_event() {
        let config = Config {
            sound: false,
            presets: vec!["Yes, go on".into()],
            ..Config::default()
        };
        let sent: [Event; 2] = [
            Event::ConfigUpdated(config.clone()),
            Event::Init(InitData {
                questions: vec![],
                config: config.clone(),
                messages: vec![],
                sessions: vec![],
            }),
        ];
        let page = PageConfig::from(&config);
        assert_ne!(page, PageConfig::default());
        for event in sent {
            let read: Event<PageConfig> =
                serde_json::from_str(&serde_json::to_string(&event).unwrap()).unwrap();
            match read {
                Event::ConfigUpdated(read) => assert_eq!(read, page),
                Event::Init(init) => assert_eq!(init.config, page),
                other => panic!("{other:?}"),
            }
        }
        let read: Event<PageConfig> = serde_json::from_str(
            r#"{"event": "init", "data":
            {"questions": [], "config": {}}}"#,
        )
        .unwrap();
        assert!(matches!(read, Event::Init(init) if init.config == PageConfig::default()));
    }

    #[test]
    fn a_first_view_reads_every_event_as_briefs_of_what_it_carries() {
        type Brief = Event<PageConfig, QuestionBrief, MessageBrief>;
        for sent in one_of_each() {
            let text = serde_json::to_string(&sent).unwrap();
            let read: Brief = serde_json::from_str(&text).unwrap();
            match (&sent, read) {
                (Event::Init(whole), Event::Init(brief)) => {
                    let questions: Vec<QuestionBrief> =
                        whole.questions.iter().map(QuestionBrief::from).collect();
                    let messages: Vec<MessageBrief> =
                        whole.messages.iter().map(MessageBrief::from).collect();
                    assert_eq!((brief.questions, brief.messages), (questions, messages));
                    assert_eq!(brief.sessions, whole.sessions);
                }
                (Event::QuestionCreated(whole), Event::QuestionCreated(brief))
                | (Event::QuestionAnswered(whole), Event::QuestionAnswered(brief))
                | (Event::QuestionClosed(whole), Event::QuestionClosed(brief))
                | (Event::QuestionUpdated(whole), Event::QuestionUpdated(brief)) => {
                    assert_eq!(brief, QuestionBrief::from(whole));
                }
                (Event::MessageCreated(whole), Event::MessageCreated(brief))
                | (Event::MessageDelivered(whole), Event::MessageDelivered(brief)) => {
                    assert_eq!(brief, MessageBrief::from(whole));
                }
                (Event::QuestionRemind(whole), Event::QuestionRemind(brief)) => {
                    assert_eq!(brief, *whole)
                }
                (Event::ConfigUpdated(_), Event::ConfigUpdated(_))
                | (Event::SessionUpdated(_), Event::SessionUpdated(_)) => {}
                (sent, read) => panic!("{sent:?} read as {read:?}"),
            }
        }
    }

    #[test]
    fn events_use_the_seed_wire_names() {
        let event: Event = Event::QuestionRemind(RemindData { ids: vec![] });
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({"event": "question:remind", "data": {"ids": []}})
        );
        let parsed: Event =
            serde_json::from_value(json!({"event": "config:updated", "data": {"sound": false,
            "timeoutSecs": 0, "remindSecs": 60, "notification": true, "autoOpenBrowser": true,
            "lan": false, "port": 1, "orphanSecs": 60, "historyDays": 30, "historyMax": 10}}))
            .unwrap();
        assert!(matches!(parsed, Event::ConfigUpdated(config) if !config.sound));
    }
}
