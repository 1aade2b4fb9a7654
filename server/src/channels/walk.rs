//! The walk every chat channel shares (SPEC §14): answering one question a sub-question at a
//! time, in buttons or in text. What each tap and each typed reply does (multi-select toggles,
//! "Other…", Skip with a note, refusing outdated taps), and the data a button carries to name its
//! tap, short enough for every chat app's limit. Pure: the channel sends what this decides, in its
//! own words for each `Refusal`. A text-only channel reads typed replies with `typed`; what a step
//! shows in an app with buttons is `shown`.

pub mod marked;
pub mod shown;
mod typed;

pub use typed::{Misfit, skip_words};

use hark_core::model::{Question, QuestionId, SubQuestionAnswer};
use std::collections::BTreeSet;

/// The most data a button may carry, in bytes: the strictest limit of the chat apps Hark
/// serves (the others allow more).
pub const MAX_CALLBACK_BYTES: usize = 64;
/// The first field of Hark's callback data, so other data (an older format) is told apart.
const PREFIX: &str = "h1";

/// A button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap {
    /// A single choice's option: answers the sub-question.
    Pick(usize),
    /// A multi-select's option: ticks or unticks it.
    Toggle(usize),
    /// A multi-select's "Send".
    Send,
    /// "Other…": the person types the answer.
    OwnWords,
    /// "Skip": declines, after a chance to say why.
    Skip,
    /// "Skip without a note".
    SkipNow,
    /// Back from "Skip" or "Other…" to the options.
    Back,
}

/// A tap's callback data: the question, the sub-question shown when the button was drawn, and
/// the tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Callback {
    pub id: QuestionId,
    pub step: usize,
    pub tap: Tap,
}

impl Callback {
    /// `h1:<uuid without dashes>:<step>:<tap>`, at most 45 bytes.
    pub fn encode(&self) -> String {
        let tap = match self.tap {
            Tap::Pick(option) => format!("p{option}"),
            Tap::Toggle(option) => format!("t{option}"),
            Tap::Send => "s".into(),
            Tap::OwnWords => "o".into(),
            Tap::Skip => "k".into(),
            Tap::SkipNow => "n".into(),
            Tap::Back => "b".into(),
        };
        let data = format!("{PREFIX}:{}:{}:{tap}", self.id.0.simple(), self.step);
        debug_assert!(data.len() <= MAX_CALLBACK_BYTES, "{data}");
        data
    }

    /// The callback a button carried; `None` for anything else.
    pub fn decode(data: &str) -> Option<Callback> {
        let [PREFIX, id, step, tap] = data.split(':').collect::<Vec<_>>()[..] else {
            return None;
        };
        let id = QuestionId(uuid::Uuid::try_parse(id).ok()?);
        let step = step.parse().ok()?;
        let option = || tap.get(1..).and_then(|digits| digits.parse().ok());
        let tap = match tap {
            "s" => Tap::Send,
            "o" => Tap::OwnWords,
            "k" => Tap::Skip,
            "n" => Tap::SkipNow,
            "b" => Tap::Back,
            _ if tap.starts_with('p') => Tap::Pick(option()?),
            _ if tap.starts_with('t') => Tap::Toggle(option()?),
            _ => return None,
        };
        Some(Callback { id, step, tap })
    }
}

/// What the message is waiting for besides a tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Awaiting {
    /// The person's own answer to the current sub-question.
    OwnWords,
    /// Why they skip (or "Skip without a note").
    SkipNote,
}

/// What to do after a tap or a reply.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Show the message as it now is.
    Show,
    /// Every sub-question is answered: record these answers.
    Submit(Vec<SubQuestionAnswer>),
    /// Decline the question, with the person's note if they gave one.
    Decline(Option<String>),
    /// Ask for a typed reply (Other… or a note), then show the message.
    AskReply(Awaiting),
    /// The tap or the reply does not fit: say why.
    Refuse(Refusal),
}

/// Why a tap or a reply was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The button belongs to a step already passed, or to nothing the question has.
    Stale,
    /// "Send" on a multi-select with nothing ticked.
    TickFirst,
    /// Words where the agent allowed only its options (or empty words).
    UseButtons,
}

/// Where the person is in a question (kept across restarts by the channels that cannot edit
/// what they sent).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Walk {
    /// The sub-question shown.
    pub step: usize,
    /// Answers to the sub-questions before it.
    pub answers: Vec<SubQuestionAnswer>,
    /// The current multi-select's ticked options.
    pub ticked: BTreeSet<usize>,
    pub awaiting: Option<Awaiting>,
}

impl Walk {
    /// What `tap` on a button drawn for `step` does.
    pub fn tap(&mut self, question: &Question, step: usize, tap: Tap) -> Next {
        let Some(sub) = question
            .questions
            .get(self.step)
            .filter(|_| step == self.step)
        else {
            return Next::Refuse(Refusal::Stale);
        };
        match tap {
            Tap::Pick(option) if !sub.multi_select => match sub.options.get(option) {
                Some(picked) => self.answered(question, vec![picked.label.clone()], None),
                None => Next::Refuse(Refusal::Stale),
            },
            Tap::Toggle(option) if sub.multi_select && option < sub.options.len() => {
                if !self.ticked.remove(&option) {
                    self.ticked.insert(option);
                }
                Next::Show
            }
            Tap::Send if sub.multi_select && self.ticked.is_empty() => {
                Next::Refuse(Refusal::TickFirst)
            }
            Tap::Send if sub.multi_select => {
                self.answered(question, self.ticked_labels(question), None)
            }
            Tap::OwnWords if sub.allow_free_text => self.ask(Awaiting::OwnWords),
            Tap::Skip => self.ask(Awaiting::SkipNote),
            Tap::SkipNow => Next::Decline(None),
            Tap::Back => {
                self.awaiting = None;
                Next::Show
            }
            _ => Next::Refuse(Refusal::Stale),
        }
    }

    /// What a typed reply does: the own answer, or the note of a skip. Without anything
    /// awaited, a reply to the question answers it in the person's words when it may be.
    pub fn reply(&mut self, question: &Question, text: &str) -> Next {
        let text = text.trim();
        if self.awaiting == Some(Awaiting::SkipNote) {
            return Next::Decline(Some(text.to_string()));
        }
        let Some(sub) = question.questions.get(self.step) else {
            return Next::Refuse(Refusal::Stale);
        };
        if !sub.allow_free_text || text.is_empty() {
            return Next::Refuse(Refusal::UseButtons);
        }
        // Ticked options go with the words on a multi-select.
        let selected = if sub.multi_select {
            self.ticked_labels(question)
        } else {
            Vec::new()
        };
        self.answered(question, selected, Some(text.to_string()))
    }

    fn ask(&mut self, awaiting: Awaiting) -> Next {
        self.awaiting = Some(awaiting);
        Next::AskReply(awaiting)
    }

    fn ticked_labels(&self, question: &Question) -> Vec<String> {
        let options = &question.questions[self.step].options;
        self.ticked
            .iter()
            .filter_map(|index| options.get(*index).map(|option| option.label.clone()))
            .collect()
    }

    /// Records the current sub-question's answer and moves on; the last one submits.
    fn answered(
        &mut self,
        question: &Question,
        selected: Vec<String>,
        free_text: Option<String>,
    ) -> Next {
        self.answers.push(SubQuestionAnswer {
            selected,
            free_text,
            images: Vec::new(),
        });
        self.ticked.clear();
        self.awaiting = None;
        if self.answers.len() >= question.questions.len() {
            // Kept at the last step: a refused submission (closed meanwhile) shows no more.
            Next::Submit(self.answers.clone())
        } else {
            self.step += 1;
            Next::Show
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionOption, SubQuestion};

    pub(super) fn question(subs: Vec<SubQuestion>) -> Question {
        let mut question: Question = serde_json::from_value(serde_json::json!({
            "id": uuid::Uuid::new_v4(), "questions": [], "status": "pending",
            "createdAt": "2026-11-30T08:05:00Z"
        }))
        .unwrap();
        question.questions = subs;
        question
    }

    fn choice(multi: bool, labels: &[&str]) -> SubQuestion {
        SubQuestion {
            multi_select: multi,
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

    #[test]
    fn callback_data_round_trips_within_the_smallest_limit() {
        let id = QuestionId::new_random();
        for tap in [
            Tap::Pick(25),
            Tap::Toggle(0),
            Tap::Send,
            Tap::OwnWords,
            Tap::Skip,
            Tap::SkipNow,
            Tap::Back,
        ] {
            let callback = Callback { id, step: 3, tap };
            let data = callback.encode();
            assert!(data.len() <= MAX_CALLBACK_BYTES, "{data}");
            assert_eq!(Callback::decode(&data), Some(callback));
        }
        for junk in [
            "",
            "h1",
            "h2:x:0:s",
            "h1:nope:0:s",
            "h1:{id}:0:q",
            "h1:{id}:0:p",
            "h1:{id}:0:s:x",
        ] {
            let junk = junk.replace("{id}", &id.0.simple().to_string());
            assert_eq!(Callback::decode(&junk), None, "{junk}");
        }
    }

    #[test]
    fn three_sub_questions_are_walked_then_submitted_together() {
        let question = question(vec![
            choice(false, &["A", "B"]),
            choice(true, &["X", "Y", "Z"]),
            SubQuestion::text("Why?"),
        ]);
        let mut walk = Walk::default();
        assert_eq!(walk.tap(&question, 0, Tap::Pick(1)), Next::Show);
        assert_eq!(
            walk.tap(&question, 0, Tap::Pick(0)),
            Next::Refuse(Refusal::Stale)
        );
        assert_eq!(
            walk.tap(&question, 1, Tap::Send),
            Next::Refuse(Refusal::TickFirst)
        );
        assert_eq!(walk.tap(&question, 1, Tap::Toggle(2)), Next::Show);
        assert_eq!(walk.tap(&question, 1, Tap::Toggle(0)), Next::Show);
        assert_eq!(walk.tap(&question, 1, Tap::Toggle(2)), Next::Show);
        assert_eq!(walk.tap(&question, 1, Tap::Toggle(1)), Next::Show);
        assert_eq!(walk.tap(&question, 1, Tap::Send), Next::Show);
        assert_eq!(
            walk.tap(&question, 2, Tap::OwnWords),
            Next::AskReply(Awaiting::OwnWords)
        );
        let Next::Submit(answers) = walk.reply(&question, "  because  ") else {
            panic!("not submitted");
        };
        assert_eq!(answers[0].selected, ["B"]);
        assert_eq!(answers[1].selected, ["X", "Y"]);
        assert_eq!(answers[2].free_text.as_deref(), Some("because"));
    }

    #[test]
    fn skip_waits_for_a_note_or_skips_at_once() {
        let question = question(vec![choice(false, &["A"])]);
        let mut walk = Walk::default();
        assert_eq!(
            walk.tap(&question, 0, Tap::Skip),
            Next::AskReply(Awaiting::SkipNote)
        );
        assert_eq!(
            walk.reply(&question, "not now"),
            Next::Decline(Some("not now".into()))
        );
        assert_eq!(walk.tap(&question, 0, Tap::Back), Next::Show);
        assert_eq!(walk.awaiting, None);
        assert_eq!(walk.tap(&question, 0, Tap::SkipNow), Next::Decline(None));
    }

    #[test]
    fn own_words_are_refused_where_the_agent_did_not_allow_them() {
        let mut closed = choice(false, &["A"]);
        closed.allow_free_text = false;
        let question = question(vec![closed]);
        let mut walk = Walk::default();
        assert_eq!(
            walk.tap(&question, 0, Tap::OwnWords),
            Next::Refuse(Refusal::Stale)
        );
        assert_eq!(
            walk.reply(&question, "hi"),
            Next::Refuse(Refusal::UseButtons)
        );
    }
}
