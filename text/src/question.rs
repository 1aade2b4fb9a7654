//! A question in the few words a list, a push, a chat message or an export shows: its
//! headline and its name, an answer in a line, how it ended, and its status. One rendering,
//! shown the same by the page, the channels, notifications and exports.

#[cfg(feature = "server")]
use crate::markdown::one_line;
use crate::{Lang, t_in};
use hark_core::model::{Question, Status, SubQuestionAnswer};

#[cfg(feature = "server")]
/// The headline of a question in a list, as one plain line: its title, else its first
/// question.
pub fn headline(question: &Question) -> String {
    one_line(question.headline())
}

#[cfg(feature = "server")]
/// Under a title, the first question as one plain line: a title alone rarely says what is
/// asked. None when there is no title (the headline is that question already).
pub fn first_question(question: &Question) -> Option<String> {
    question
        .title
        .as_ref()
        .filter(|title| !title.trim().is_empty())
        .and_then(|_| question.questions.first())
        .map(|sub| one_line(&sub.question))
}

/// What a question is called: the request's title, else its first question's header (trimmed,
/// when not blank).
pub fn name<'a>(question: &'a Question) -> Option<&'a str> {
    let named = |text: Option<&'a str>| text.map(str::trim).filter(|name| !name.is_empty());
    named(question.title.as_deref()).or_else(|| {
        named(
            question
                .questions
                .first()
                .and_then(|sub| sub.header.as_deref()),
        )
    })
}

/// One answer in a line, in `lang`: the options picked, the person's words, and how many images
/// came.
pub fn answer_line(lang: Lang, answer: &SubQuestionAnswer) -> String {
    let mut parts = answer.selected.clone();
    parts.extend(answer.free_text.clone());
    if !answer.images.is_empty() {
        let count = answer.images.len() as u32;
        parts.push(t_in(lang, "answer-images", &[("count", count.into())]));
    }
    parts.join(", ")
}

/// Every answer of `question` in one line, one part per sub-question.
pub fn answers_line(lang: Lang, question: &Question) -> String {
    question
        .answers
        .iter()
        .flatten()
        .map(|answer| answer_line(lang, answer))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// How `question` ended, in a sentence ("Answered: Yes", "Skipped"); empty while it waits.
pub fn outcome(lang: Lang, question: &Question) -> String {
    match question.status {
        Status::Answered => t_in(
            lang,
            "outcome-answered",
            &[("answer", answers_line(lang, question).into())],
        ),
        Status::Declined => t_in(lang, "outcome-declined", &[]),
        Status::Timeout => t_in(lang, "outcome-timeout", &[]),
        Status::Cancelled => t_in(lang, "outcome-cancelled", &[]),
        Status::Pending => String::new(),
    }
}

/// How `question` ended, as a chat app says it under the question: its mark (✅ ⏭ ⌛ ✖️) and
/// the outcome in a sentence; a skip with a note gives the note (as `shorten` leaves it).
#[cfg(feature = "server")]
pub fn ending(
    lang: Lang,
    question: &Question,
    shorten: impl Fn(&str) -> String,
) -> (&'static str, String) {
    match (question.status, question.note.as_deref()) {
        (Status::Declined, Some(note)) => (
            "⏭",
            t_in(
                lang,
                "chat-declined-note",
                &[("note", shorten(note).into())],
            ),
        ),
        (status, _) => (mark(status), outcome(lang, question)),
    }
}

/// The mark a chat app puts before how a question ended.
#[cfg(feature = "server")]
pub fn mark(status: Status) -> &'static str {
    match status {
        Status::Answered => "✅",
        Status::Declined => "⏭",
        Status::Timeout => "⌛",
        Status::Cancelled | Status::Pending => "✖️",
    }
}

/// What `question` asked, each sub-question under its header (when it has one), a blank line
/// between them: plain text, for an app that shows it as written.
#[cfg(feature = "server")]
pub fn asked(question: &Question) -> String {
    question
        .questions
        .iter()
        .map(
            |sub| match sub.header.as_deref().filter(|h| !h.trim().is_empty()) {
                Some(header) => format!("{}\n{}", header.trim(), sub.question.trim()),
                None => sub.question.trim().to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Where a chat channel is in a question of several sub-questions, and the sub-question's
/// header: "Question 2 of 3 · Deploy"; empty for a lone sub-question without a header.
#[cfg(feature = "server")]
pub fn step_label(lang: Lang, question: &Question, step: usize) -> String {
    let mut label = String::new();
    let count = question.questions.len();
    if count > 1 {
        label = t_in(
            lang,
            "chat-step",
            &[("step", (step + 1).into()), ("count", count.into())],
        );
    }
    let header = question
        .questions
        .get(step)
        .and_then(|sub| sub.header.as_deref());
    if let Some(header) = header.map(str::trim).filter(|header| !header.is_empty()) {
        if !label.is_empty() {
            label.push_str(" · ");
        }
        label.push_str(header);
    }
    label
}

/// The Fluent key naming `status`.
pub fn status_key(status: Status) -> &'static str {
    match status {
        Status::Pending => "status-pending",
        Status::Answered => "status-answered",
        Status::Declined => "status-declined",
        Status::Timeout => "status-timeout",
        Status::Cancelled => "status-cancelled",
    }
}

/// The name of `status` in `lang` ("Waiting", "Skipped").
pub fn status_name(lang: Lang, status: Status) -> String {
    t_in(lang, status_key(status), &[])
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;
    use hark_core::model::AnswerImage;

    /// A pending question with these fields (`title`, `questions`).
    fn asked(mut fields: serde_json::Value) -> Question {
        fields["id"] = "6f2b7c1e-0000-4000-8000-000000000001".into();
        fields["status"] = "pending".into();
        fields["createdAt"] = "2026-11-30T08:05:00Z".into();
        serde_json::from_value(fields).unwrap()
    }

    #[test]
    fn a_titled_question_heads_with_its_title_then_its_first_question() {
        let question = asked(serde_json::json!({
            "title": "## Release 2.4\nThe migration **drops** a column.",
            "questions": [{"question": "Run it\nnow?"}, {"question": "Second"}]
        }));
        assert_eq!(
            headline(&question),
            "Release 2.4 The migration drops a column."
        );
        assert_eq!(first_question(&question).as_deref(), Some("Run it now?"));
        let untitled = asked(serde_json::json!({"questions": [{"question": "# Deploy?"}]}));
        assert_eq!(headline(&untitled), "Deploy?");
        assert_eq!(first_question(&untitled), None);
    }

    #[test]
    fn a_question_is_named_by_its_title_else_its_first_header() {
        let headed = asked(serde_json::json!({
            "title": "  ",
            "questions": [{"question": "q", "header": " Deploy "}]
        }));
        assert_eq!(name(&headed), Some("Deploy"));
        let bare = asked(serde_json::json!({"questions": [{"question": "q"}]}));
        assert_eq!(name(&bare), None);
    }

    #[test]
    fn answers_and_outcomes_read_in_the_language() {
        let mut question = asked(serde_json::json!({
            "questions": [{"question": "a"}, {"question": "b"}]
        }));
        question.status = Status::Answered;
        question.answers = Some(vec![
            SubQuestionAnswer {
                selected: vec!["Yes".into()],
                free_text: Some("carefully".into()),
                ..SubQuestionAnswer::default()
            },
            SubQuestionAnswer {
                images: vec![AnswerImage::default(), AnswerImage::default()],
                ..SubQuestionAnswer::default()
            },
        ]);
        assert_eq!(
            outcome(Lang::En, &question),
            "Answered: Yes, carefully · 2 images"
        );
        question.status = Status::Declined;
        assert_eq!(outcome(Lang::Ru, &question), "Пропущено");
        assert_eq!(status_name(Lang::Ja, Status::Pending), "回答待ち");
        question.status = Status::Pending;
        assert_eq!(outcome(Lang::En, &question), "");
    }
}
