//! An item the daemon sends as the page holds it: the part every page reads at once (its
//! brief: a `PageConfig`, a `QuestionBrief`, a `MessageBrief`), beside the item's whole text,
//! read whole only by the pages that show more (the settings, a question's page, the agents
//! page), each in its own module. So the first view's WebAssembly carries no reader of a whole
//! config (issue 30), question or message (issue 48), nor of the JSON a chat app refuses with
//! (`KeptRefusal`, in a `Failure`). The browser gets each item already parsed (`crate::json`)
//! and keeps its text by `JSON.stringify` (`browser`).

#[cfg_attr(not(feature = "hydrate"), path = "sent/headless.rs")]
mod browser;

use hark_core::model::{AgentMessage, Config, MessageBrief, PageConfig, Question, QuestionBrief};
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny};
use serde::ser::{Serialize, Serializer};
use std::marker::PhantomData;
use std::sync::Arc;

/// One item as sent: its `Brief` (what `Deref` gives), and its text, which reads as a `Whole`.
pub struct Sent<Brief, Whole> {
    brief: Brief,
    text: Arc<str>,
    whole: PhantomData<fn() -> Whole>,
}

/// The config of `init` and `config:updated`.
pub type LiveConfig = Sent<PageConfig, Config>;
/// A question of `init` and the `question:` events.
pub type LiveQuestion = Sent<QuestionBrief, Question>;
/// A message for an agent, of `init` and the `message:` events.
pub type LiveMessage = Sent<MessageBrief, AgentMessage>;
/// A chat app's own refusal of an action (`ActionRefusal::refusal`), which only the settings
/// part of that app reads, to word it.
pub type KeptRefusal = Sent<IgnoredAny, serde_json::Value>;

impl<Brief, Whole: DeserializeOwned> Sent<Brief, Whole> {
    /// The whole item as the daemon sent it; `None` when it does not read as one, which the
    /// daemon, sending a `Whole`, never does.
    pub fn whole(&self) -> Option<Whole> {
        self.read()
    }
}

impl<Brief: DeserializeOwned, Whole: Serialize> Sent<Brief, Whole> {
    /// `whole` as the page will hold it once sent; `None` when it has no JSON form.
    pub fn of(whole: &Whole) -> Option<Self> {
        let text = crate::json::write(whole).ok()?;
        Some(Self {
            brief: crate::json::read(&text).ok()?,
            text: Arc::from(text),
            whole: PhantomData,
        })
    }
}

impl<Brief, Whole> Sent<Brief, Whole> {
    /// The item read as a `T`, which knows more of it than `Whole` says (a chat app's settings
    /// part reads its own kind of refusal); `None` when it is not one.
    pub fn read<T: DeserializeOwned>(&self) -> Option<T> {
        crate::json::read(&self.text).ok()
    }

    /// The brief alone.
    pub fn into_brief(self) -> Brief {
        self.brief
    }
}

impl<Brief, Whole> std::ops::Deref for Sent<Brief, Whole> {
    type Target = Brief;

    fn deref(&self) -> &Brief {
        &self.brief
    }
}

impl<'de, Brief: DeserializeOwned, Whole> Deserialize<'de> for Sent<Brief, Whole> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (brief, text) = browser::read(deserializer)?;
        Ok(Self {
            brief,
            text,
            whole: PhantomData,
        })
    }
}

/// Written as it was sent.
impl<Brief, Whole> Serialize for Sent<Brief, Whole> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        browser::write(&self.text, serializer)
    }
}

// By hand: derived, they would ask the same of `Whole`, which is never held.
impl<Brief: Clone, Whole> Clone for Sent<Brief, Whole> {
    fn clone(&self) -> Self {
        Self {
            brief: self.brief.clone(),
            text: self.text.clone(),
            whole: PhantomData,
        }
    }
}

impl<Brief: PartialEq, Whole> PartialEq for Sent<Brief, Whole> {
    fn eq(&self, other: &Self) -> bool {
        self.brief == other.brief && self.text == other.text
    }
}

impl<Brief: std::fmt::Debug, Whole> std::fmt::Debug for Sent<Brief, Whole> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Sent")
            .field("brief", &self.brief)
            .field("text", &self.text)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::PageEvent;
    use hark_core::model::{Event, InitData};

    #[test]
    fn the_page_reads_what_answering_needs_and_keeps_the_whole_config_for_settings() {
        let config = Config {
            sound: false,
            timeout_secs: 90,
            presets: vec!["Go on".into()],
            ..Config::default()
        };
        let sent: Event = Event::Init(InitData {
            questions: vec![],
            config: config.clone(),
            messages: vec![],
            sessions: vec![],
        });
        let text = serde_json::to_string(&sent).unwrap();
        let Ok(Event::Init(init)) = crate::json::read::<PageEvent>(&text) else {
            panic!("{text}");
        };
        assert_eq!(*init.config, PageConfig::from(&config));
        assert_eq!(init.config.whole(), Some(config));
    }

    #[test]
    fn the_page_reads_a_question_brief_and_keeps_the_whole_question_for_its_page() {
        let question: Question = serde_json::from_value(serde_json::json!({
            "id": hark_core::model::QuestionId::new_random(), "status": "answered",
            "createdAt": "2026-12-05T10:00:00Z", "title": "Release",
            "questions": [{"question": "Ship it?", "options": [{"label": "Yes"}]}],
            "answers": [{"selected": ["Yes"], "freeText": "And tag it"}]
        }))
        .unwrap();
        let text =
            serde_json::to_string(&Event::<Config>::QuestionCreated(question.clone())).unwrap();
        let Ok(Event::QuestionCreated(read)) = crate::json::read::<PageEvent>(&text) else {
            panic!("{text}");
        };
        assert_eq!(*read, QuestionBrief::from(&question));
        assert_eq!(read.headline, "Release");
        assert_eq!(read.whole(), Some(question));
    }

    #[test]
    fn a_chat_apps_refusal_travels_in_a_failure_as_sent_and_reads_as_its_own_kind() {
        use crate::failure::Failure;
        use hark_core::model::channels::wechat::WechatRefusal;
        use hark_core::model::{ActionRefusal, ChannelName, ErrorBody};
        let refusal = WechatRefusal::Unreachable {
            reason: "timed out".into(),
        };
        let failure = Failure::channel_refused(
            ChannelName::Wechat,
            ActionRefusal {
                status: 502,
                body: ErrorBody::new("WeChat could not be reached: timed out"),
                refusal: Some(Box::new(serde_json::to_value(&refusal).unwrap())),
            },
        );
        let text = crate::json::write(&failure).unwrap();
        assert!(
            text.contains(r#""refusal":{"refusal":"unreachable","reason":"timed out"}"#),
            "{text}"
        );
        let read: Failure = crate::json::read(&text).unwrap();
        assert_eq!(read, failure);
        let Failure::ChannelRefused { refusal: read, .. } = read else {
            panic!("{text}");
        };
        let kept = read.refusal.expect("the app's own refusal");
        assert_eq!(kept.read::<WechatRefusal>(), Some(refusal));
        // Read as another app's kind, it is none.
        assert_eq!(kept.read::<hark_core::model::ErrorBody>(), None);
    }

    #[test]
    fn a_config_that_is_not_one_is_refused() {
        let text = r#"{"event": "config:updated", "data": {"sound": "loud"}}"#;
        let error = crate::json::read::<PageEvent>(text).unwrap_err();
        assert!(error.to_string().contains("invalid type"), "{error}");
    }

    #[test]
    fn a_question_without_a_status_is_refused_by_name() {
        let id = hark_core::model::QuestionId::new_random();
        let text = format!(r#"{{"event": "question:created", "data": {{"id": "{id}"}}}}"#);
        let error = crate::json::read::<PageEvent>(&text).unwrap_err();
        assert!(error.to_string().contains("`status`"), "{error}");
    }
}
