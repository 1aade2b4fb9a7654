//! A question as text with bold and italics, the same for every app whose messages are marked-up
//! text (Telegram's HTML, Discord's Markdown): the title and who asked, the steps answered, the
//! step asked with its options described, what is ticked; and a closed question with its
//! outcome. Each app gives its `Style`: its markup (everything the agent wrote is escaped, so it
//! shows as written) and how much of each part its messages hold.

use super::Walk;
use super::shown;
use hark_core::model::Question;
use hark_text::question::ending;
use hark_text::{Lang, t_in};
use std::fmt::Write;

/// An app's markup, and how much of each part its messages hold in its measure (bytes or
/// characters, as `fit` counts).
pub struct Style {
    /// `text` shown as written.
    pub escape: fn(&str) -> String,
    /// What goes before and after bold text, and italic text.
    pub bold: [&'static str; 2],
    pub italic: [&'static str; 2],
    /// `text` within a limit.
    pub fit: fn(&str, usize) -> String,
    /// What the agent asked (a closed question's sub-questions share it), an option's label
    /// and its description, a closed question's outcome.
    pub question: usize,
    pub label: usize,
    pub description: usize,
    pub outcome: usize,
    /// All that comes before a closed question's outcome, for an app whose markup may be cut
    /// anywhere (the outcome always shows).
    pub before_outcome: Option<usize>,
}

impl Style {
    /// `text` within `limit`, shown as written.
    pub fn plain(&self, text: &str, limit: usize) -> String {
        (self.escape)(&(self.fit)(text, limit))
    }

    pub fn bold(&self, text: &str, limit: usize) -> String {
        let [before, after] = self.bold;
        format!("{before}{}{after}", self.plain(text, limit))
    }

    pub fn italic(&self, text: &str, limit: usize) -> String {
        let [before, after] = self.italic;
        format!("{before}{}{after}", self.plain(text, limit))
    }

    /// The title (bold) and who asked (italics), and a blank line after them.
    fn heading(&self, question: &Question) -> String {
        let mut text = String::new();
        let title = question.title.as_deref().map(str::trim);
        if let Some(title) = title.filter(|title| !title.is_empty()) {
            let _ = writeln!(text, "{}", self.bold(title, 200));
        }
        if let Some(source) = question.source_label() {
            let _ = writeln!(text, "{}", self.italic(&source, 200));
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text
    }

    /// A pending question as the walk stands, its options described when `described` (an app
    /// whose message would run too long asks again without).
    pub fn pending(&self, lang: Lang, question: &Question, walk: &Walk, described: bool) -> String {
        let mut text = self.heading(question);
        for (name, answer) in shown::answered(lang, question, walk) {
            let (name, answer) = (self.bold(&name, 100), self.plain(&answer, 200));
            let _ = writeln!(text, "✓ {name}: {answer}");
        }
        if walk.step > 0 {
            text.push('\n');
        }
        let Some(sub) = question.questions.get(walk.step) else {
            return text;
        };
        let label = hark_text::question::step_label(lang, question, walk.step);
        if !label.is_empty() {
            let _ = writeln!(text, "{}", self.bold(&label, 200));
        }
        let limit = self.question / if described { 1 } else { 2 };
        let _ = writeln!(text, "{}", self.plain(sub.question.trim(), limit));
        if described
            && sub
                .options
                .iter()
                .any(|option| option.description.is_some())
        {
            text.push('\n');
            for (number, option) in sub.options.iter().enumerate() {
                let label = self.bold(&option.label, self.label);
                let _ = write!(text, "{}. {label}", number + 1);
                if let Some(description) = &option.description {
                    let _ = write!(text, " — {}", self.plain(description, self.description));
                }
                text.push('\n');
            }
        }
        if sub.multi_select && !walk.ticked.is_empty() {
            let ticked: Vec<&str> = (walk.ticked.iter())
                .filter_map(|index| sub.options.get(*index).map(|option| option.label.as_str()))
                .collect();
            let options = (self.fit)(&ticked.join(", "), 600);
            let line = t_in(lang, "chat-ticked", &[("options", options.into())]);
            let _ = write!(text, "\n{}\n", (self.escape)(&line));
        }
        text
    }

    /// A closed question: what was asked (each sub-question under its header), then how it
    /// ended.
    pub fn closed(&self, lang: Lang, question: &Question) -> String {
        let mut text = self.heading(question);
        let per_question = self.question / question.questions.len().max(1);
        for sub in &question.questions {
            let header = sub.header.as_deref().map(str::trim);
            if let Some(header) = header.filter(|header| !header.is_empty()) {
                let _ = writeln!(text, "{}", self.bold(header, 100));
            }
            let _ = writeln!(text, "{}", self.plain(sub.question.trim(), per_question));
        }
        let (mark, outcome) = ending(lang, question, |note| (self.fit)(note, self.outcome));
        if let Some(room) = self.before_outcome {
            text = (self.fit)(&text, room);
        }
        let _ = write!(text, "\n{mark} {}", self.bold(&outcome, self.outcome));
        text
    }
}
