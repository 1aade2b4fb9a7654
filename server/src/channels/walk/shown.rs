//! What a question shows at the walk's step, the same in every chat app that has buttons: the
//! steps answered before it, its options with their marks, the keys under them (Send, Other…,
//! Skip), and the words window of "Other…" and "Skip" with the id that names it. Each app's
//! renderer draws these in its own format and within its own limits.

use super::{Awaiting, Tap, Walk};
use hark_core::model::{Question, QuestionId, QuestionOption, SubQuestion};
use hark_text::plain::fit_chars;
use hark_text::question::answer_line;
use hark_text::{Lang, t_in};

/// How an option stands out: a risky one (⚠️, the app's danger style) before a recommended one
/// (⭐, its primary style).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emphasis {
    Danger,
    Recommended,
    Plain,
}

impl Emphasis {
    pub fn of(option: &QuestionOption) -> Emphasis {
        if option.danger {
            Emphasis::Danger
        } else if option.recommended {
            Emphasis::Recommended
        } else {
            Emphasis::Plain
        }
    }
}

/// An option's label with its marks (⚠️ before a risky one, ⭐ after a recommended one), within
/// `limit` characters.
pub fn marked(option: &QuestionOption, limit: usize) -> String {
    let danger = if option.danger { "⚠️ " } else { "" };
    let recommended = if option.recommended { " ⭐" } else { "" };
    fit_chars(&format!("{danger}{}{recommended}", option.label), limit)
}

/// The steps answered before the walk's: each one's name (its header, else its number) and its
/// answer in a line.
pub fn answered(lang: Lang, question: &Question, walk: &Walk) -> Vec<(String, String)> {
    let subs = question.questions.iter().enumerate();
    subs.zip(&walk.answers)
        .take(walk.step)
        .map(|((index, sub), answer)| {
            let name = sub
                .header
                .clone()
                .unwrap_or_else(|| (index + 1).to_string());
            (name, answer_line(lang, answer))
        })
        .collect()
}

/// The options as a numbered list with their descriptions (`1. Label — description`), when any
/// option has one.
pub fn descriptions(sub: &SubQuestion) -> Option<String> {
    if sub
        .options
        .iter()
        .all(|option| option.description.is_none())
    {
        return None;
    }
    let lines: Vec<String> = (sub.options.iter().enumerate())
        .map(|(index, option)| match &option.description {
            Some(description) => format!("{}. {} — {description}", index + 1, option.label),
            None => format!("{}. {}", index + 1, option.label),
        })
        .collect();
    Some(lines.join("\n"))
}

/// A key under the options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub label: String,
    pub tap: Tap,
    /// Drawn in the app's primary style (Send).
    pub primary: bool,
}

/// The keys under a step's options: Send for a multi-select, Other… (Answer… when there are no
/// options) where the agent takes the person's own words, and Skip.
pub fn keys(lang: Lang, sub: &SubQuestion) -> Vec<Key> {
    let mut keys = Vec::new();
    if sub.multi_select {
        keys.push(Key {
            label: format!("➡️ {}", t_in(lang, "chat-send", &[])),
            tap: Tap::Send,
            primary: true,
        });
    }
    if sub.allow_free_text {
        let own = if sub.options.is_empty() {
            "chat-answer"
        } else {
            "chat-other"
        };
        keys.push(Key {
            label: t_in(lang, own, &[]),
            tap: Tap::OwnWords,
            primary: false,
        });
    }
    keys.push(Key {
        label: t_in(lang, "chat-skip", &[]),
        tap: Tap::Skip,
        primary: false,
    });
    keys
}

/// The words of the window that asks for them: its title, its field's label, and whether words
/// are needed (own words are; a skip's note is not).
pub fn window_words(lang: Lang, awaiting: Awaiting) -> (String, String, bool) {
    let (title, label, needed) = match awaiting {
        Awaiting::OwnWords => ("chat-answer-title", "chat-answer-label", true),
        Awaiting::SkipNote => ("chat-skip-title", "chat-skip-label", false),
    };
    (t_in(lang, title, &[]), t_in(lang, label, &[]), needed)
}

/// What a words window was opened for, as its id carries it (Slack's `private_metadata`,
/// Discord's `custom_id`): `hw:<uuid without dashes>:<step>:<o|k>`, within every app's limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowFor {
    pub id: QuestionId,
    pub step: usize,
    pub awaiting: Awaiting,
}

impl WindowFor {
    pub fn encode(&self) -> String {
        let kind = match self.awaiting {
            Awaiting::OwnWords => "o",
            Awaiting::SkipNote => "k",
        };
        format!("hw:{}:{}:{kind}", self.id.0.simple(), self.step)
    }

    /// The window an id names; `None` for any other id.
    pub fn decode(data: &str) -> Option<WindowFor> {
        let ["hw", id, step, kind] = data.split(':').collect::<Vec<_>>()[..] else {
            return None;
        };
        let awaiting = match kind {
            "o" => Awaiting::OwnWords,
            "k" => Awaiting::SkipNote,
            _ => return None,
        };
        Some(WindowFor {
            id: QuestionId(uuid::Uuid::try_parse(id).ok()?),
            step: step.parse().ok()?,
            awaiting,
        })
    }
}

/// A reminder of the questions still waiting: how many, and the first ten's headlines.
pub fn reminder(lang: Lang, waiting: &[Question]) -> String {
    let count = waiting.len().into();
    let mut text = format!("⏰ {}", t_in(lang, "chat-remind", &[("count", count)]));
    for question in waiting.iter().take(10) {
        text.push_str("\n• ");
        text.push_str(&fit_chars(&hark_text::question::headline(question), 120));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_id_comes_back_as_it_went_and_nothing_else_reads_as_one() {
        let window = WindowFor {
            id: QuestionId::new_random(),
            step: 2,
            awaiting: Awaiting::SkipNote,
        };
        assert_eq!(WindowFor::decode(&window.encode()), Some(window));
        assert!(window.encode().len() <= 45);
        for other in ["", "hw:nope", "hm:0:1:o", "h1:abc:0:p1"] {
            assert_eq!(WindowFor::decode(other), None, "{other}");
        }
    }

    #[test]
    fn marks_and_keys_follow_what_the_agent_said() {
        let option = QuestionOption {
            danger: true,
            recommended: true,
            ..QuestionOption::new("Deploy")
        };
        assert_eq!(marked(&option, 80), "⚠️ Deploy ⭐");
        assert_eq!(Emphasis::of(&option), Emphasis::Danger);
        let sub = SubQuestion {
            options: vec![option],
            multi_select: true,
            allow_free_text: true,
            ..SubQuestion::text("Which?")
        };
        let taps: Vec<Tap> = keys(Lang::En, &sub)
            .into_iter()
            .map(|key| key.tap)
            .collect();
        assert_eq!(taps, [Tap::Send, Tap::OwnWords, Tap::Skip]);
    }
}
