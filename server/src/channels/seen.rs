//! What a chat channel has already taken, by id, so a service that delivers something twice
//! (Slack's retries, Feishu's redeliveries) is heard once. Only the latest `KEPT` are
//! remembered: a repeat comes within seconds, and the memory stays bounded.

use std::collections::VecDeque;

/// How many ids are remembered.
const KEPT: usize = 256;

#[derive(Default)]
pub struct Seen {
    ids: VecDeque<String>,
}

impl Seen {
    /// Whether `id` is new; it is remembered from now on.
    pub fn first_time(&mut self, id: &str) -> bool {
        if self.ids.iter().any(|known| known == id) {
            return false;
        }
        if self.ids.len() >= KEPT {
            self.ids.pop_front();
        }
        self.ids.push_back(id.to_string());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_new_once_and_the_oldest_are_forgotten() {
        let mut seen = Seen::default();
        assert!(seen.first_time("a"));
        assert!(!seen.first_time("a"));
        for n in 0..KEPT {
            seen.first_time(&n.to_string());
        }
        assert!(seen.first_time("a"), "forgotten after KEPT newer ones");
    }
}
