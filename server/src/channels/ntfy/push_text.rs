//! The few plain words a push carries (ntfy): a title, the questions' text within the server's
//! byte limit, and how a question ended, in the daemon's language. The words themselves are
//! `hark-text`'s, as every surface says them; this fits them to a push.

use hark_core::model::Question;
use hark_text::Lang;
use hark_text::plain::cut;

/// ntfy's limit for a message's text, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The push's title: the question's name as one plain line (a push shows no Markdown), else
/// "Hark".
pub fn title(question: &Question) -> String {
    let name = hark_text::question::name(question).map(hark_text::markdown::one_line);
    cut(
        name.as_deref()
            .filter(|name| !name.is_empty())
            .unwrap_or("Hark"),
        256,
    )
}

/// The push's text: every question, one paragraph each.
pub fn questions(question: &Question) -> String {
    let text: Vec<&str> = question
        .questions
        .iter()
        .map(|sub| sub.question.trim())
        .collect();
    cut(&text.join("\n\n"), MAX_MESSAGE_BYTES)
}

/// How `question` ended, for the push that replaces its first one.
pub fn outcome(lang: Lang, question: &Question) -> String {
    cut(
        &hark_text::question::outcome(lang, question),
        MAX_MESSAGE_BYTES,
    )
}
