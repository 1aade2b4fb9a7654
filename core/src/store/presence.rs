//! Who is there: the browsers connected over the WebSocket, and the waits for an outcome open
//! now, each counted while its guard lives (the daemon's health, the desktop's choices).

use super::Store;
use std::sync::atomic::{AtomicUsize, Ordering};

impl Store {
    /// Counts a connected browser until the returned guard drops.
    pub fn browser_connected(&self) -> BrowserClient {
        self.shared.browser_clients.fetch_add(1, Ordering::SeqCst);
        BrowserClient {
            store: self.clone(),
        }
    }

    /// How many browsers are connected over the WebSocket.
    pub fn browser_clients(&self) -> usize {
        self.shared.browser_clients.load(Ordering::SeqCst)
    }

    /// How many waits for an outcome are open now.
    pub fn waits(&self) -> usize {
        self.shared.waits.load(Ordering::SeqCst)
    }
}

/// A connected browser; dropping it uncounts it.
pub struct BrowserClient {
    store: Store,
}

impl Drop for BrowserClient {
    fn drop(&mut self) {
        self.store
            .shared
            .browser_clients
            .fetch_sub(1, Ordering::SeqCst);
    }
}

/// One open wait, counted for `Store::waits` while it lives.
pub(super) struct OpenWait<'a>(&'a AtomicUsize);

impl<'a> OpenWait<'a> {
    pub(super) fn count(waits: &'a AtomicUsize) -> OpenWait<'a> {
        waits.fetch_add(1, Ordering::SeqCst);
        OpenWait(waits)
    }
}

impl Drop for OpenWait<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
