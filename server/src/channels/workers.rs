//! Pushes and deliveries in order, without holding up the relay: one worker per target (ntfy's
//! server, each webhook's address), started on first use and stopped with the daemon; its queue
//! is bounded, so a target that is down costs the daemon nothing but the jobs it drops, each
//! counted in the target's status.

use super::Relay;
use hark_core::model::ChannelName;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Jobs waiting per target at most; past this, new ones are dropped.
const QUEUE: usize = 256;

/// Each target's queue.
pub struct Workers<J> {
    queues: Mutex<HashMap<String, mpsc::Sender<J>>>,
}

impl<J> Default for Workers<J> {
    fn default() -> Self {
        Workers {
            queues: Mutex::default(),
        }
    }
}

impl<J: Send + 'static> Workers<J> {
    /// Queues `job` for `target` without waiting; its worker, started with `work` on first use,
    /// does each job in turn.
    pub fn send<F>(
        &self,
        relay: &Arc<Relay>,
        channel: ChannelName,
        target: &str,
        job: J,
        work: impl Fn(J) -> F + Send + 'static,
    ) where
        F: Future<Output = ()> + Send,
    {
        let mut queues = self
            .queues
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let queue = queues.entry(target.to_string()).or_insert_with(|| {
            let (queue, mut jobs) = mpsc::channel(QUEUE);
            let shutdown = relay.store.shutdown_token().clone();
            // A stop ends the wait for a job and the job in hand alike.
            tokio::spawn(shutdown.run_until_cancelled_owned(async move {
                while let Some(job) = jobs.recv().await {
                    work(job).await;
                }
            }));
            queue
        });
        if queue.try_send(job).is_err() {
            let reason = "too many waiting to be sent; this one was dropped".to_string();
            relay.statuses.failed(channel, target, reason);
        }
    }
}
