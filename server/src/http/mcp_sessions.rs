//! The `/mcp` sessions (MCP before 2026-07-28), at most `MOST_SESSIONS` of them: rmcp's
//! `LocalSessionManager` keeps every session a day from its last message, and each costs about
//! 100 KB, so a client opening sessions in a loop would grow the daemon without end. A new
//! session past the most closes the one used least lately that has no call in flight (a call
//! waiting for the person is never cut); when every session has one, the new one is refused.
//! Written here because rmcp's manager has no bound of its own.

use futures::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Sessions kept at most: far more than the agents one person runs at once.
pub const MOST_SESSIONS: usize = 128;

/// When each session was last used, and how many of its calls are in flight.
#[derive(Default)]
struct Use {
    last: HashMap<SessionId, (Instant, usize)>,
}

/// rmcp's manager, bounded.
pub struct CappedSessions {
    inner: LocalSessionManager,
    used: Arc<Mutex<Use>>,
}

impl CappedSessions {
    pub fn new(inner: LocalSessionManager) -> CappedSessions {
        CappedSessions {
            inner,
            used: Arc::default(),
        }
    }

    fn used(&self) -> MutexGuard<'_, Use> {
        self.used
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn touch(&self, id: &SessionId) {
        if let Some((last, _)) = self.used().last.get_mut(id) {
            *last = Instant::now();
        }
    }

    /// Counts a call in flight in `id` until the returned guard drops.
    fn busy(&self, id: &SessionId) -> Busy {
        if let Some((last, calls)) = self.used().last.get_mut(id) {
            *last = Instant::now();
            *calls += 1;
        }
        Busy {
            id: id.clone(),
            used: self.used.clone(),
        }
    }
}

/// A call in flight.
struct Busy {
    id: SessionId,
    used: Arc<Mutex<Use>>,
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut used = self
            .used
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some((last, calls)) = used.last.get_mut(&self.id) {
            *last = Instant::now();
            *calls = calls.saturating_sub(1);
        }
    }
}

/// The most sessions are open and every one has a call in flight.
#[derive(Debug, thiserror::Error)]
pub enum CappedError {
    #[error("{MOST_SESSIONS} MCP sessions are open and busy; close one first")]
    Full,
    #[error(transparent)]
    Inner(#[from] LocalSessionManagerError),
}

impl SessionManager for CappedSessions {
    type Error = CappedError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // Sessions rmcp dropped after a day idle leave no count behind.
        let known: Vec<SessionId> = self.used().last.keys().cloned().collect();
        if known.len() >= MOST_SESSIONS {
            for id in known {
                if !self.inner.has_session(&id).await? {
                    self.used().last.remove(&id);
                }
            }
        }
        let dropped = {
            let mut used = self.used();
            if used.last.len() >= MOST_SESSIONS {
                let idle = used
                    .last
                    .iter()
                    .filter(|(_, (_, calls))| *calls == 0)
                    .min_by_key(|(_, (last, _))| *last)
                    .map(|(id, _)| id.clone());
                let Some(idle) = idle else {
                    return Err(CappedError::Full);
                };
                used.last.remove(&idle);
                Some(idle)
            } else {
                None
            }
        };
        if let Some(idle) = dropped {
            tracing::info!("closed the least lately used MCP session: too many are open");
            self.inner.close_session(&idle).await?;
        }
        let (id, transport) = self.inner.create_session().await?;
        self.used().last.insert(id.clone(), (Instant::now(), 0));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.used().last.remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let busy = self.busy(id);
        let stream = self.inner.create_stream(id, message).await?;
        // The call is in flight as long as its answer's stream is open.
        Ok(stream.map(move |message| {
            let _ = &busy;
            message
        }))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(self.inner.restore_session(id).await?)
    }
}
