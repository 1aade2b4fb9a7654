//! The conversation task: one question at a time, oldest first, in the paired WeChat. It sends
//! the sub-question being answered, reads the person's replies through the shared walk, says
//! why a reply does not fit (and shows the question again), follows up when a question closes
//! anywhere, and sends reminders. Texts that could not go out (WeChat unreachable) wait in order
//! and go out, once, when it is back. Messages from anyone but the paired account change nothing
//! and get no answer.

use super::ilink::{IlinkError, Message};
use super::record::{Record, RecordFile, Shown};
use super::render;
use super::{CHANNEL, Input, Line, Wechat};
use crate::channels::Relay;
use crate::channels::walk::{Next, Refusal, Walk};
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

/// A text to send; `shows` names the question whose step it shows (its sending time makes
/// earlier replies outdated).
struct Outgoing {
    text: String,
    shows: Option<QuestionId>,
}

/// The question on screen.
struct Current {
    question: Question,
    walk: Walk,
    /// When its step went out; `None` until it did.
    sent_at_ms: Option<i64>,
}

struct Chat {
    relay: Arc<Relay>,
    wechat: Arc<Wechat>,
    file: RecordFile,
    record: Record,
    current: Option<Current>,
    outbox: VecDeque<Outgoing>,
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
    let (file, record) = RecordFile::load(relay.home.as_deref());
    let mut chat = Chat {
        relay,
        wechat,
        file,
        record,
        current: None,
        outbox: VecDeque::new(),
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
            Some(Input::Polled { messages, cursor }) => {
                chat.take_messages(messages).await;
                if let Some(cursor) = cursor {
                    chat.record.cursor = cursor;
                }
                chat.file.keep(&chat.record).await;
            }
            Some(Input::LoggedIn) => chat.start_over(None),
            None => return,
        }
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Chat {
    /// Forgets the conversation (another account, or a new login).
    fn start_over(&mut self, user: Option<String>) {
        self.current = None;
        self.outbox.clear();
        self.given_up.clear();
        self.record = Record {
            user,
            ..Record::default()
        };
    }

    fn say(&mut self, key: &str) {
        let lang = self.lang();
        self.push(hark_text::t_in(lang, key, &[]), None);
    }

    fn push(&mut self, text: String, shows: Option<QuestionId>) {
        if self.outbox.len() >= MOST_WAITING {
            self.outbox.pop_front();
        }
        self.outbox.push_back(Outgoing { text, shows });
    }

    fn lang(&self) -> hark_text::Lang {
        self.relay
            .store
            .read_config(hark_text::negotiate::daemon_lang)
    }

    /// The current question's step, queued to go out.
    fn show_current(&mut self, reminder: bool) {
        let waiting = self.relay.store.pending().len().saturating_sub(1);
        let lang = self.lang();
        let Some(current) = &self.current else {
            return;
        };
        let text = if reminder {
            render::reminder(lang, &current.question, &current.walk, waiting)
        } else {
            render::question(lang, &current.question, &current.walk, waiting)
        };
        let id = current.question.id;
        self.push(text, Some(id));
    }

    /// Brings the conversation up to date, then sends what waits.
    async fn sync(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let Some(user) = line.user.clone() else {
            return;
        };
        if self.record.user.as_deref() != Some(user.as_str()) {
            self.start_over(Some(user));
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
        self.record.shown = self.current.as_ref().and_then(|current| {
            Some(Shown {
                id: current.question.id,
                walk: current.walk.clone(),
                sent_at_ms: current.sent_at_ms?,
            })
        });
        self.file.keep(&self.record).await;
    }

    /// Follows up the question on screen when it closed, and puts the next one on screen.
    async fn follow_the_store(&mut self) {
        let pending = self.relay.store.pending();
        if self.current.is_none()
            && let Some(shown) = self.record.shown.take()
        {
            // Sent before a restart: still on screen, where the person was.
            if let Some(question) = self.relay.store.get(shown.id).await {
                self.current = Some(Current {
                    question,
                    walk: shown.walk,
                    sent_at_ms: Some(shown.sent_at_ms),
                });
            }
        }
        if let Some(current) = &self.current
            && !pending.iter().any(|open| open.id == current.question.id)
        {
            let id = current.question.id;
            let sent = current.sent_at_ms.is_some();
            self.current = None;
            if sent && let Some(closed) = self.relay.store.get(id).await {
                let lang = self.lang();
                self.push(render::closed(lang, &closed), None);
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
            match line
                .send(&outgoing.text, self.record.context.as_deref())
                .await
            {
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
    async fn take_messages(&mut self, messages: Vec<serde_json::Value>) {
        let Some(line) = Line::of(&self.relay) else {
            return;
        };
        let Some(user) = line.user.clone() else {
            return;
        };
        if self.record.user.as_deref() != Some(user.as_str()) {
            self.start_over(Some(user.clone()));
        }
        for raw in messages {
            let message: Message = match serde_json::from_value(raw) {
                Ok(message) => message,
                Err(error) => {
                    tracing::warn!(channel = %CHANNEL, %error, "skipped a WeChat message Hark cannot read");
                    continue;
                }
            };
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
        // The question on screen may have closed since the last look.
        self.follow_the_store().await;
        let lang = self.lang();
        let Some(current) = self.current.as_mut() else {
            self.say("wechat-nothing-waiting");
            return;
        };
        let Some(sent_at) = current.sent_at_ms else {
            // Its text has not gone out yet: the reply cannot be for it.
            self.say("wechat-outdated");
            return;
        };
        if message
            .create_time_ms
            .is_some_and(|written| written < sent_at)
        {
            self.say("wechat-outdated");
            self.show_current(false);
            return;
        }
        let skip = render::skip_words(lang);
        let skip: Vec<&str> = skip.iter().map(String::as_str).collect();
        let before = current.walk.clone();
        let next = current.walk.typed(&current.question, &text, &skip);
        let id = current.question.id;
        let store = self.relay.store.clone();
        let via = Some(AnsweredVia::Channel(CHANNEL));
        let closed = match next {
            Next::Show | Next::AskReply(_) => {
                self.show_current(false);
                return;
            }
            Next::Refuse(refusal) => {
                self.say(match refusal {
                    Refusal::NoSuchOption => "wechat-no-such-option",
                    Refusal::OneOption => "wechat-one-option",
                    Refusal::TickFirst => "wechat-pick-first",
                    Refusal::UseButtons => "wechat-use-numbers",
                    Refusal::Stale => "wechat-outdated",
                });
                self.show_current(false);
                return;
            }
            Next::Submit(answers) => store.close(id, Outcome::Answered(answers), via).await,
            Next::Decline(note) => store.close(id, Outcome::Declined { note }, via).await,
        };
        if let Err(error) = closed {
            match error {
                StoreError::NotPending { .. } | StoreError::NotFound(_) => {
                    // Closed elsewhere meanwhile: the follow-up says how.
                }
                StoreError::Invalid(_) => {
                    if let Some(current) = self.current.as_mut() {
                        current.walk = before;
                    }
                    self.say("wechat-too-long");
                }
                _ => {
                    if let Some(current) = self.current.as_mut() {
                        current.walk = before;
                    }
                    self.say("wechat-not-recorded");
                }
            }
        }
        // The close (or the refusal) shows in the next sync: the follow-up, then the next
        // question.
        self.follow_the_store().await;
    }
}
