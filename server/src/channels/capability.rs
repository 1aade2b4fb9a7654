//! Answer buttons that work away from the page (SPEC §11): a capability URL
//! `/a/<id>/<capability>` answers one question with one option. Each capability is 128 random
//! bits, valid for its question only, and single-use: the first one used spends every
//! capability of its question, and all die when the question closes. Kept in memory: after a
//! restart the buttons of older pushes are dead (410), while the question stays answerable on
//! the page.

use hark_core::model::QuestionId;
use std::collections::HashMap;
use std::sync::Mutex;
use subtle::ConstantTimeEq;

/// The capabilities handed out, by question.
#[derive(Default)]
pub struct Capabilities {
    by_question: Mutex<HashMap<QuestionId, Vec<(String, String)>>>,
}

/// What presenting a capability found.
#[derive(Debug, PartialEq, Eq)]
pub enum Redeemed {
    /// The option it stands for; the question's capabilities are spent.
    Option(String),
    /// The question has none (closed, spent, or never given any).
    Dead,
    /// The question has capabilities, but not this one: nothing is spent.
    Wrong,
}

impl Capabilities {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<QuestionId, Vec<(String, String)>>> {
        self.by_question
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// A fresh capability for each of `labels` of question `id`, in order.
    ///
    /// # Errors
    /// When the system has no randomness to give.
    pub fn issue(&self, id: QuestionId, labels: &[String]) -> std::io::Result<Vec<String>> {
        let mut issued = Vec::with_capacity(labels.len());
        for _ in labels {
            let mut bytes = [0_u8; 16];
            getrandom::fill(&mut bytes)
                .map_err(|error| std::io::Error::other(error.to_string()))?;
            issued.push(hex::encode(bytes));
        }
        self.map().insert(
            id,
            issued.iter().cloned().zip(labels.iter().cloned()).collect(),
        );
        Ok(issued)
    }

    /// Presents `capability` for question `id`.
    pub fn redeem(&self, id: QuestionId, capability: &str) -> Redeemed {
        let mut map = self.map();
        let Some(issued) = map.get(&id) else {
            return Redeemed::Dead;
        };
        // Every candidate is compared, in constant time, so timing tells nothing.
        let mut found = None;
        for (candidate, label) in issued {
            if bool::from(candidate.as_bytes().ct_eq(capability.as_bytes())) {
                found = Some(label.clone());
            }
        }
        match found {
            Some(label) => {
                map.remove(&id);
                Redeemed::Option(label)
            }
            None => Redeemed::Wrong,
        }
    }

    /// Kills a question's capabilities (it closed).
    pub fn forget(&self, id: QuestionId) {
        self.map().remove(&id);
    }

    /// Keeps only the capabilities of questions `keep` accepts (those still pending).
    pub fn retain(&self, mut keep: impl FnMut(&QuestionId) -> bool) {
        self.map().retain(|id, _| keep(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capability_answers_once_for_its_question_only() {
        let capabilities = Capabilities::default();
        let (first, second) = (QuestionId::new_random(), QuestionId::new_random());
        let labels = ["Yes".to_string(), "No".to_string()];
        let issued = capabilities.issue(first, &labels).unwrap();
        let other = capabilities.issue(second, &labels).unwrap();
        assert_eq!(issued.len(), 2);
        assert!(issued.iter().all(|capability| capability.len() == 32));
        assert_ne!(issued, other);
        assert_eq!(capabilities.redeem(first, "guess"), Redeemed::Wrong);
        assert_eq!(capabilities.redeem(first, &other[0]), Redeemed::Wrong);
        assert_eq!(
            capabilities.redeem(first, &issued[1]),
            Redeemed::Option("No".into())
        );
        assert_eq!(capabilities.redeem(first, &issued[1]), Redeemed::Dead);
        assert_eq!(capabilities.redeem(first, &issued[0]), Redeemed::Dead);
        capabilities.forget(second);
        assert_eq!(capabilities.redeem(second, &other[0]), Redeemed::Dead);
    }
}
