//! Agent sessions (SPEC §20): what each agent's hooks say it is doing, and what its questions
//! show (asking while one waits in Hark, working again once they are answered). A change of
//! state, or a new last message, goes out as `session:updated` and onto the log, so the list
//! survives a restart; a session quiet past `sessionIdleSecs` ends and leaves it.

use super::{Durable, Store, StoreError, now};
use crate::model::session::{MAX_LAST_MESSAGE_CHARS, MAX_SESSIONS};
use crate::model::{
    AgentRef, AgentSession, Event, SessionReport, SessionState, Source, validate_report,
};
use chrono::{DateTime, Utc};

/// How often, at most, that a session was heard from is written down when nothing else of it
/// changed, in seconds.
const SEEN_KEPT_EVERY: i64 = 300;

impl Store {
    /// Takes what an agent's hook says it is doing; returns the session as it now stands, once
    /// it is durable.
    ///
    /// # Errors
    /// `Invalid` naming the field; `Storage` when the disk refused it.
    pub async fn report_session(&self, report: SessionReport) -> Result<AgentSession, StoreError> {
        let state = validate_report(&report)?;
        let last_message = report
            .last_message
            .map(|text| cut(text.trim()))
            .filter(|text| !text.is_empty());
        let (session, durable) = self.change_session(
            &report.agent,
            report.session_id.as_deref(),
            state,
            last_message,
        );
        self.settle(durable, |_, _| {}).await?;
        Ok(session)
    }

    /// The sessions Hark knows, the one heard from last first; those quiet past
    /// `sessionIdleSecs` end first.
    pub fn sessions(&self) -> Vec<AgentSession> {
        self.end_idle_sessions();
        self.state().sessions.clone()
    }

    /// A question of `source`'s agent waits in Hark (`asking`), or no longer (`false`: it is
    /// at work again, unless another of its questions still waits, or it has said since that it
    /// waits or finished).
    pub(super) fn session_asks(&self, source: Option<&Source>, asking: bool) {
        let Some(agent) = source.and_then(AgentRef::of) else {
            return;
        };
        if !asking {
            let state = self.state();
            let still_asking = state.entries.values().any(|entry| {
                entry.question.is_pending()
                    && (entry.question.source.as_ref())
                        .and_then(AgentRef::of)
                        .is_some_and(|asker| asker.matches(&agent))
            });
            let asked_last = state
                .sessions
                .iter()
                .find(|session| session.is(&agent, None));
            if still_asking
                || asked_last.is_none_or(|session| session.state != SessionState::Asking)
            {
                return;
            }
        }
        let state = if asking {
            SessionState::Asking
        } else {
            SessionState::Working
        };
        // Not awaited: the question's own write is what its caller waits for.
        let _ = self.change_session(&agent, None, state, None);
    }

    /// Brings back the sessions the log held at start; those already quiet past
    /// `sessionIdleSecs` leave the log too.
    pub(super) fn restore_sessions(&self, newest_first: Vec<AgentSession>) {
        let idle = self.idle_since();
        let (kept, gone): (Vec<_>, Vec<_>) = newest_first
            .into_iter()
            .partition(|session| session.seen_at > idle);
        if let Some(log) = &self.shared.log {
            for session in gone {
                drop(log.append_session(session.id, None));
            }
        }
        self.state().sessions = kept;
    }

    /// Sets the session of `agent` (and `session_id`) to `state`, made if new; announces and
    /// records a change of state or of its last message (and, now and then, that it was heard
    /// from, so a restart does not take a busy session for a quiet one).
    fn change_session(
        &self,
        agent: &AgentRef,
        session_id: Option<&str>,
        state: SessionState,
        last_message: Option<String>,
    ) -> (AgentSession, Durable) {
        let at = now();
        let mut guard = self.state();
        let sessions = &mut guard.sessions;
        let found = sessions
            .iter()
            .position(|session| session.is(agent, session_id));
        let mut session = match found {
            Some(index) => sessions.remove(index),
            None => AgentSession {
                id: uuid::Uuid::new_v4().simple().to_string(),
                agent: agent.clone(),
                session_id: session_id.map(str::to_string),
                state,
                since: at,
                seen_at: at,
                last_message: None,
                shown: None,
            },
        };
        let changed = found.is_none()
            || session.state != state
            || (last_message.is_some() && last_message != session.last_message);
        let heard_long_ago = at - session.seen_at > chrono::Duration::seconds(SEEN_KEPT_EVERY);
        if session.state != state {
            session.since = at;
        }
        session.state = state;
        session.seen_at = at;
        if session.session_id.is_none() {
            session.session_id = session_id.map(str::to_string);
        }
        if last_message.is_some() {
            session.last_message = last_message;
        }
        let mut evicted = Vec::new();
        if state != SessionState::Ended {
            sessions.insert(0, session.clone());
            evicted = sessions.split_off(sessions.len().min(MAX_SESSIONS));
        }
        for gone in evicted {
            self.end_session(gone);
        }
        if changed {
            self.announce(|| Event::SessionUpdated(session.clone()));
        } else if !heard_long_ago {
            return (session, Durable::Now);
        }
        let kept = (state != SessionState::Ended).then_some(&session);
        let durable = match &self.shared.log {
            Some(log) => Durable::Queued(log.append_session(session.id.clone(), kept)),
            None => Durable::Now,
        };
        (session, durable)
    }

    /// Ends the sessions quiet past `sessionIdleSecs` (the reminder ticker calls it too).
    pub(super) fn end_idle_sessions(&self) {
        let idle = self.idle_since();
        let mut state = self.state();
        let (gone, kept) = std::mem::take(&mut state.sessions)
            .into_iter()
            .partition(|session| session.seen_at <= idle);
        state.sessions = kept;
        // Under the lock, so a report that comes meanwhile is ordered after the ending.
        for session in gone {
            self.end_session(session);
        }
    }

    /// Says `session` ended (it is out of the list already) and removes its row.
    fn end_session(&self, mut session: AgentSession) {
        session.state = SessionState::Ended;
        session.since = now();
        if let Some(log) = &self.shared.log {
            drop(log.append_session(session.id.clone(), None));
        }
        self.announce(|| Event::SessionUpdated(session));
    }

    fn idle_since(&self) -> DateTime<Utc> {
        let idle = self.read_config(|config| config.session_idle_secs);
        now() - chrono::Duration::seconds(i64::try_from(idle).unwrap_or(i64::MAX / 2))
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_LAST_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AskRequest, SubQuestion};
    use tokio_util::sync::CancellationToken;

    fn claude(cwd: &str) -> AgentRef {
        AgentRef {
            client: "claude-code".into(),
            cwd: Some(cwd.into()),
        }
    }

    fn report(state: SessionState, last: Option<&str>) -> SessionReport {
        SessionReport {
            agent: claude("/w/hark"),
            session_id: Some("s1".into()),
            state: Some(state),
            last_message: last.map(str::to_string),
        }
    }

    #[tokio::test]
    async fn a_session_moves_through_its_states_and_says_so_once_each() {
        let store = Store::open(None, CancellationToken::new()).0;
        let mut events = store.subscribe();
        store
            .report_session(report(SessionState::Working, None))
            .await
            .unwrap();
        store
            .report_session(report(SessionState::Working, None))
            .await
            .unwrap();
        let finished = store
            .report_session(report(SessionState::Finished, Some("All done.")))
            .await
            .unwrap();
        assert_eq!(finished.last_message.as_deref(), Some("All done."));
        let mut states = Vec::new();
        while let Ok(event) = events.try_recv() {
            if let Event::SessionUpdated(session) = &*event {
                states.push(session.state);
            }
        }
        assert_eq!(states, [SessionState::Working, SessionState::Finished]);
        assert_eq!(store.sessions().len(), 1);
        store
            .report_session(report(SessionState::Ended, None))
            .await
            .unwrap();
        assert!(store.sessions().is_empty());
    }

    #[tokio::test]
    async fn its_questions_show_it_asking_then_working() {
        let store = Store::open(None, CancellationToken::new()).0;
        store
            .report_session(report(SessionState::Working, None))
            .await
            .unwrap();
        let asked = store
            .create(AskRequest {
                questions: vec![SubQuestion::text("Deploy?")],
                source: Some(Source {
                    client: Some("claude-code 2.1".into()),
                    cwd: Some("/w/hark".into()),
                    pid: None,
                }),
                ..AskRequest::default()
            })
            .await
            .unwrap()
            .question()
            .id;
        assert_eq!(store.sessions()[0].state, SessionState::Asking);
        store
            .close(asked, super::super::Outcome::Declined { note: None }, None)
            .await
            .unwrap();
        assert_eq!(store.sessions()[0].state, SessionState::Working);
        assert_eq!(store.sessions().len(), 1, "one session, known by its agent");
    }

    #[tokio::test]
    async fn sessions_survive_a_restart_and_an_ended_one_does_not() {
        let home = tempfile::tempdir().unwrap();
        {
            let (store, _) = Store::open_persistent(home.path(), CancellationToken::new())
                .await
                .unwrap();
            store
                .report_session(report(SessionState::Finished, Some("Built it.")))
                .await
                .unwrap();
            let mut other = report(SessionState::Working, None);
            other.session_id = Some("s2".into());
            store.report_session(other.clone()).await.unwrap();
            other.state = Some(SessionState::Ended);
            store.report_session(other).await.unwrap();
            store.close_log().await;
        }
        let (store, _) = Store::open_persistent(home.path(), CancellationToken::new())
            .await
            .unwrap();
        let sessions = store.sessions();
        assert_eq!(sessions.len(), 1);
        assert_eq!(sessions[0].session_id.as_deref(), Some("s1"));
        assert_eq!(sessions[0].last_message.as_deref(), Some("Built it."));
    }

    #[tokio::test]
    async fn a_session_quiet_past_session_idle_secs_ends() {
        let store = Store::open(None, CancellationToken::new()).0;
        store
            .update_config(&serde_json::json!({"sessionIdleSecs": 3600}))
            .await
            .unwrap();
        store
            .report_session(report(SessionState::Finished, None))
            .await
            .unwrap();
        let mut events = store.subscribe();
        store.state().sessions[0].seen_at = now() - chrono::Duration::seconds(3599);
        assert_eq!(store.sessions().len(), 1, "not quiet long enough yet");
        store.state().sessions[0].seen_at = now() - chrono::Duration::seconds(3601);
        assert!(store.sessions().is_empty());
        let Event::SessionUpdated(ended) = &*events.try_recv().unwrap() else {
            panic!("no session:updated");
        };
        assert_eq!(ended.state, SessionState::Ended);
    }

    #[test]
    fn a_long_last_message_is_cut() {
        let long = "x".repeat(MAX_LAST_MESSAGE_CHARS + 10);
        assert_eq!(cut(&long).chars().count(), MAX_LAST_MESSAGE_CHARS + 1);
        assert_eq!(cut("short"), "short");
    }
}
