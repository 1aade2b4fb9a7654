//! The questions a shim (or an `/mcp` session) asked and has not seen closed, and what
//! becomes of them when its client goes away: they are abandoned, as SPEC §12's late-answer
//! rules then say.

use crate::client::connection::Connection;
use hark_core::model::{AskRequest, QuestionId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Questions this shim asked and has not seen closed: needed to label answers, and withdrawn
/// when the client goes away.
pub(super) type OpenQuestions = Arc<Mutex<HashMap<QuestionId, AskRequest>>>;

/// The end of an `/mcp` session: its questions still waiting are abandoned, as when a shim's
/// client goes away (the late-answer rules of SPEC §12 then apply).
pub(super) struct SessionEnd {
    pub(super) connection: Connection,
    pub(super) open: OpenQuestions,
}

impl Drop for SessionEnd {
    fn drop(&mut self) {
        let open: Vec<QuestionId> = self
            .open
            .lock()
            .map(|mut open| open.drain().map(|(id, _)| id).collect())
            .unwrap_or_default();
        if open.is_empty() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let connection = self.connection.clone();
        runtime.spawn(async move {
            for id in open {
                let _ = connection.client().abandon(id).await;
            }
        });
    }
}
