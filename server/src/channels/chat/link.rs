//! The one supervisor of a chat app's connection to its service (Slack's Socket Mode, Discord's
//! Gateway, Feishu's long connection): while the app is on and has its credentials it keeps a
//! connection, by calling the app's `listen` again each time one ends; one that cannot be
//! opened waits the shared pause schedule (or what the service asked for), credentials the
//! service refused wait for new settings; a settings change wakes it, the daemon's shutdown
//! stops it.

use super::pauses::{Pauses, REFUSED_WAIT};
use super::{ChatApp, Inbound, Input, Shared};
use crate::channels::Relay;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// How one connection ended.
#[derive(Debug)]
pub enum LinkEnded {
    /// It was a connection, and it ended: the next is opened after this wait (zero: at once),
    /// and the pause schedule starts over.
    Again(Duration),
    /// It could not be opened, or ended before it was of use: the next waits its pause, or
    /// as long as the service asked.
    Failed {
        reason: String,
        retry_after: Option<Duration>,
    },
    /// The service will not take these credentials: wait for new settings.
    Refused(String),
    /// The settings changed what the connection was opened with: look at them afresh.
    Settings,
    Shutdown,
}

/// What a connection has at hand while it listens.
pub struct Listening<'a, A: ChatApp> {
    pub relay: &'a Arc<Relay>,
    pub shared: &'a Shared,
    pub shutdown: &'a CancellationToken,
    /// The service's address, as statuses name it.
    server: &'a str,
    app: &'a A,
    inbox: &'a mpsc::Sender<Input<A::Responder>>,
    /// Whether the connection got through at least once: the pause schedule starts over.
    worked: AtomicBool,
}

impl<A: ChatApp> Listening<'_, A> {
    /// Hands what the service sent to the engine, waiting while its inbox is full (the service
    /// was told it arrived, so it must not be dropped).
    pub async fn hand(&self, inbound: Inbound<A::Responder>) {
        let _ = self.inbox.send(Input::Inbound(inbound)).await;
    }

    /// Waits until the engine has taken what was handed before and kept its record (a poll's
    /// cursor may then move past it).
    pub async fn settled(&self) {
        let (settled, done) = tokio::sync::oneshot::channel();
        if self.inbox.send(Input::Settled(settled)).await.is_ok() {
            let _ = done.await;
        }
    }

    /// The connection is up (or down): settings and `hark status` say so.
    pub fn connected(&self, connected: bool) {
        self.shared.set_connected(connected);
        if connected {
            self.worked.store(true, Ordering::SeqCst);
            self.relay.statuses.sent(A::NAME, self.server);
        }
    }

    /// A request of the connection got through (a poll): it is no longer failing.
    pub fn working(&self) {
        self.worked.store(true, Ordering::SeqCst);
        (self.relay.statuses).recovered(A::NAME, &A::link_target(self.server));
    }

    /// Whether the settings still hold what a connection was opened with (`key`).
    pub fn same_settings(&self, key: u64) -> bool {
        super::line_of(self.app, self.relay).is_some_and(|line| A::link_key(&line) == key)
    }

    /// Resolves when the settings change, or the daemon stops: `true` for a stop.
    pub async fn woken(&self) -> bool {
        tokio::select! {
            () = self.shared.wake.notified() => false,
            () = self.shutdown.cancelled() => true,
        }
    }
}

/// Keeps the app's connection while it is on, until the daemon stops.
pub async fn supervise<A: ChatApp>(
    relay: Arc<Relay>,
    app: Arc<A>,
    shared: Arc<Shared>,
    inbox: mpsc::Sender<Input<A::Responder>>,
) {
    let shutdown = relay.store.shutdown_token().clone();
    let mut pauses = Pauses::default();
    let mut state = A::LinkState::default();
    loop {
        // Registered before the settings are read, so a change while the connection opens
        // (or fails to) is not missed by the wait below.
        let wake = shared.wake.notified();
        tokio::pin!(wake);
        wake.as_mut().enable();
        let Some(line) = super::line_of(&*app, &relay) else {
            shared.set_connected(false);
            state = A::LinkState::default();
            tokio::select! {
                () = wake => continue,
                () = shutdown.cancelled() => return,
            }
        };
        let listening = Listening {
            relay: &relay,
            shared: &shared,
            shutdown: &shutdown,
            server: &line.server,
            app: &*app,
            inbox: &inbox,
            worked: AtomicBool::new(false),
        };
        let ended = app.listen(&listening, &line, &mut state).await;
        shared.set_connected(false);
        if listening.worked.load(Ordering::SeqCst) {
            pauses.reset();
        }
        let wait = match ended {
            LinkEnded::Shutdown => return,
            LinkEnded::Settings => continue,
            LinkEnded::Again(wait) => {
                pauses.reset();
                if wait.is_zero() {
                    continue;
                }
                wait
            }
            LinkEnded::Failed {
                reason,
                retry_after,
            } => {
                tracing::warn!(channel = %A::NAME, %reason, "could not keep the connection");
                relay
                    .statuses
                    .failed(A::NAME, &A::link_target(&line.server), reason);
                pauses.next(retry_after)
            }
            LinkEnded::Refused(reason) => {
                tracing::warn!(channel = %A::NAME, %reason, "the service refused the connection");
                relay
                    .statuses
                    .failed(A::NAME, &A::link_target(&line.server), reason);
                REFUSED_WAIT
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = wake => {}
            () = shutdown.cancelled() => return,
        }
    }
}
