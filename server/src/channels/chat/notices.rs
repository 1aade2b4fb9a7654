//! Agent sessions in the chat (SPEC §20): when an agent finishes its turn or waits for the person
//! in its own dialog (as `notifyOn` says), the paired person reads so, with what it said last
//! and how to answer; a reply to that message is a "Tell the agent…" for it. One message per
//! session, updated where the app can edit (a text-only app posts anew), so several agents
//! finishing at once do not flood the chat.

use super::engine::Engine;
use super::{ChatApp, Lined, ServiceError};
use hark_core::model::{AgentRef, AgentSession, SessionState};

/// Sessions whose message is kept, to update it; past it, the oldest is forgotten.
const NOTICES_KEPT: usize = 50;

/// One session's message in the chat.
pub(super) struct Notice<A: ChatApp> {
    /// The session's id (`AgentSession::id`).
    session: String,
    agent: AgentRef,
    view: A::View,
    posted: Option<A::Message>,
    /// Whether the message shows `view` already.
    shown: bool,
}

impl<A: ChatApp> Engine<A> {
    /// A session changed: a notice to post (or update) when the person is told of its state.
    pub(super) fn follow_session(&mut self, session: &AgentSession) {
        // A tell without a reply is no longer for an agent whose session ended.
        if session.state == SessionState::Ended
            && (self.last_noticed.as_ref()).is_some_and(|agent| agent.matches(&session.agent))
        {
            self.last_noticed = None;
        }
        if self.person().is_none() {
            return;
        }
        let notify_on = self
            .relay
            .store
            .read_config(|config| config.notify_on.clone());
        let words = self.words();
        let Some(notice) = hark_text::session::notice(words.lang, session, &notify_on) else {
            return;
        };
        let text = format!(
            "{}\n\n{}",
            notice.text(),
            words.in_app("chat-session-reply")
        );
        let view = self.app.said(&text);
        self.last_noticed = Some(session.agent.clone());
        let known = (self.notices.iter()).position(|kept| kept.session == session.id);
        let posted = known.and_then(|index| self.notices.remove(index).posted);
        self.notices.push(Notice {
            session: session.id.clone(),
            agent: session.agent.clone(),
            view,
            posted: posted.filter(|_| !A::TEXT_ONLY),
            shown: false,
        });
        if self.notices.len() > NOTICES_KEPT {
            self.notices.remove(0);
        }
    }

    /// Posts or updates the notices not shown yet; `Ok(true)` when something went out.
    pub(super) async fn sync_notices(
        &mut self,
        line: &Lined<A>,
        at: &str,
    ) -> Result<bool, ServiceError> {
        let mut sent = false;
        for index in 0..self.notices.len() {
            if self.notices[index].shown {
                continue;
            }
            match self.show_notice(line, at, index).await {
                Ok(()) => sent = true,
                Err(error) if error.passing() => return Err(error),
                Err(error) => {
                    tracing::warn!(channel = %A::NAME, %error, "a session's notice was refused");
                }
            }
            self.notices[index].shown = true;
        }
        Ok(sent)
    }

    /// Updates the notice's message, or posts it (anew when the old one is gone).
    async fn show_notice(
        &mut self,
        line: &Lined<A>,
        at: &str,
        index: usize,
    ) -> Result<(), ServiceError> {
        let notice = &self.notices[index];
        if let Some(message) = &notice.posted {
            match self.app.update(line, at, message, &notice.view).await {
                Err(error) if error.gone() => {}
                updated => return updated,
            }
        }
        let posted = self.app.post(line, at, &notice.view).await?;
        let agent = notice.agent.clone();
        self.remember_finished_message(A::message_id(&posted), agent);
        self.notices[index].posted = Some(posted);
        Ok(())
    }

    /// A reply to `message` from now on tells `agent` (a closed question's, a notice's).
    pub(super) fn remember_finished_message(&mut self, message: String, agent: AgentRef) {
        if self.finished.len() >= super::engine::FINISHED_KEPT {
            self.finished.pop_front();
        }
        self.finished.push_back((message, agent));
    }
}
