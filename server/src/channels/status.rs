//! Each channel's record since the daemon started: what arrived, what failed and why.

use hark_core::model::{ChannelName, ChannelStatus};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// The statuses, by channel and target.
#[derive(Default)]
pub struct Statuses {
    by_target: Mutex<BTreeMap<(ChannelName, String), ChannelStatus>>,
}

impl Statuses {
    fn locked(&self) -> MutexGuard<'_, BTreeMap<(ChannelName, String), ChannelStatus>> {
        self.by_target
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn update(&self, channel: ChannelName, target: &str, change: impl FnOnce(&mut ChannelStatus)) {
        let mut all = self.locked();
        let status = all
            .entry((channel, target.to_string()))
            .or_insert_with(|| ChannelStatus {
                channel,
                target: shown(target),
                sent: 0,
                failures: 0,
                last_sent_at: None,
                last_failure_at: None,
                last_error: None,
            });
        change(status);
    }

    /// A message arrived.
    pub fn sent(&self, channel: ChannelName, target: &str) {
        self.update(channel, target, |status| {
            status.sent += 1;
            status.last_sent_at = Some(chrono::Utc::now());
        });
    }

    /// An attempt failed, for `reason` (a sentence without secrets).
    pub fn failed(&self, channel: ChannelName, target: &str, reason: String) {
        // A service's own words may quote a credential back.
        let reason = crate::security::redact::secrets(&reason);
        tracing::warn!(%channel, target = %shown(target), %reason, "a channel could not deliver");
        self.update(channel, target, |status| {
            status.failures += 1;
            status.last_failure_at = Some(chrono::Utc::now());
            status.last_error = Some(reason);
        });
    }

    /// A request got through after failures: the channel is no longer failing. A channel that
    /// never failed gets no status from this.
    pub fn recovered(&self, channel: ChannelName, target: &str) {
        let mut all = self.locked();
        if let Some(status) = all.get_mut(&(channel, target.to_string()))
            && status.last_error.is_some()
        {
            tracing::info!(%channel, target = %shown(target), "a channel can deliver again");
            status.last_failure_at = None;
            status.last_error = None;
        }
    }

    /// Every status, in a stable order.
    pub fn all(&self) -> Vec<ChannelStatus> {
        self.locked().values().cloned().collect()
    }
}

/// An address as settings, the log and `hark status` show it (`security::redact::address`).
pub use crate::security::redact::address as shown;

/// A failed request in a sentence: the status a server answered, or what went wrong on the
/// way, never the address (its path may hold a push topic) nor a token.
pub fn describe(error: &reqwest::Error) -> String {
    if let Some(status) = error.status() {
        return format!("the server answered {status}");
    }
    let what = if error.is_timeout() {
        "no answer in time"
    } else if error.is_connect() {
        "could not connect"
    } else {
        "the request failed"
    };
    let cause = std::error::Error::source(error)
        .map(|source| format!(": {source}"))
        .unwrap_or_default();
    // The cause of a connection failure names the address, never the path or query.
    format!("{what}{cause}")
}
