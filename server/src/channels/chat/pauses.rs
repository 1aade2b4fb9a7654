//! The one pause schedule of every chat app (`backon`): after a failure to reach a service, a
//! first pause of 1 s, doubled after each next failure up to 30 s, and back to 1 s once it
//! works; a service that asks for a longer wait (a rate limit's retry-after) gets it, up to two
//! minutes.

use backon::{BackoffBuilder, ExponentialBackoff, ExponentialBuilder};
use std::time::Duration;

/// The first pause.
pub const FIRST: Duration = Duration::from_secs(1);
/// The longest pause of the schedule.
pub const LONGEST: Duration = Duration::from_secs(30);
/// The longest wait a service's own retry-after is granted.
pub const LONGEST_ASKED: Duration = Duration::from_secs(120);
/// How long credentials a service refused wait before they are tried again without new
/// settings.
pub const REFUSED_WAIT: Duration = Duration::from_secs(300);

/// Where in the schedule an app is.
pub struct Pauses {
    schedule: ExponentialBackoff,
}

impl Default for Pauses {
    fn default() -> Self {
        Pauses {
            schedule: ExponentialBuilder::default()
                .with_min_delay(FIRST)
                .with_max_delay(LONGEST)
                .with_factor(2.0)
                .without_max_times()
                .build(),
        }
    }
}

impl Pauses {
    /// The pause after one more failure; `asked` is what the service asked for, if it did.
    pub fn next(&mut self, asked: Option<Duration>) -> Duration {
        let scheduled = self.schedule.next().unwrap_or(LONGEST);
        // A service that asks for no wait at all still gets the first pause: no hammering.
        asked.map_or(scheduled, |asked| asked.clamp(FIRST, LONGEST_ASKED))
    }

    /// It worked: the next failure pauses the first pause again.
    pub fn reset(&mut self) {
        *self = Pauses::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_to_the_longest_honour_what_is_asked_and_start_over() {
        let mut pauses = Pauses::default();
        let seen: Vec<u64> = (0..7).map(|_| pauses.next(None).as_secs()).collect();
        assert_eq!(seen, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(
            pauses.next(Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(pauses.next(Some(Duration::from_secs(3600))), LONGEST_ASKED);
        assert_eq!(pauses.next(Some(Duration::ZERO)), FIRST);
        pauses.reset();
        assert_eq!(pauses.next(None), FIRST);
    }
}
