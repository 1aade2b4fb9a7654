//! Typed replies, for a channel that has no buttons (WeChat): `2` picks the second option, `1 3`
//! (or `1,3`) ticks two of a multi-select and sends them, `skip` with an optional note declines,
//! and any other words are the person's own answer where the agent allows one. Each reply is
//! turned into the taps the walk already knows, so both kinds of channel walk a question alike.

use super::{Next, Refusal, Tap, Walk};
use hark_core::model::Question;
use hark_text::Lang;

/// The words that decline: `skip`, and its word in `lang`.
pub fn skip_words(lang: Lang) -> [String; 2] {
    [
        "skip".to_string(),
        hark_text::t_in(lang, "chat-skip-word", &[]),
    ]
}

/// Option numbers that do not fit the sub-question (only typed replies can be so wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// A number the sub-question has no option for.
    NoSuchOption,
    /// Several numbers for a sub-question that takes one.
    OneOption,
}

/// The separators between option numbers: spaces and commas, the full-width and ideographic
/// ones a Chinese or Japanese keyboard types too.
fn separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '，' | '、' | ';' | '；')
}

/// The option numbers of `text` (from 1, as shown), when it is nothing but numbers; full-width
/// digits count.
fn numbers(text: &str) -> Option<Vec<usize>> {
    let parts: Vec<&str> = text
        .split(separator)
        .filter(|part| !part.is_empty())
        .collect();
    if parts.is_empty() {
        return None;
    }
    parts
        .into_iter()
        .map(|part| {
            let ascii: String = part
                .chars()
                .map(|c| match c {
                    '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
                    _ => c,
                })
                .collect();
            if ascii.is_empty() || !ascii.bytes().all(|byte| byte.is_ascii_digit()) {
                return None;
            }
            // Too long to be an option number: a number the person means as words.
            ascii.parse::<usize>().ok().filter(|number| *number < 1000)
        })
        .collect()
}

/// The note after a skip word (`skip`, or the word of `skip_words` in the daemon's language) that
/// starts `text`: `Some(None)` for a bare skip, `None` when `text` is no skip.
fn skipped<'a>(text: &'a str, skip_words: &[&str]) -> Option<Option<&'a str>> {
    for word in skip_words.iter().filter(|word| !word.is_empty()) {
        let Some(head) = text.get(..word.len()) else {
            continue;
        };
        if head.to_lowercase() != word.to_lowercase() {
            continue;
        }
        let rest = &text[word.len()..];
        // `skipper` is words, not a skip; CJK words need no space after them.
        let ascii_word = word.is_ascii();
        if ascii_word && rest.chars().next().is_some_and(char::is_alphanumeric) {
            continue;
        }
        let note = rest
            .trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, ':' | '：' | ',' | '，' | '-' | '—')
            })
            .trim();
        return Some(Some(note).filter(|note| !note.is_empty()));
    }
    None
}

impl Walk {
    /// What a typed reply does to the sub-question shown. `skip_words` are the words that
    /// decline (`skip` and its translation).
    ///
    /// # Errors
    /// Option numbers that do not fit; the walk is left as it was.
    pub fn typed(
        &mut self,
        question: &Question,
        text: &str,
        skip_words: &[&str],
    ) -> Result<Next, Misfit> {
        let text = text.trim();
        if let Some(note) = skipped(text, skip_words) {
            return Ok(Next::Decline(note.map(str::to_string)));
        }
        let Some(sub) = question.questions.get(self.step) else {
            return Ok(Next::Refuse(Refusal::Stale));
        };
        let step = self.step;
        match numbers(text) {
            Some(picked) if !sub.options.is_empty() => {
                if picked
                    .iter()
                    .any(|number| *number == 0 || *number > sub.options.len())
                {
                    return Err(Misfit::NoSuchOption);
                }
                if sub.multi_select {
                    self.ticked.clear();
                    for number in picked {
                        self.ticked.insert(number - 1);
                    }
                    Ok(self.tap(question, step, Tap::Send))
                } else if picked.len() == 1 {
                    Ok(self.tap(question, step, Tap::Pick(picked[0] - 1)))
                } else {
                    Err(Misfit::OneOption)
                }
            }
            _ => {
                // The own words of a multi-select come without ticks: what the person typed is
                // the whole answer.
                self.ticked.clear();
                self.awaiting = None;
                Ok(self.reply(question, text))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channels::walk::tests::question;
    use hark_core::model::{QuestionOption, SubQuestion};

    fn choice(multi: bool, free: bool, labels: &[&str]) -> SubQuestion {
        SubQuestion {
            multi_select: multi,
            allow_free_text: free,
            options: labels
                .iter()
                .map(|label| QuestionOption {
                    label: (*label).into(),
                    ..QuestionOption::default()
                })
                .collect(),
            ..SubQuestion::text("Which?")
        }
    }

    const SKIP: &[&str] = &["skip", "跳过"];

    fn submitted(next: Result<Next, Misfit>) -> Vec<(Vec<String>, Option<String>)> {
        let Ok(Next::Submit(answers)) = next else {
            panic!("not submitted: {next:?}");
        };
        answers
            .into_iter()
            .map(|answer| (answer.selected, answer.free_text))
            .collect()
    }

    #[test]
    fn a_number_picks_and_numbers_tick_a_multi_select() {
        let question = question(vec![
            choice(false, true, &["A", "B", "C"]),
            choice(true, false, &["X", "Y", "Z"]),
        ]);
        let mut walk = Walk::default();
        assert_eq!(walk.typed(&question, " 2 ", SKIP), Ok(Next::Show));
        for same in ["1 3", "1,3", "3, 1", "1、3"] {
            let mut at_two = walk.clone();
            let answers = submitted(at_two.typed(&question, same, SKIP));
            assert_eq!(answers[1].0, ["X", "Z"], "{same}");
        }
        let answers = submitted(walk.typed(&question, "3，１", SKIP));
        assert_eq!(answers[0], (vec!["B".to_string()], None));
        assert_eq!(answers[1], (vec!["X".to_string(), "Z".to_string()], None));
    }

    #[test]
    fn numbers_that_do_not_fit_are_refused_and_change_nothing() {
        let question = question(vec![choice(false, true, &["A", "B"])]);
        let mut walk = Walk::default();
        for (typed, misfit) in [
            ("3", Misfit::NoSuchOption),
            ("0", Misfit::NoSuchOption),
            ("1 2", Misfit::OneOption),
        ] {
            assert_eq!(walk.typed(&question, typed, SKIP), Err(misfit), "{typed}");
            assert_eq!(walk, Walk::default(), "{typed}");
        }
        let closed = question_with_no_words();
        assert_eq!(
            Walk::default().typed(&closed, "maybe later", SKIP),
            Ok(Next::Refuse(Refusal::UseButtons))
        );
    }

    fn question_with_no_words() -> Question {
        question(vec![choice(false, false, &["A", "B"])])
    }

    #[test]
    fn other_words_are_the_own_answer_and_numbers_are_words_without_options() {
        let question = question(vec![
            choice(true, true, &["X", "Y"]),
            SubQuestion::text("How many?"),
        ]);
        let mut walk = Walk::default();
        assert_eq!(
            walk.typed(&question, "neither, use Z", SKIP),
            Ok(Next::Show)
        );
        let answers = submitted(walk.typed(&question, "12", SKIP));
        assert_eq!(answers[0], (vec![], Some("neither, use Z".to_string())));
        assert_eq!(answers[1], (vec![], Some("12".to_string())));
    }

    #[test]
    fn skip_declines_with_its_note_in_either_language() {
        let closed = question(vec![choice(false, false, &["A"])]);
        for (typed, note) in [
            ("skip", None),
            ("Skip: too risky", Some("too risky")),
            ("跳过 明天再说", Some("明天再说")),
            ("SKIP", None),
        ] {
            assert_eq!(
                Walk::default().typed(&closed, typed, SKIP),
                Ok(Next::Decline(note.map(str::to_string))),
                "{typed}"
            );
        }
        // A word that only starts like a skip is words.
        let open = question(vec![choice(false, true, &["A"])]);
        assert!(matches!(
            Walk::default().typed(&open, "skipper", SKIP),
            Ok(Next::Submit(_))
        ));
    }
}
