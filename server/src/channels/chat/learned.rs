//! What a chat app learned from its service and keeps while the daemon runs (who its bot is, the
//! conversation's last context token): one value behind a lock, read as a copy, so no lock is
//! held across an await and a panic elsewhere never leaves it unreadable.

use std::sync::{Mutex, MutexGuard};

/// One learned value, or nothing yet.
pub struct Learned<T>(Mutex<Option<T>>);

impl<T> Default for Learned<T> {
    fn default() -> Self {
        Learned(Mutex::new(None))
    }
}

impl<T: Clone> Learned<T> {
    fn locked(&self) -> MutexGuard<'_, Option<T>> {
        self.0.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// A copy of what is known.
    pub fn get(&self) -> Option<T> {
        self.locked().clone()
    }

    /// Knows `value` from now on (or forgets).
    pub fn set(&self, value: Option<T>) {
        *self.locked() = value;
    }

    /// Changes what is known in place.
    pub fn change(&self, change: impl FnOnce(&mut Option<T>)) {
        change(&mut self.locked());
    }
}
