//! Waiting for a change to be on disk, then finishing it (releasing its waiters, or rolling a
//! refused write back). A caller that goes away mid-fsync (a dropped connection) hands the wait
//! and its finish to a task, so nothing is left half-done.

use super::{Durable, Store, StoreError};
use crate::log::Ack;

impl Store {
    /// Waits until a change is durable (or refused), then runs `finish` with the outcome. A
    /// caller that goes away mid-fsync (a dropped connection) hands the wait and `finish` to a
    /// task, so waiters are still released and a refusal still rolled back.
    pub(super) async fn settle<F>(&self, durable: Durable, finish: F) -> Result<(), StoreError>
    where
        F: FnOnce(&Store, &Result<(), StoreError>) + Send + 'static,
    {
        match durable {
            Durable::Now => {
                let recorded = Ok(());
                finish(self, &recorded);
                recorded
            }
            Durable::Queued(ack) => {
                Settling {
                    store: self.clone(),
                    ack: Some(ack),
                    finish: Some(finish),
                }
                .wait()
                .await
            }
        }
    }
}

/// A change on its way to the disk and what follows it (see `Store::settle`).
struct Settling<F: FnOnce(&Store, &Result<(), StoreError>) + Send + 'static> {
    store: Store,
    ack: Option<Ack>,
    finish: Option<F>,
}

impl<F: FnOnce(&Store, &Result<(), StoreError>) + Send + 'static> Settling<F> {
    async fn wait(mut self) -> Result<(), StoreError> {
        // Awaited in place (not taken out), so a drop mid-wait still finds it.
        let recorded = match self.ack.as_mut() {
            Some(ack) => acknowledged(ack.await),
            None => Ok(()),
        };
        self.ack = None;
        if let Some(finish) = self.finish.take() {
            finish(&self.store, &recorded);
        }
        recorded
    }
}

impl<F: FnOnce(&Store, &Result<(), StoreError>) + Send + 'static> Drop for Settling<F> {
    fn drop(&mut self) {
        if let (Some(ack), Some(finish)) = (self.ack.take(), self.finish.take()) {
            let store = self.store.clone();
            tokio::spawn(async move {
                let recorded = acknowledged(ack.await);
                finish(&store, &recorded);
            });
        }
    }
}

/// What the writer's reply says.
fn acknowledged(
    reply: Result<Result<(), crate::log::LogError>, tokio::sync::oneshot::error::RecvError>,
) -> Result<(), StoreError> {
    match reply {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => Err(StoreError::Storage(error.0)),
        Err(_) => Err(StoreError::Storage("the history writer stopped".into())),
    }
}
