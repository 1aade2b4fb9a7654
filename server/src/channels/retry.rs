//! Retrying one request of a push or a delivery with backoff (`backon`): a number of attempts,
//! a first pause after the first failure, doubled after each one; ntfy's and webhooks'
//! schedules are here. A chat app's pauses between tries of its service are `chat::pauses`.

use backon::{ExponentialBuilder, Retryable};
use std::future::Future;
use std::time::Duration;

/// A push to ntfy: three attempts, 0.5 then 1 s apart.
pub const PUSH: Schedule = Schedule {
    attempts: 3,
    first_pause: Duration::from_millis(500),
};

/// A webhook's delivery: six attempts, 0.5, 1, 2, 4 and 8 s apart (about 15 s in all).
pub const DELIVERY: Schedule = Schedule {
    attempts: 6,
    first_pause: Duration::from_millis(500),
};

/// How a channel retries: `attempts` in all, pausing `first_pause` after the first failure and
/// twice as long after each next one.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub attempts: u32,
    pub first_pause: Duration,
}

impl Schedule {
    /// The same pauses, with `attempts` in all (one: no retry, for a test the person awaits).
    pub fn with_attempts(self, attempts: u32) -> Schedule {
        Schedule { attempts, ..self }
    }

    fn backoff(self) -> ExponentialBuilder {
        ExponentialBuilder::default()
            .with_min_delay(self.first_pause)
            .with_factor(2.0)
            .without_max_delay()
            .with_max_times(self.attempts.saturating_sub(1) as usize)
    }
}

/// Runs `attempt` (given its number, from 1) until it succeeds or the schedule is spent, and
/// returns the last failure then. The attempt itself records what happened in the channel's
/// status, so every failure counts, the last one too.
///
/// # Errors
/// The last attempt's failure.
pub async fn retried<T, E, Fut>(
    schedule: Schedule,
    mut attempt: impl FnMut(u32) -> Fut,
) -> Result<T, E>
where
    Fut: Future<Output = Result<T, E>>,
{
    let mut made = 0;
    (move || {
        made += 1;
        attempt(made)
    })
    .retry(schedule.backoff())
    .sleep(tokio::time::sleep)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[tokio::test(start_paused = true)]
    async fn every_attempt_is_made_with_doubling_pauses_then_the_last_failure_returned() {
        let schedule = Schedule {
            attempts: 4,
            first_pause: Duration::from_millis(500),
        };
        let tries = AtomicU32::new(0);
        let started = tokio::time::Instant::now();
        let result: Result<(), String> = retried(schedule, |number| {
            tries.fetch_add(1, Ordering::SeqCst);
            async move { Err(format!("attempt {number}")) }
        })
        .await;
        assert_eq!(result, Err("attempt 4".to_string()));
        assert_eq!(tries.load(Ordering::SeqCst), 4);
        // 0.5 + 1 + 2 s of pauses, on the paused clock.
        assert_eq!(started.elapsed(), Duration::from_millis(3500));
    }

    #[tokio::test(start_paused = true)]
    async fn a_success_ends_the_retries_and_one_attempt_means_no_retry() {
        let schedule = Schedule {
            attempts: 5,
            first_pause: Duration::from_secs(1),
        };
        let result: Result<u32, String> = retried(schedule, |number| async move {
            if number < 2 {
                Err("not yet".into())
            } else {
                Ok(number)
            }
        })
        .await;
        assert_eq!(result, Ok(2));
        let once: Result<(), String> = retried(schedule.with_attempts(1), |number| async move {
            Err(format!("attempt {number}"))
        })
        .await;
        assert_eq!(once, Err("attempt 1".to_string()));
    }
}
