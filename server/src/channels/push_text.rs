//! The few plain words a push carries (ntfy): a title, the questions' text within the server's
//! byte limit, and how a question ended, in the daemon's language.

use app::i18n::{Lang, t_in};
use hark_core::model::{Question, Status};

/// ntfy's limit for a message's text, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// What a question is called: the request's title, else its first question's header (trimmed,
/// when not blank).
pub fn name(question: &Question) -> Option<&str> {
    question
        .title
        .as_deref()
        .or_else(|| {
            question
                .questions
                .first()
                .and_then(|sub| sub.header.as_deref())
        })
        .map(str::trim)
        .filter(|name| !name.is_empty())
}

/// The push's title: the question's name, else "Hark".
pub fn title(question: &Question) -> String {
    cut(name(question).unwrap_or("Hark"), 256)
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

/// The one line a push carries when `contentInPush` is off.
pub fn waiting(lang: Lang) -> String {
    t_in(lang, "push-waiting", &[])
}

/// How `question` ended, for the push that replaces its first one.
pub fn outcome(lang: Lang, question: &Question) -> String {
    let text = match question.status {
        Status::Answered => {
            let answers: Vec<String> = question
                .answers
                .iter()
                .flatten()
                .map(|answer| app::pages::home::answer_line(lang, answer))
                .collect();
            t_in(
                lang,
                "push-answered",
                &[("answer", answers.join(" · ").into())],
            )
        }
        Status::Declined => t_in(lang, "push-declined", &[]),
        Status::Timeout => t_in(lang, "push-timeout", &[]),
        Status::Cancelled => t_in(lang, "push-cancelled", &[]),
        Status::Pending => String::new(),
    };
    cut(&text, MAX_MESSAGE_BYTES)
}

/// `text` within `limit` bytes: cut on a character boundary with "…" when longer.
pub fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let ellipsis = "…";
    let mut end = limit.saturating_sub(ellipsis.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ellipsis}", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_within_the_limit_on_a_character_boundary() {
        let mixed = "确认部署吗？🚀 Да ".repeat(400);
        for limit in [10, 11, 12, 13, 100, MAX_MESSAGE_BYTES] {
            let cut = cut(&mixed, limit);
            assert!(cut.len() <= limit, "{limit}: {}", cut.len());
            assert!(cut.ends_with('…'));
            assert!(
                cut.len() + 4 + 3 > limit,
                "{limit}: cut no more than a character"
            );
        }
        assert_eq!(cut("short", 10), "short");
    }
}
