//! A question as WeChat text, in the daemon's language: the title and who asks, the sub-question
//! being answered with its options numbered (descriptions, ⭐ for recommended, ⚠️ for danger),
//! and how to answer by typing; then the follow-up that says how a question ended. Plain text:
//! WeChat shows no markup, so the agent's words go out as written.

use super::Wechat;
use crate::channels::chat::ChatViews;
use crate::channels::walk::{Walk, shown, skip_words};
use hark_core::model::{AnsweredVia, ChannelName, Question, Status};
use hark_text::plain::{cut, cut_chars};
use hark_text::question::{headline, mark, outcome};
use hark_text::{Lang, t_in};
use std::fmt::Write;

use super::ilink::MAX_TEXT_CHARS;

/// A question's text at most, in bytes; with the other parts' own limits, every message stays
/// under WeChat's `MAX_TEXT_CHARS` (a test builds the largest).
const QUESTION_BYTES: usize = 2000;
const LABEL_BYTES: usize = 80;
const DESCRIPTION_BYTES: usize = 160;

/// The sub-question at the walk's step, as one message. `waiting` counts the other questions
/// queued behind it.
pub fn question(lang: Lang, question: &Question, walk: &Walk, waiting: usize) -> String {
    let text = question_text(lang, question, walk, waiting, true);
    if text.chars().count() > MAX_TEXT_CHARS {
        cut_chars(
            &question_text(lang, question, walk, waiting, false),
            MAX_TEXT_CHARS,
        )
    } else {
        text
    }
}

fn question_text(
    lang: Lang,
    question: &Question,
    walk: &Walk,
    waiting: usize,
    descriptions: bool,
) -> String {
    let mut text = String::new();
    if let Some(title) = question.title.as_deref().filter(|t| !t.trim().is_empty()) {
        let _ = writeln!(text, "❓ {}", cut(title.trim(), 256));
    }
    if let Some(source) = question.source_label() {
        let _ = writeln!(text, "{}", cut(&source, 256));
    }
    for (name, answer) in shown::answered(lang, question, walk) {
        let _ = writeln!(text, "✓ {}: {}", cut(&name, 100), cut(&answer, 200));
    }
    if !text.is_empty() {
        text.push('\n');
    }
    let Some(sub) = question.questions.get(walk.step) else {
        return text.trim_end().to_string();
    };
    let label = hark_text::question::step_label(lang, question, walk.step);
    if !label.is_empty() {
        let _ = writeln!(text, "【{}】", cut(&label, 256));
    }
    let limit = QUESTION_BYTES / if descriptions { 1 } else { 2 };
    let _ = writeln!(text, "{}", cut(sub.question.trim(), limit));
    if !sub.options.is_empty() {
        text.push('\n');
    }
    for (number, option) in sub.options.iter().enumerate() {
        let _ = write!(text, "{}. ", number + 1);
        if option.danger {
            text.push_str("⚠️ ");
        }
        text.push_str(&cut(&option.label, LABEL_BYTES));
        if option.recommended {
            let _ = write!(text, " ⭐ {}", t_in(lang, "wechat-recommended", &[]));
        }
        if descriptions && let Some(description) = &option.description {
            let _ = write!(text, " — {}", cut(description, DESCRIPTION_BYTES));
        }
        text.push('\n');
    }
    text.push('\n');
    let how = match (sub.options.is_empty(), sub.multi_select) {
        (true, _) => t_in(lang, "wechat-how-text", &[]),
        (false, false) => t_in(lang, "wechat-how-one", &[]),
        (false, true) => t_in(lang, "wechat-how-many", &[]),
    };
    let _ = writeln!(text, "{how}");
    if sub.allow_free_text && !sub.options.is_empty() {
        let _ = writeln!(text, "{}", t_in(lang, "wechat-how-words", &[]));
    }
    let [_, skip] = skip_words(lang);
    let _ = writeln!(
        text,
        "{}",
        t_in(lang, "wechat-how-skip", &[("skip", skip.into())])
    );
    if waiting > 0 {
        let _ = write!(
            text,
            "\n{}",
            t_in(lang, "wechat-more-waiting", &[("count", waiting.into())])
        );
    }
    text.trim_end().to_string()
}

/// Where an answer came from, in `lang`; `None` when nobody answered (a timeout, the agent).
fn place(lang: Lang, via: Option<AnsweredVia>) -> Option<String> {
    let key = match via? {
        AnsweredVia::Page => "page",
        AnsweredVia::Client => "client",
        AnsweredVia::Push => "push",
        AnsweredVia::Rule => "rule",
        AnsweredVia::Channel(ChannelName::Wechat) => return None,
        AnsweredVia::Channel(channel) => {
            return Some(t_in(
                lang,
                "wechat-via-channel",
                &[("channel", channel.display().into())],
            ));
        }
    };
    Some(t_in(lang, "wechat-via", &[("place", key.into())]))
}

/// A reminder: the question shown, again, under a line saying it still waits.
pub fn reminder(lang: Lang, question: &Question, walk: &Walk, waiting: usize) -> String {
    format!(
        "⏰ {}\n\n{}",
        t_in(lang, "wechat-remind", &[]),
        self::question(lang, question, walk, waiting)
    )
}

impl ChatViews for Wechat {
    type View = String;

    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> String {
        self::question(lang, question, walk, 0)
    }

    fn step(
        &self,
        lang: Lang,
        question: &Question,
        walk: &Walk,
        waiting: usize,
        reminder: bool,
    ) -> String {
        if reminder {
            self::reminder(lang, question, walk, waiting)
        } else {
            self::question(lang, question, walk, waiting)
        }
    }

    /// The follow-up once a question closed: what was answered here, or how it ended elsewhere.
    fn closed(&self, lang: Lang, question: &Question) -> String {
        let here = question.answered_via == Some(AnsweredVia::Channel(ChannelName::Wechat));
        if here {
            return match (question.status, question.note.as_deref()) {
                (Status::Declined, Some(note)) => {
                    let note = cut(note, 1000);
                    format!(
                        "⏭ {}",
                        t_in(lang, "wechat-skipped-note", &[("note", note.into())])
                    )
                }
                (Status::Declined, None) => format!("⏭ {}", t_in(lang, "wechat-skipped", &[])),
                _ => {
                    let answer = cut(&hark_text::question::answers_line(lang, question), 1000);
                    format!(
                        "✅ {}",
                        t_in(lang, "wechat-answer-sent", &[("answer", answer.into())])
                    )
                }
            };
        }
        let mark = mark(question.status);
        let name = cut(&headline(question), 120);
        let outcome = cut(&outcome(lang, question), 1000);
        let said = match place(lang, question.answered_via) {
            Some(place) => t_in(
                lang,
                "wechat-closed-via",
                &[
                    ("name", name.into()),
                    ("outcome", outcome.into()),
                    ("place", place.into()),
                ],
            ),
            None => t_in(
                lang,
                "wechat-closed",
                &[("name", name.into()), ("outcome", outcome.into())],
            ),
        };
        format!("{mark} {said}")
    }

    /// Not asked of a text-only app, which reminds of the question on screen (`step`).
    fn reminder(&self, lang: Lang, waiting: &[Question]) -> String {
        waiting.first().map_or_else(String::new, |first| {
            reminder(lang, first, &Walk::default(), waiting.len() - 1)
        })
    }

    fn said(&self, text: &str) -> String {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionOption, SubQuestion};

    fn largest() -> Question {
        let option = QuestionOption {
            label: "L".repeat(500),
            description: Some("D".repeat(1000)),
            recommended: true,
            danger: true,
            ..QuestionOption::default()
        };
        let mut question: Question = serde_json::from_value(serde_json::json!({
            "id": uuid::Uuid::new_v4(), "questions": [], "status": "pending",
            "createdAt": "2026-12-02T08:05:00Z", "title": "T".repeat(900)
        }))
        .unwrap();
        question.questions = vec![
            SubQuestion {
                header: Some("H".repeat(300)),
                options: vec![option; 20],
                multi_select: true,
                ..SubQuestion::text("Q".repeat(10_000))
            };
            4
        ];
        question
    }

    #[test]
    fn every_message_fits_wechat_in_every_language() {
        let question = largest();
        for lang in Lang::ALL {
            let mut walk = Walk::default();
            for step in 0..4 {
                walk.step = step;
                let text = super::question(lang, &question, &walk, 99);
                assert!(
                    text.chars().count() <= MAX_TEXT_CHARS,
                    "{lang:?} step {step}"
                );
            }
        }
    }

    #[test]
    fn options_are_numbered_with_their_marks_and_how_to_answer() {
        let mut question = largest();
        question.title = Some("Deploy".into());
        question.questions = vec![SubQuestion {
            options: vec![
                QuestionOption {
                    label: "Staging".into(),
                    recommended: true,
                    ..QuestionOption::default()
                },
                QuestionOption {
                    label: "Production".into(),
                    description: Some("Live traffic".into()),
                    danger: true,
                    ..QuestionOption::default()
                },
            ],
            ..SubQuestion::text("Where?")
        }];
        let text = super::question(Lang::En, &question, &Walk::default(), 2);
        assert!(text.starts_with("❓ Deploy\n"), "{text}");
        assert!(text.contains("1. Staging ⭐ recommended\n"), "{text}");
        assert!(text.contains("2. ⚠️ Production — Live traffic\n"), "{text}");
        assert!(text.contains("Reply with the number"), "{text}");
        assert!(text.contains("skip"), "{text}");
        assert!(text.contains("2 more questions"), "{text}");
    }
}
