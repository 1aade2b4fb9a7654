//! A text-only app (`ChatApp::TEXT_ONLY`, WeChat): one question at a time, oldest first, each
//! step posted as a message of its own and answered by typing (`walk/typed.rs`: `2`, `1 3`,
//! own words, `skip`), a closed question followed up by a message of its outcome. Such an app
//! cannot edit what it sent, so a reply counts for the step on screen only when it was written
//! after that step went out: one written before (or while the step waits to go out) was meant
//! for what the person saw then, and is refused with the step shown again.

use super::engine::{Conversation, Engine};
use super::{ChatApp, Lined, ServiceError};
use crate::channels::walk::{Misfit, skip_words};
use hark_core::model::QuestionId;

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl<A: ChatApp> Engine<A> {
    /// The question on screen: the oldest open one.
    fn current(&mut self) -> Option<&mut Conversation<A>> {
        self.conversations.iter_mut().find(|c| !c.closed)
    }

    /// Follows up the closed questions the person saw, and posts the current step when it is
    /// not on screen yet (or is to be shown again); `Ok(true)` when something went out.
    pub(super) async fn sync_one_at_a_time(
        &mut self,
        line: &Lined<A>,
        at: &str,
    ) -> Result<bool, ServiceError> {
        let lang = self.words().lang;
        let mut sent = false;
        let mut index = 0;
        let mut current_seen = false;
        while index < self.conversations.len() {
            let conversation = &self.conversations[index];
            if conversation.closed {
                // A question never shown is not followed up either.
                if conversation.posted.is_some() || conversation.shown_step.is_some() {
                    let view = self.app.closed(lang, &conversation.question);
                    match self.app.post(line, at, &view).await {
                        Ok(_) => sent = true,
                        Err(error) if error.passing() => return Err(error),
                        Err(error) => {
                            tracing::warn!(channel = %A::NAME, %error, "a follow-up was refused");
                        }
                    }
                }
                let done = self.conversations.remove(index);
                self.remember_finished(done);
                continue;
            }
            if current_seen {
                index += 1;
                continue;
            }
            current_seen = true;
            let step = conversation.walk.step;
            let on_screen = conversation
                .shown_step
                .is_some_and(|(shown, _)| shown == step);
            if on_screen && !conversation.reshow {
                index += 1;
                continue;
            }
            let waiting = self.conversations.iter().filter(|c| !c.closed).count() - 1;
            let Conversation { question, walk, .. } = &self.conversations[index];
            let view = self.app.step(lang, question, walk, waiting, false);
            match self.app.post(line, at, &view).await {
                Ok(posted) => {
                    let conversation = &mut self.conversations[index];
                    conversation.posted = Some(posted);
                    conversation.reshow = false;
                    if !on_screen {
                        conversation.shown_step = Some((step, now_ms()));
                    }
                    sent = true;
                    index += 1;
                }
                Err(error) if error.passing() => return Err(error),
                // Refused for good: the question stays on the page; the next one is tried.
                Err(error) => {
                    tracing::warn!(channel = %A::NAME, %error, "a question's message was refused");
                    self.relay
                        .statuses
                        .failed(A::NAME, &line.server, error.to_string());
                    let given_up = self.conversations.remove(index);
                    self.given_up.insert(given_up.question.id);
                    current_seen = false;
                }
            }
        }
        Ok(sent)
    }

    /// Shows the current step again, saying it still waits, when a reminder of `ids` names it;
    /// `Ok(true)` when it went out.
    pub(super) async fn remind_one_at_a_time(
        &mut self,
        line: &Lined<A>,
        at: &str,
        ids: &[QuestionId],
    ) -> Result<bool, ServiceError> {
        let lang = self.words().lang;
        let waiting = self.conversations.iter().filter(|c| !c.closed).count();
        let current = self.conversations.iter().find(|c| !c.closed);
        let Some(current) =
            current.filter(|c| c.shown_step.is_some() && ids.contains(&c.question.id))
        else {
            return Ok(false);
        };
        let view = self.app.step(
            lang,
            &current.question,
            &current.walk,
            waiting.saturating_sub(1),
            true,
        );
        self.app.post(line, at, &view).await.map(|_| true)
    }

    /// Shows question `id`'s step again, after what says why.
    pub(super) fn reshow(&mut self, id: QuestionId) {
        if let Some(conversation) = self.find(id).filter(|_| A::TEXT_ONLY) {
            conversation.reshow = true;
        }
    }

    /// A typed reply of the person's, `written` when the service says (by this machine's
    /// clock): a step of the question on screen.
    pub(super) async fn take_typed(
        &mut self,
        line: &Lined<A>,
        person: &str,
        at: String,
        text: &str,
        written: Option<i64>,
    ) {
        // The question on screen may have closed since the last look.
        self.follow_the_store(person).await;
        let words = self.words();
        let Some(current) = self.current() else {
            self.say(
                super::engine::To::At(at),
                &words.plain("chat-nothing-waiting"),
            );
            return;
        };
        let id = current.question.id;
        let outdated = match (current.shown_step, written) {
            (Some((step, _)), _) if step != current.walk.step => true,
            (None, _) => true,
            (Some((_, sent)), Some(written)) => written < sent,
            (Some(_), None) => false,
        };
        if outdated {
            return self.refuse(id, words.in_app("chat-stale"));
        }
        let before = current.walk.clone();
        let question = current.question.clone();
        let skip = skip_words(words.lang);
        let skip: Vec<&str> = skip.iter().map(String::as_str).collect();
        match current.walk.typed(&question, text, &skip) {
            Ok(next) => {
                let stepped = Some((question, next, before));
                self.follow_step(line, A::Responder::default(), stepped)
                    .await;
            }
            Err(misfit) => {
                let key = match misfit {
                    Misfit::NoSuchOption => "chat-no-such-option",
                    Misfit::OneOption => "chat-one-option",
                };
                self.refuse(id, words.plain(key));
            }
        }
    }

    /// Says why a reply was not taken, then shows the step again.
    fn refuse(&mut self, id: QuestionId, why: String) {
        self.say_to_the_person(&why);
        self.reshow(id);
    }
}
