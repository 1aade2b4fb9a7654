//! A question as a Telegram message: its text in Telegram's HTML (every character the agent
//! wrote is escaped, so it shows as written and is never markup), the buttons of the
//! sub-question being answered, and the outcome once it closes, in the daemon's language.

use super::Telegram;
use crate::channels::chat::ChatViews;
use crate::channels::walk::marked::Style;
use crate::channels::walk::shown;
use crate::channels::walk::{Awaiting, Callback, Tap, Walk};
use frankenstein::types::{InlineKeyboardButton, InlineKeyboardMarkup};
use hark_core::model::Question;
use hark_text::plain::cut;
use hark_text::{Lang, t_in};
use std::fmt::Write;

/// Telegram's limit for a message, in characters after markup; kept under with room to spare.
const MAX_TEXT_CHARS: usize = 4000;
/// A question's text at most, in bytes (Markdown shown as written). With the other parts' own
/// limits, every message stays under `MAX_TEXT_CHARS` (a test builds the largest).
const QUESTION_BYTES: usize = 2000;
/// An option's label on a button, in characters.
const LABEL_CHARS: usize = 64;
/// Telegram's HTML, its parts measured in bytes.
const HTML: Style = Style {
    escape,
    bold: ["<b>", "</b>"],
    italic: ["<i>", "</i>"],
    fit: cut,
    question: QUESTION_BYTES,
    label: 60,
    description: 160,
    outcome: 800,
    before_outcome: None,
};

/// A message as it should look: its text and its buttons.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub text: String,
    pub keyboard: Option<InlineKeyboardMarkup>,
}

/// `text` as Telegram's HTML shows it verbatim (`&`, `<`, `>` and `"` as entities).
pub fn escape(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

fn pending_text(lang: Lang, question: &Question, walk: &Walk, described: bool) -> String {
    let mut text = HTML.pending(lang, question, walk, described);
    if let Some(awaiting) = walk.awaiting {
        let _ = write!(text, "\n{}", HTML.italic(&asking(lang, awaiting), 1000));
    }
    text.trim_end().to_string()
}

fn button(text: String, callback: Callback) -> InlineKeyboardButton {
    InlineKeyboardButton::builder()
        .text(text)
        .callback_data(callback.encode())
        .build()
}

/// The buttons of the walk's step.
fn keyboard(lang: Lang, question: &Question, walk: &Walk) -> InlineKeyboardMarkup {
    let at = |tap| Callback {
        id: question.id,
        step: walk.step,
        tap,
    };
    let mut rows: Vec<Vec<InlineKeyboardButton>> = Vec::new();
    let keyboard = |rows| {
        InlineKeyboardMarkup::builder()
            .inline_keyboard(rows)
            .build()
    };
    let Some(sub) = question.questions.get(walk.step) else {
        return keyboard(rows);
    };
    if walk.awaiting == Some(Awaiting::SkipNote) {
        let skip = t_in(lang, "chat-skip-now", &[]);
        rows.push(vec![button(skip, at(Tap::SkipNow))]);
        rows.push(vec![button(t_in(lang, "chat-back", &[]), at(Tap::Back))]);
        return keyboard(rows);
    }
    for (index, option) in sub.options.iter().enumerate() {
        let (tick, tap) = match (sub.multi_select, walk.ticked.contains(&index)) {
            (false, _) => ("", Tap::Pick(index)),
            (true, false) => ("☐ ", Tap::Toggle(index)),
            (true, true) => ("☑ ", Tap::Toggle(index)),
        };
        let label = format!("{tick}{}", shown::marked(option, LABEL_CHARS));
        rows.push(vec![button(label, at(tap))]);
    }
    // Send on a row of its own, under the options it sends; Other… and Skip together.
    let mut last = Vec::new();
    for key in shown::keys(lang, sub) {
        let drawn = button(key.label, at(key.tap));
        if key.tap == Tap::Send {
            rows.push(vec![drawn]);
        } else {
            last.push(drawn);
        }
    }
    rows.push(last);
    keyboard(rows)
}

/// The reply prompt of "Other…" or "Skip": names the question, so the reply is plainly its.
pub fn prompt(lang: Lang, question: &Question, walk: &Walk, awaiting: Awaiting) -> String {
    let asked = question
        .questions
        .get(walk.step)
        .map(|sub| cut(sub.question.trim(), 300))
        .unwrap_or_default();
    format!(
        "{}\n\n<i>{}</i>",
        escape(&asking(lang, awaiting)),
        escape(&asked)
    )
}

/// What a reply is asked for: the person's own words, or a note to a skip.
fn asking(lang: Lang, awaiting: Awaiting) -> String {
    let key = match awaiting {
        Awaiting::OwnWords => "telegram-own-words-prompt",
        Awaiting::SkipNote => "telegram-skip-note-prompt",
    };
    t_in(lang, key, &[])
}

impl ChatViews for Telegram {
    type View = Shown;

    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> Shown {
        let text = pending_text(lang, question, walk, true);
        let text = if text.chars().count() > MAX_TEXT_CHARS {
            pending_text(lang, question, walk, false)
        } else {
            text
        };
        Shown {
            text,
            keyboard: Some(keyboard(lang, question, walk)),
        }
    }

    fn closed(&self, lang: Lang, question: &Question) -> Shown {
        Shown {
            text: HTML.closed(lang, question),
            keyboard: None,
        }
    }

    fn said(&self, text: &str) -> Shown {
        Shown {
            text: escape(text),
            keyboard: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionOption, Status, SubQuestion};

    fn question() -> Question {
        let mut question: Question = serde_json::from_value(serde_json::json!({
            "id": uuid::Uuid::new_v4(), "questions": [], "status": "pending",
            "createdAt": "2026-11-30T08:05:00Z", "title": "Deploy <b>now</b> & then",
            "source": {"client": "claude-code", "cwd": "/home/me/<shop>"}
        }))
        .unwrap();
        question.questions = vec![SubQuestion {
            header: Some("<i>DB</i>".into()),
            options: vec![
                QuestionOption {
                    label: "<script>".into(),
                    description: Some("a & b".into()),
                    recommended: true,
                    ..QuestionOption::default()
                },
                QuestionOption {
                    label: "Drop".into(),
                    danger: true,
                    ..QuestionOption::default()
                },
            ],
            ..SubQuestion::text("Use </b><a href=\"x\">this</a>?")
        }];
        question
    }

    #[test]
    fn the_agents_text_is_shown_never_interpreted() {
        let question = question();
        let shown = Telegram::default().pending(Lang::En, &question, &Walk::default());
        for raw in ["<b>now", "<script>", "</b><a", "<i>DB", "<shop>", "a & b"] {
            assert!(!shown.text.contains(raw), "{raw} in {}", shown.text);
        }
        assert!(
            shown
                .text
                .contains("Deploy &lt;b&gt;now&lt;/b&gt; &amp; then")
        );
        assert!(
            shown
                .text
                .contains("&lt;/b&gt;&lt;a href=&quot;x&quot;&gt;")
        );
        let keyboard = shown.keyboard.unwrap().inline_keyboard;
        assert_eq!(
            keyboard[0][0].text, "<script> ⭐",
            "button text is not markup"
        );
        assert_eq!(keyboard[1][0].text, "⚠️ Drop");
        assert_eq!(keyboard[2].len(), 2, "Other… and Skip");
    }

    #[test]
    fn a_closed_question_keeps_its_text_and_loses_its_buttons() {
        let mut question = question();
        question.status = Status::Declined;
        question.note = Some("<later>".into());
        let shown = Telegram::default().closed(Lang::En, &question);
        assert!(shown.keyboard.is_none());
        assert!(shown.text.contains("&lt;later&gt;"), "{}", shown.text);
    }

    #[test]
    fn a_huge_question_fits_one_message() {
        let mut question = question();
        question.questions[0].question = "Ж".repeat(10_000);
        for option in &mut question.questions[0].options {
            option.description = Some("описание ".repeat(100));
        }
        question.questions[0].options = (0..26)
            .map(|index| QuestionOption {
                label: format!("{index} {}", "x".repeat(200)),
                description: Some("d".repeat(500)),
                ..QuestionOption::default()
            })
            .collect();
        let shown = Telegram::default().pending(Lang::Ru, &question, &Walk::default());
        assert!(shown.text.chars().count() <= MAX_TEXT_CHARS);
    }

    /// The characters Telegram counts: the text without tags, each entity one character.
    fn visible(html: &str) -> usize {
        let mut count = 0;
        let mut in_tag = false;
        let mut in_entity = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                '&' if !in_tag => {
                    in_entity = true;
                    count += 1;
                }
                ';' if in_entity => in_entity = false,
                _ if in_tag || in_entity => {}
                _ => count += 1,
            }
        }
        count
    }

    #[test]
    fn the_largest_request_fits_every_message_it_becomes() {
        let long = |c: &str, n: usize| c.repeat(n);
        let mut question = question();
        question.title = Some(long("T", 20_000));
        question.source = Some(hark_core::model::Source {
            client: Some(long("c", 4_000)),
            cwd: Some(format!("/{}", long("p", 4_000))),
            pid: None,
        });
        question.questions = (0..4)
            .map(|_| SubQuestion {
                header: Some(long("H", 200)),
                multi_select: true,
                options: (0..26)
                    .map(|index| QuestionOption {
                        label: format!("{index}{}", long("L", 198)),
                        description: Some(long("D", 10_000)),
                        ..QuestionOption::default()
                    })
                    .collect(),
                ..SubQuestion::text(long("Q", 10_000))
            })
            .collect();
        let answer = hark_core::model::SubQuestionAnswer {
            selected: question.questions[0]
                .options
                .iter()
                .map(|option| option.label.clone())
                .collect(),
            free_text: Some(long("F", 50_000)),
            images: Vec::new(),
        };
        let walk = Walk {
            step: 3,
            answers: vec![answer.clone(); 3],
            ticked: (0..26).collect(),
            awaiting: Some(Awaiting::OwnWords),
        };
        let shown = Telegram::default().pending(Lang::Ru, &question, &walk);
        assert!(
            visible(&shown.text) <= MAX_TEXT_CHARS,
            "{}",
            visible(&shown.text)
        );
        question.status = Status::Answered;
        question.answers = Some(vec![answer; 4]);
        let shown = Telegram::default().closed(Lang::Ru, &question);
        assert!(
            visible(&shown.text) <= MAX_TEXT_CHARS,
            "{}",
            visible(&shown.text)
        );
        question.status = Status::Declined;
        question.note = Some(long("N", 50_000));
        let shown = Telegram::default().closed(Lang::Ru, &question);
        assert!(
            visible(&shown.text) <= MAX_TEXT_CHARS,
            "{}",
            visible(&shown.text)
        );
    }
}
