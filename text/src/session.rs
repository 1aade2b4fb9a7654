//! An agent session in words (SPEC §20): the notice the desktop, pushes and chat apps give when
//! an agent finishes its turn or waits for the person in its own dialog: who ("claude-code ·
//! shop") did what, and what it said last, cut to fit.

use crate::lookup::t_in;
use crate::plain::cut_chars;
use hark_core::model::{AgentSession, Lang, SessionNotice};

/// The most of an agent's last message a notice carries, in characters.
pub const NOTICE_CHARS: usize = 600;

/// A notice: its title, and what the agent said last (cut to `NOTICE_CHARS`), if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub title: String,
    pub said: Option<String>,
}

impl Notice {
    /// The notice as one text: the title, then what was said.
    pub fn text(&self) -> String {
        match &self.said {
            Some(said) => format!("{}\n\n{said}", self.title),
            None => self.title.clone(),
        }
    }
}

/// The notice `session` gives when its state is one the person is told of (`notify_on`).
pub fn notice(lang: Lang, session: &AgentSession, notify_on: &[SessionNotice]) -> Option<Notice> {
    let kind = SessionNotice::of(session.state).filter(|kind| notify_on.contains(kind))?;
    let agent = session.agent.label();
    let title = match kind {
        SessionNotice::Finished => {
            t_in(lang, "session-notice-finished", &[("agent", agent.into())])
        }
        SessionNotice::Waiting => t_in(lang, "session-notice-waiting", &[("agent", agent.into())]),
    };
    let said = (session.last_message.as_deref())
        .map(str::trim)
        .filter(|said| !said.is_empty())
        .map(|said| cut_chars(said, NOTICE_CHARS));
    Some(Notice { title, said })
}
