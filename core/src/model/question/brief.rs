//! A question as a list reads it: what the page's first view takes of each question on the
//! event stream (its id, status and headline), so the readers of a whole question (sub-questions,
//! options, answers, images) stay in the question page's own WebAssembly (issue 48).

use super::{Question, QuestionId, Status};
use serde::Deserialize;

/// A question's id, status and headline, read from a whole question's JSON (the rest is
/// skipped).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(from = "Fields")]
pub struct QuestionBrief {
    pub id: QuestionId,
    pub status: Status,
    /// What names it in a list or a notification (`Question::shown_headline`).
    pub headline: String,
}

impl QuestionBrief {
    /// True while the question can still be answered.
    pub fn is_pending(&self) -> bool {
        self.status == Status::Pending
    }
}

impl From<&Question> for QuestionBrief {
    fn from(question: &Question) -> Self {
        Self {
            id: question.id,
            status: question.status,
            headline: question.shown_headline().to_string(),
        }
    }
}

/// The fields of a whole question that the brief is made from.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fields {
    id: QuestionId,
    status: Status,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    questions: Vec<SubQuestionFields>,
    #[serde(default)]
    shown: Option<ShownFields>,
}

#[derive(Deserialize)]
struct SubQuestionFields {
    question: String,
}

#[derive(Deserialize)]
struct ShownFields {
    headline: String,
}

impl From<Fields> for QuestionBrief {
    fn from(fields: Fields) -> Self {
        let shown = fields.shown.as_ref().map(|shown| shown.headline.as_str());
        let first = fields.questions.first().map(|sub| sub.question.as_str());
        let headline = super::shown_headline_of(shown, fields.title.as_deref(), first);
        Self {
            headline: headline.to_string(),
            id: fields.id,
            status: fields.status,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn question(extra: serde_json::Value) -> Question {
        let mut sent = json!({
            "id": QuestionId::new_random(), "status": "pending",
            "createdAt": "2026-12-05T10:00:00Z",
            "questions": [
                {"question": "**Ship** it?", "options": [{"label": "Yes"}]},
                {"question": "And tag it?", "options": [{"label": "Yes"}]}
            ]
        });
        sent.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        serde_json::from_value(sent).unwrap()
    }

    #[test]
    fn a_brief_reads_of_a_whole_question_what_the_question_itself_says() {
        let cases = [
            question(json!({})),
            question(json!({"title": "Release"})),
            question(json!({"title": "  "})),
            question(json!({"status": "answered", "shown": {"headline": "Ship it?"}})),
        ];
        for whole in cases {
            let read: QuestionBrief =
                serde_json::from_str(&serde_json::to_string(&whole).unwrap()).unwrap();
            assert_eq!(read, QuestionBrief::from(&whole));
        }
        let titled = question(json!({"title": "Release"}));
        assert_eq!(QuestionBrief::from(&titled).headline, "Release");
        let shown = question(json!({"shown": {"headline": "Ship it?"}}));
        assert_eq!(QuestionBrief::from(&shown).headline, "Ship it?");
        assert_eq!(
            QuestionBrief::from(&question(json!({}))).headline,
            "**Ship** it?"
        );
    }

    #[test]
    fn a_brief_without_its_id_or_status_is_refused_by_name() {
        let error = serde_json::from_value::<QuestionBrief>(json!({"status": "pending"}))
            .unwrap_err()
            .to_string();
        assert!(error.contains("`id`"), "{error}");
        let error = serde_json::from_value::<QuestionBrief>(
            json!({"id": QuestionId::new_random(), "status": "eaten"}),
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("eaten"), "{error}");
    }
}
