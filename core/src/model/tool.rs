//! What an agent gets back, through the MCP tools and `hark ask --json`: the outcome of a
//! question in a shape a model reads at a glance, and its one-line text form.

use super::{
    AnswerImage, PersonMessage, QuestionId, Status, SubQuestion, WaitResult, for_the_agent,
};
use serde::{Deserialize, Serialize};

/// The result of `ask_user` and `get_answer`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AskOutcome {
    /// "answered"; "declined" (the person skipped it, maybe with a note); "timeout" (nobody
    /// answered in time); "cancelled" (withdrawn); or "pending" (not answered yet: call
    /// get_answer with `id` to keep waiting).
    pub status: Status,
    /// One entry per question, in the order asked; empty unless answered.
    pub answers: Vec<AnsweredQuestion>,
    /// The person's note when they skipped the question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The question's id; pass it to get_answer while the status is "pending".
    pub id: QuestionId,
    /// Messages the person sent you while you worked, oldest first: they may change what you
    /// should do next.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<PersonMessage>,
}

/// One question and what the person chose or wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AnsweredQuestion {
    /// The question as asked.
    pub question: String,
    /// Labels of the options picked, verbatim.
    pub selected: Vec<String>,
    /// What the person typed in "Other", verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_text: Option<String>,
    /// Images the person attached; in an MCP result their bytes come as image content blocks,
    /// in the same order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<AnswerImage>,
}

/// `get_answer`'s input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GetAnswerRequest {
    /// The id from a "pending" result of ask_user or get_answer.
    pub id: QuestionId,
    /// How long to wait this time, in seconds (optional; the shim caps it at its own limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_secs: Option<u64>,
}

impl AskOutcome {
    /// The outcome of a closed question, with the messages its wait brought along.
    pub fn closed(id: QuestionId, questions: &[SubQuestion], result: WaitResult) -> Self {
        let answers = result
            .answers
            .unwrap_or_default()
            .into_iter()
            .zip(questions)
            .map(|(answer, sub)| AnsweredQuestion {
                question: sub.question.clone(),
                selected: answer.selected,
                free_text: answer.free_text,
                images: answer.images,
            })
            .collect();
        Self {
            status: result.status,
            answers,
            note: result.note,
            id,
            messages: result.messages.iter().map(PersonMessage::from).collect(),
        }
    }

    /// A question still open when the shim had to return.
    pub fn pending(id: QuestionId) -> Self {
        Self {
            status: Status::Pending,
            answers: Vec::new(),
            note: None,
            id,
            messages: Vec::new(),
        }
    }

    /// The outcome without the images' bytes (they travel as content blocks of their own).
    pub fn without_image_data(&self) -> Self {
        let mut outcome = self.clone();
        for image in outcome
            .answers
            .iter_mut()
            .flat_map(|answer| answer.images.iter_mut())
        {
            image.data = None;
        }
        outcome
    }

    /// Every image with its bytes, in the order asked.
    pub fn images(&self) -> impl Iterator<Item = &AnswerImage> {
        self.answers.iter().flat_map(|answer| answer.images.iter())
    }

    /// The text block: the chosen label(s) or free text for a single simple answer, compact
    /// JSON of the answers for anything richer, or a plain sentence for the other outcomes;
    /// then the person's messages, if any.
    pub fn text(&self) -> String {
        let outcome = self.outcome_text();
        match for_the_agent(&self.messages) {
            Some(messages) => format!("{outcome}\n\n{messages}"),
            None => outcome,
        }
    }

    fn outcome_text(&self) -> String {
        match self.status {
            Status::Answered => {
                let answer = match self.answers.as_slice() {
                    [only] if only.images.is_empty() && only.free_text.is_none() => {
                        only.selected.join(", ")
                    }
                    [only] if only.images.is_empty() && only.selected.is_empty() => {
                        only.free_text.clone().unwrap_or_default()
                    }
                    _ => serde_json::to_string(&self.without_image_data().answers)
                        .unwrap_or_default(),
                };
                if self.note.as_deref().and_then(super::DaemonNote::of)
                    == Some(super::DaemonNote::ChosenByTimeout)
                {
                    format!(
                        "{answer}\n\n(Nobody answered before the time limit: this is the \
                         recommended option, chosen automatically.)"
                    )
                } else {
                    answer
                }
            }
            Status::Declined => match &self.note {
                Some(note) => format!("The person skipped this question. Their note: {note}"),
                None => "The person skipped this question without a note.".to_string(),
            },
            Status::Timeout => "Nobody answered before the time limit.".to_string(),
            Status::Cancelled => "The question was withdrawn before anyone answered.".to_string(),
            Status::Pending => format!(
                "The person has not answered yet; the question stays open on their screen. \
                 Call get_answer with id \"{}\" to keep waiting for the answer.",
                self.id
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SubQuestionAnswer;

    fn outcome(answers: Vec<SubQuestionAnswer>, questions: usize) -> AskOutcome {
        let subs: Vec<_> = (0..questions)
            .map(|i| SubQuestion::text(format!("Q{i}")))
            .collect();
        AskOutcome::closed(
            QuestionId::new_random(),
            &subs,
            WaitResult {
                status: Status::Answered,
                answers: Some(answers),
                note: None,
                messages: Vec::new(),
            },
        )
    }

    fn answer(selected: &[&str], free_text: Option<&str>) -> SubQuestionAnswer {
        SubQuestionAnswer {
            selected: selected.iter().map(|s| s.to_string()).collect(),
            free_text: free_text.map(str::to_string),
            images: Vec::new(),
        }
    }

    #[test]
    fn a_single_simple_answer_is_its_labels_or_text() {
        assert_eq!(outcome(vec![answer(&["Yes"], None)], 1).text(), "Yes");
        assert_eq!(outcome(vec![answer(&["A", "B"], None)], 1).text(), "A, B");
        assert_eq!(outcome(vec![answer(&[], Some("mine"))], 1).text(), "mine");
    }

    #[test]
    fn richer_answers_are_compact_json_with_the_question() {
        let text = outcome(vec![answer(&["A"], Some("and more"))], 1).text();
        assert_eq!(
            text,
            r#"[{"question":"Q0","selected":["A"],"freeText":"and more"}]"#
        );
        let two = outcome(vec![answer(&["A"], None), answer(&[], Some("x"))], 2);
        assert!(two.text().starts_with(r#"[{"question":"Q0""#));
    }

    #[test]
    fn images_make_the_text_json_without_their_bytes() {
        let mut with_image = answer(&["A"], None);
        with_image.images.push(AnswerImage {
            media_type: "image/png".into(),
            data: Some("iVBORw0KGgo=".into()),
            size: 8,
        });
        let outcome = outcome(vec![with_image], 1);
        assert_eq!(
            outcome.text(),
            r#"[{"question":"Q0","selected":["A"],"images":[{"mediaType":"image/png","size":8}]}]"#
        );
        assert_eq!(outcome.images().count(), 1);
        assert!(outcome.images().all(|image| image.data.is_some()));
        assert!(
            outcome
                .without_image_data()
                .images()
                .all(|image| image.data.is_none())
        );
    }

    #[test]
    fn the_persons_messages_follow_the_answer() {
        let mut answered = outcome(vec![answer(&["Yes"], None)], 1);
        answered.messages.push(PersonMessage {
            text: "use the staging database".into(),
            sent_at: chrono::DateTime::from_timestamp(0, 0).unwrap(),
        });
        let text = answered.text();
        assert!(text.starts_with("Yes\n\nThe person sent you a message"));
        assert!(text.ends_with("use the staging database"));
        let json = serde_json::to_value(&answered).unwrap();
        assert_eq!(json["messages"][0]["text"], "use the staging database");
        assert!(
            serde_json::to_value(AskOutcome::pending(answered.id))
                .unwrap()
                .get("messages")
                .is_none()
        );
    }

    #[test]
    fn other_outcomes_are_sentences() {
        let id = QuestionId::new_random();
        let declined = AskOutcome::closed(
            id,
            &[],
            WaitResult {
                status: Status::Declined,
                answers: None,
                note: Some("not today".into()),
                messages: Vec::new(),
            },
        );
        assert!(declined.text().contains("not today"));
        assert!(AskOutcome::pending(id).text().contains(&id.to_string()));
        let json = serde_json::to_value(AskOutcome::pending(id)).unwrap();
        assert_eq!(json["status"], "pending");
        assert_eq!(json["answers"], serde_json::json!([]));
    }
}
