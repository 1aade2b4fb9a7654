//! The conversation task: one question at a time, oldest first, in the paired WeChat. It sends
//! the sub-question being answered, reads the person's replies through the shared walk, says
//! why a reply does not fit (and shows the question again), follows up when a question closes
//! anywhere, and sends reminders. Texts that could not go out (WeChat unreachable) wait in order
//! and go out, once each, when it is back. Messages from anyone but the paired account change
//! nothing and get no answer.
//!
//! WeChat cannot edit a message, so a reply is taken for the step on screen only when it was
//! written after that step went out: one written before (or while the step waits to go out)
//! was meant for what the person saw then, and is refused with the step shown again. "Written"
//! is WeChat's clock, so the task learns how far it is from ours (`Clocks`).

use super::ilink::{IlinkError, Message, client_id};
use super::record::{Record, RecordFile, Shown};
use super::render;
use super::{CHANNEL, Input, Line, Wechat};
use crate::channels::Relay;
use crate::channels::tell;
use crate::channels::walk::{Misfit, Next, Refusal, Walk};
use hark_core::model::{AnsweredVia, Event, Question, QuestionId};
use hark_core::store::{Outcome, StoreError};
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// Texts waiting for WeChat at most; older ones are dropped first (the page still has them).
const MOST_WAITING: usize = 50;

/// A text to send, with the id WeChat knows it by across retries; `shows` names the question
/// whose step it shows (its sending time makes earlier replies outdated).
struct Outgoing {
    text: String,
    client_id: String,
    shows: Option<QuestionId>,
}

/// The question on screen.
struct Current {
    question: Question,
    walk: Walk,
    /// When its step went out; `None` while it waits to go out.
    sent_at_ms: Option<i64>,
}

/// How far WeChat's clock is behind ours, learnt from its messages: the least of "received
/// here" minus "written there" (the true offset plus the quickest delivery seen).
#[derive(Default)]
struct Clocks {
    behind_ms: Option<i64>,
}

impl Clocks {
    fn learn(&mut self, message: &Message, received_ms: i64) {
        if let Some(written) = message.create_time_ms {
            let behind = received_ms - written;
            self.behind_ms = Some(self.behind_ms.map_or(behind, |least| least.min(behind)));
        }
    }

    /// When `message` was written, by our clock; `None` when WeChat did not say.
    fn written_ms(&self, message: &Message) -> Option<i64> {
        Some(message.create_time_ms? + self.behind_ms.unwrap_or(0))
    }
}

struct Chat {
    relay: Arc<Relay>,
    wechat: Arc<Wechat>,
    file: RecordFile,
    record: Record,
    current: Option<Current>,
    outbox: VecDeque<Outgoing>,
    clocks: Clocks,
    /// Questions whose reminder is due.
    reminder: Option<Vec<QuestionId>>,
    /// Questions WeChat refused for good: not sent again.
    given_up: HashSet<QuestionId>,
    retry_at: Option<Instant>,
    pause: Duration,
}

/// Runs the conversation until the daemon stops.
pub async fn run(relay: Arc<Relay>, wechat: Arc<Wechat>, mut inbox: mpsc::Receiver<Input>) {
    let shutdown = relay.store.shutdown_token().clone();
    let (file, record) = RecordFile::load(relay.home.as_deref()).await;
    let mut chat = Chat {
        relay,
        wechat,
        file,
        record,
        current: None,
        outbox: VecDeque::new(),
        clocks: Clocks::default(),
        reminder: None,
        given_up: HashSet::new(),
        retry_at: None,
        pause: FIRST_PAUSE,
    };
    loop {
        chat.sync().await;
        let retry_at = chat.retry_at;
        let input = tokio::select! {
            input = inbox.recv() => input,
            () = async {
                match retry_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => {
                chat.retry_at = None;
                continue;
            }
            () = shutdown.cancelled() => return,
        };
        match input {
            Some(Input::Event(event)) => {
                if let Event::QuestionRemind(remind) = event.as_ref() {
                    chat.reminder = Some(remind.ids.clone());
                }
            }
            Some(Input::Polled {
                session,
                messages,
                received_ms,
                cursor,
            }) => {
                chat.take_messages(&session, messages, received_ms).await;
                if chat.record.session.as_deref() == Some(session.as_str())
                    && let Some(cursor) = cursor
                {
                    chat.record.cursor = cursor;
                }
                // The walk is kept with the cursor that moved past its replies.
                chat.remember();
                chat.file.keep(&chat.record).await;
            }
            None => return,
        }
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Chat {
    /// Starts the conversation of `session` afresh (another login or account).
    fn start_over(&mut self, session: String) {
        self.current = None;
        self.outbox.clear();
        self.given_up.clear();
        self.clocks = Clocks::default();
        self.record = Record {
            session: Some(session),
            ..Record::default()
        };
    }

    fn lang(&self) -> hark_text::Lang {
        self.relay
            .store
            .read_config(hark_text::negotiate::daemon_lang)
    }

    fn push(&mut self, text: String, shows: Option<QuestionId>) {
        if self.outbox.len() >= MOST_WAITING {
            self.outbox.pop_front();
        }
        self.outbox.push_back(Outgoing {
            text,
            client_id: client_id(),
            shows,
        });
    }

    fn say(&mut self, key: &str) {
        let text = hark_text::t_in(self.lang(), key, &[]);
        self.push(text, None);
    }

    /// The current question's step, queued to go out (a reminder says it still waits).
    fn show_current(&mut self, reminder: bool) {
        let waiting = self.relay.store.pending().len().saturating_sub(1);
        let lang = self.lang();
        let Some(current) = self.current.as_mut() else {
            return;
        };
        current.sent_at_ms = None;
        let text = if reminder {
            render::reminder(lang, &current.question, &current.walk, waiting)
        } else {
            render::question(lang, &current.question, &current.walk, waiting)
        };
        let id = current.question.id;
        self.push(text, Some(id));
    }

    /// Says why a reply was not taken, then shows the step again (once: a copy still waiting
    /// to go out is dropped, so the explanation comes first).
    fn refuse(&mut self, key: &str) {
        if let Some(id) = self.current.as_ref().map(|current| current.question.id) {
            self.outbox.retain(|outgoing| outgoing.shows != Some(id));
        }
        self.say(key);
        self.show_current(false);
    }

    /// The question on screen and the walk through it, into the record.
    fn remember(&mut self) {
        self.record.shown = self.current.as_ref().map(|current| Shown {
            id: current.question.id,
            walk: current.walk.clone(),
            sent_at_ms: current.sent_at_ms,
        });
    }

    /// Brings the conversation up to date, then sends what waits.
    async fn sync(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        let Some(line) = Line::of(&self.relay).filter(|line| line.user.is_some()) else {
            return;
        };
        let session = line.session();
        if self.record.session.as_deref() != Some(session.as_str()) {
            self.start_over(session);
        }
        self.follow_the_store().await;
        if let Some(ids) = self.reminder.take()
            && let Some(current) = &self.current
            && current.sent_at_ms.is_some()
            && ids.contains(&current.question.id)
        {
            self.show_current(true);
        }
        self.flush(&line).await;
        self.remember();
        self.file.keep(&self.record).await;
    }

    /// Follows up the question on screen when it closed, and puts the next one on screen.
    async fn follow_the_store(&mut self) {
        let pending = self.relay.store.pending();
        if self.current.is_none()
            && let Some(shown) = self.record.shown.take()
            && let Some(question) = self.relay.store.get(shown.id).await
        {
            // On screen before a restart: it goes on where the person was.
            let sent = shown.sent_at_ms.is_some();
            self.current = Some(Current {
                question,
                walk: shown.walk,
                sent_at_ms: shown.sent_at_ms,
            });
            if !sent {
                self.show_current(false);
            }
        }
        if let Some(current) = &self.current
            && !pending.iter().any(|open| open.id == current.question.id)
        {
            let id = current.question.id;
            let seen = current.sent_at_ms.is_some() || current.walk != Walk::default();
            self.current = None;
            // A step that never went out is not sent now, nor followed up if none did.
            self.outbox.retain(|outgoing| outgoing.shows != Some(id));
            if seen && let Some(closed) = self.relay.store.get(id).await {
                let text = render::closed(self.lang(), &closed);
                self.push(text, None);
            }
        }
        if self.current.is_none()
            && let Some(next) = pending
                .into_iter()
                .filter(|question| !self.given_up.contains(&question.id))
                .min_by_key(|question| question.created_at)
        {
            self.current = Some(Current {
                question: next,
                walk: Walk::default(),
                sent_at_ms: None,
            });
            self.show_current(false);
        }
    }

    /// Sends the waiting texts in order; stops at the first that may go later.
    async fn flush(&mut self, line: &Line) {
        while let Some(outgoing) = self.outbox.front() {
            if self.wechat.session_ended.load(Ordering::SeqCst) {
                return;
            }
            let sent = line
                .send(
                    &outgoing.text,
                    self.record.context.as_deref(),
                    &outgoing.client_id,
                )
                .await;
            match sent {
                Ok(()) => {
                    self.relay.statuses.sent(CHANNEL, &line.api_base);
                    self.pause = FIRST_PAUSE;
                    if let (Some(id), Some(current)) = (outgoing.shows, self.current.as_mut())
                        && current.question.id == id
                    {
                        current.sent_at_ms = Some(now_ms());
                    }
                    self.outbox.pop_front();
                }
                Err(error) => {
                    self.relay
                        .statuses
                        .failed(CHANNEL, &line.api_base, error.to_string());
                    if matches!(error, IlinkError::SessionEnded) {
                        self.wechat.session_ended.store(true, Ordering::SeqCst);
                        return;
                    }
                    if error.passing() {
                        self.retry_at = Some(Instant::now() + self.pause);
                        self.pause = (self.pause * 2).min(LONGEST_PAUSE);
                        return;
                    }
                    // Refused for good: a question stays on the page; the next one is tried.
                    if let Some(id) = outgoing.shows {
                        self.given_up.insert(id);
                        if self.current.as_ref().is_some_and(|c| c.question.id == id) {
                            self.current = None;
                        }
                    }
                    self.outbox.pop_front();
                }
            }
        }
    }

    /// Takes one long poll's messages, each from the paired account only.
    async fn take_messages(&mut self, session: &str, messages: Vec<Message>, received_ms: i64) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let Some(user) = line.user.clone() else {
            return;
        };
        if line.session() != session {
            // Read in a session that has ended since.
            return;
        }
        if self.record.session.as_deref() != Some(session) {
            self.start_over(session.to_string());
        }
        for message in &messages {
            self.clocks.learn(message, received_ms);
        }
        for message in messages {
            if !message.sent_by_a_person() || message.from_user_id != user {
                // Nobody else may answer, nor learn that a bot is here.
                tracing::debug!(channel = %CHANNEL, "ignored a WeChat message from another account");
                continue;
            }
            if let Some(context) = message.context_token.clone().filter(|c| !c.is_empty()) {
                self.record.context = Some(context);
            }
            self.take_reply(&message).await;
        }
    }

    async fn take_reply(&mut self, message: &Message) {
        let Some(text) = message.text() else {
            self.say("wechat-text-only");
            return;
        };
        if let Some(words) = tell::command(&text) {
            let store = self.relay.store.clone();
            let to = match self
                .current
                .as_ref()
                .and_then(|c| tell::agent_of(&c.question))
            {
                Some(agent) => Some(agent),
                None => tell::last_asker(&store).await,
            };
            let reply = tell::tell(&store, to, words, CHANNEL, self.lang()).await;
            self.push(reply, None);
            return;
        }
        // The question on screen may have closed since the last look.
        self.follow_the_store().await;
        let lang = self.lang();
        let written = self.clocks.written_ms(message);
        let Some(current) = self.current.as_mut() else {
            self.say("wechat-nothing-waiting");
            return;
        };
        let seen = match (current.sent_at_ms, written) {
            (None, _) => false,
            (Some(sent), Some(written)) => written >= sent,
            (Some(_), None) => true,
        };
        if !seen {
            self.refuse("wechat-outdated");
            return;
        }
        let skip = render::skip_words(lang);
        let skip: Vec<&str> = skip.iter().map(String::as_str).collect();
        let before = current.walk.clone();
        let id = current.question.id;
        let next = match current.walk.typed(&current.question, &text, &skip) {
            Ok(next) => next,
            Err(Misfit::NoSuchOption) => return self.refuse("wechat-no-such-option"),
            Err(Misfit::OneOption) => return self.refuse("wechat-one-option"),
        };
        let store = self.relay.store.clone();
        let via = Some(AnsweredVia::Channel(CHANNEL));
        let closed = match next {
            Next::Show | Next::AskReply(_) => {
                self.show_current(false);
                return;
            }
            Next::Refuse(refusal) => {
                return self.refuse(match refusal {
                    Refusal::TickFirst => "wechat-pick-first",
                    Refusal::UseButtons => "wechat-use-numbers",
                    Refusal::Stale => "wechat-outdated",
                });
            }
            Next::Submit(answers) => store.close(id, Outcome::Answered(answers), via).await,
            Next::Decline(note) => store.close(id, Outcome::Declined { note }, via).await,
        };
        match closed {
            // Closed here, or elsewhere meanwhile: the follow-up says how.
            Ok(_) | Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => {}
            Err(error) => {
                if let Some(current) = self.current.as_mut() {
                    current.walk = before;
                }
                self.refuse(if matches!(error, StoreError::Invalid(_)) {
                    "wechat-too-long"
                } else {
                    "wechat-not-recorded"
                });
            }
        }
        // The follow-up, then the next question.
        self.follow_the_store().await;
    }
}
