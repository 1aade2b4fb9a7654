//! How often a chat channel answers someone who is not its paired person: at most
//! `STRANGER_REPLIES` in `STRANGER_WINDOW` each, so a stranger cannot make the channel spend the
//! service's rate limit on them.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::Duration;
use tokio::time::Instant;

const STRANGER_REPLIES: usize = 5;
const STRANGER_WINDOW: Duration = Duration::from_secs(10 * 60);

/// The replies given to strangers lately, by sender.
#[derive(Default)]
pub struct Refusals<K> {
    by_sender: HashMap<K, Vec<Instant>>,
}

impl<K: Hash + Eq> Refusals<K> {
    /// Whether `sender` may get one more reply now (and counts it).
    pub fn allow(&mut self, sender: K) -> bool {
        let now = Instant::now();
        // Forgetting old entries keeps the map as small as the window's strangers.
        self.by_sender.retain(|_, times| {
            times.retain(|at| now.duration_since(*at) < STRANGER_WINDOW);
            !times.is_empty()
        });
        let times = self.by_sender.entry(sender).or_default();
        if times.len() >= STRANGER_REPLIES {
            return false;
        }
        times.push(now);
        true
    }
}
