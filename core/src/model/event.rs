//! The WebSocket events of SPEC §3, one tagged enum so that sender and receiver share a type.

use super::{AgentMessage, Config, Question, QuestionId};
use serde::{Deserialize, Serialize};

/// One message on `/api/ws`: `{"event": "question:created", "data": {…}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", content = "data")]
pub enum Event {
    /// Sent on connect and after a lagged stream: the whole state to rebuild from.
    #[serde(rename = "init")]
    Init(InitData),
    #[serde(rename = "question:created")]
    QuestionCreated(Question),
    #[serde(rename = "question:answered")]
    QuestionAnswered(Question),
    /// Declined, timed out or cancelled; the question's status says which.
    #[serde(rename = "question:closed")]
    QuestionClosed(Question),
    /// A pending question changed without closing: its agent stopped waiting, or came back.
    #[serde(rename = "question:updated")]
    QuestionUpdated(Question),
    /// Questions still pending after `remindSecs`, batched per tick.
    #[serde(rename = "question:remind")]
    QuestionRemind(RemindData),
    #[serde(rename = "config:updated")]
    ConfigUpdated(Config),
    /// A message for an agent was written (SPEC §18); it waits for the agent.
    #[serde(rename = "message:created")]
    MessageCreated(AgentMessage),
    /// The agent has had the message.
    #[serde(rename = "message:delivered")]
    MessageDelivered(AgentMessage),
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
#[serde(rename_all = "camelCase")]
pub struct InitData {
    pub questions: Vec<Question>,
    pub config: Config,
    /// The messages for agents, newest first.
    #[serde(default)]
    pub messages: Vec<AgentMessage>,
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
    use serde_json::json;

    #[test]
    fn the_page_says_typing_with_the_question_id() {
        let id = QuestionId::new_random();
        let said = PageSays::Typing { id };
        let json = json!({"say": "typing", "id": id});
        assert_eq!(serde_json::to_value(&said).unwrap(), json);
        assert_eq!(serde_json::from_value::<PageSays>(json).unwrap(), said);
    }

    #[test]
    fn events_use_the_seed_wire_names() {
        let event = Event::QuestionRemind(RemindData { ids: vec![] });
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
