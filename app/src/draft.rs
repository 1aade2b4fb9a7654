//! What the person has picked and typed on a question page, kept in localStorage per question so
//! a reload (or a closed tab) loses nothing until the answer is sent (`browser`; the server's
//! headless twin keeps nothing).

use serde::{Deserialize, Serialize};

/// The form's state: per sub-question, the picked labels and the "Other" text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub picks: Vec<Vec<String>>,
    pub texts: Vec<String>,
}

impl Draft {
    /// An empty draft for `questions` sub-questions.
    pub fn empty(questions: usize) -> Self {
        Self {
            picks: vec![Vec::new(); questions],
            texts: vec![String::new(); questions],
        }
    }

    /// Picks `label` (alone, unless `multi`) or, when `multi` and already picked, unpicks it.
    pub fn toggle(&mut self, question: usize, label: &str, multi: bool) {
        let Some(picks) = self.picks.get_mut(question) else {
            return;
        };
        if multi {
            match picks.iter().position(|picked| picked == label) {
                Some(at) => {
                    picks.remove(at);
                }
                None => picks.push(label.to_string()),
            }
        } else {
            *picks = vec![label.to_string()];
        }
    }

    pub fn is_picked(&self, question: usize, label: &str) -> bool {
        self.picks
            .get(question)
            .is_some_and(|picks| picks.iter().any(|picked| picked == label))
    }

    pub fn text(&self, question: usize) -> String {
        self.texts.get(question).cloned().unwrap_or_default()
    }

    pub fn set_text(&mut self, question: usize, text: String) {
        if let Some(slot) = self.texts.get_mut(question) {
            *slot = text;
        }
    }

    /// The sub-questions with neither a pick nor any text yet.
    pub fn unanswered(&self) -> Vec<usize> {
        self.picks
            .iter()
            .zip(&self.texts)
            .enumerate()
            .filter(|(_, (picks, text))| picks.is_empty() && text.trim().is_empty())
            .map(|(index, _)| index)
            .collect()
    }

    pub fn is_blank(&self) -> bool {
        self.picks.iter().all(Vec::is_empty) && self.texts.iter().all(|text| text.is_empty())
    }

    /// Whether a stored draft fits this question (same number of sub-questions).
    pub fn fits(&self, questions: usize) -> bool {
        self.picks.len() == questions && self.texts.len() == questions
    }
}

#[cfg_attr(not(feature = "hydrate"), path = "draft/headless.rs")]
mod browser;

pub use browser::{forget, load, save};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_choice_replaces_and_multi_toggles() {
        let mut draft = Draft::empty(2);
        draft.toggle(0, "A", false);
        draft.toggle(0, "B", false);
        assert_eq!(draft.picks[0], ["B"]);
        draft.toggle(1, "A", true);
        draft.toggle(1, "B", true);
        draft.toggle(1, "A", true);
        assert_eq!(draft.picks[1], ["B"]);
        assert!(draft.is_picked(1, "B") && !draft.is_picked(1, "A"));
        draft.toggle(7, "A", true);
        assert!(!draft.is_blank());
        assert!(Draft::empty(3).is_blank());
        assert!(!Draft::empty(3).fits(2));
        let mut partly = Draft::empty(3);
        partly.toggle(0, "A", false);
        partly.set_text(2, "  ".into());
        assert_eq!(partly.unanswered(), [1, 2]);
    }
}
