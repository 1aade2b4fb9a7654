//! What the engine does with an inbound: a tap, a ticked set, words or a form become a step of
//! the question's walk, and what the walk decides goes into `store.close` (the first close wins
//! there); a said text pairs (`pair <code>`, re-pairing moves the questions to the new person),
//! answers in words where the app takes them (a reply to a question or its prompt), tells an
//! agent (`tell …`, or a reply to a question's message), or gets a hint. Only the paired person
//! is heard; strangers get a few polite refusals and change nothing.

use super::engine::{Engine, Prompt, To};
use super::pair::pairing_code;
use super::{ChatApp, Inbound, Lined, Responded, Response, Said, Target};
use crate::channels::tell;
use crate::channels::walk::{Awaiting, Next, Refusal, Tap, Walk};
use hark_core::model::{AnsweredVia, Question, QuestionId};
use hark_core::store::{Outcome, StoreError};
use std::collections::BTreeSet;

impl<A: ChatApp> Engine<A> {
    pub(super) async fn take_inbound(&mut self, inbound: Inbound<A::Responder>) {
        let Some(line) = super::line_of(&*self.app, &self.relay) else {
            return;
        };
        let person = self.person();
        // A tap of the person's on a message posted before a restart may come before the first
        // look at the store: the conversations are brought up to date first.
        if let (Some((from, id)), Some(person)) = (asked_about(&inbound), person.as_deref())
            && from == person
            && self.find(id).is_none()
        {
            self.follow_the_store(person).await;
        }
        let is_the_person = |from: &str| person.as_deref() == Some(from);
        match inbound {
            Inbound::Said(said) => {
                // A service may deliver a message twice: it is taken once.
                if said.id.clone().is_some_and(|id| !self.seen.first_time(&id)) {
                    return;
                }
                self.take_said(&line, said).await;
            }
            Inbound::Unreadable { from, at } => {
                if is_the_person(&from) {
                    self.say(To::At(at), &self.words().plain("chat-text-only"));
                }
            }
            Inbound::Tap {
                from, responder, ..
            }
            | Inbound::Ticked {
                from, responder, ..
            }
            | Inbound::Words {
                from, responder, ..
            }
            | Inbound::Form {
                from, responder, ..
            } if !is_the_person(&from) => {
                tracing::debug!(channel = %A::NAME, "ignored a tap by someone who is not paired");
                let text = self.words().in_app("chat-not-yours");
                self.app
                    .respond(&line, responder, Response::Stranger(text))
                    .await;
            }
            Inbound::Tap {
                callback,
                responder,
                ..
            } => {
                let stepped = self.step(callback.id, |walk, question| {
                    walk.tap(question, callback.step, callback.tap)
                });
                self.follow_step(&line, responder, stepped).await;
            }
            Inbound::Ticked {
                on,
                step,
                within,
                ticked,
                responder,
                ..
            } => {
                let id = match on {
                    Target::Question(id) => Some(id),
                    Target::Message(message) => self.question_of_message(&message),
                };
                let stepped = id.and_then(|id| {
                    self.step(id, |walk, question| {
                        tick(walk, question, step, within.as_ref(), &ticked)
                    })
                });
                self.follow_step(&line, responder, stepped).await;
            }
            Inbound::Words {
                id,
                step,
                awaiting,
                text,
                responder,
                ..
            } => {
                let stepped = self.step(id, |walk, question| {
                    if walk.step != step {
                        return Next::Refuse(Refusal::Stale);
                    }
                    walk.awaiting = Some(awaiting);
                    match awaiting {
                        Awaiting::SkipNote if text.trim().is_empty() => Next::Decline(None),
                        _ => walk.reply(question, &text),
                    }
                });
                self.follow_step(&line, responder, stepped).await;
            }
            Inbound::Form {
                id,
                step,
                ticked,
                words,
                responder,
                ..
            } => {
                let stepped = self.step(id, |walk, question| {
                    let Some(sub) = question.questions.get(step).filter(|_| walk.step == step)
                    else {
                        return Next::Refuse(Refusal::Stale);
                    };
                    walk.awaiting = None;
                    if sub.multi_select {
                        walk.ticked = ticked
                            .into_iter()
                            .filter(|index| *index < sub.options.len())
                            .collect();
                    }
                    if !words.trim().is_empty() {
                        walk.reply(question, &words)
                    } else if sub.multi_select {
                        walk.tap(question, step, Tap::Send)
                    } else {
                        Next::Refuse(Refusal::UseButtons)
                    }
                });
                self.follow_step(&line, responder, stepped).await;
            }
        }
    }

    /// Takes one step of question `id`'s walk: the question, what the walk decided, and the
    /// walk before it (to go back to when the store refuses); `None` when it is not open here.
    fn step(
        &mut self,
        id: QuestionId,
        step: impl FnOnce(&mut Walk, &Question) -> Next,
    ) -> Option<(Question, Next, Walk)> {
        let conversation = self
            .conversations
            .iter_mut()
            .find(|conversation| conversation.question.id == id && !conversation.closed)?;
        let before = conversation.walk.clone();
        let question = conversation.question.clone();
        let next = step(&mut conversation.walk, &question);
        Some((question, next, before))
    }

    /// Says `text` the way the app can: privately to the tapper, else in the chat.
    async fn notice(&mut self, line: &Lined<A>, responder: A::Responder, text: String) {
        if let Responded::SayInChat(text) = self
            .app
            .respond(line, responder, Response::Notice(text))
            .await
        {
            self.say_to_the_person(&text);
        }
    }

    /// For apps that must answer a tap before anything slower (`ChatApp::ACK_FIRST`): answers
    /// it as taken, and gives back a responder that answers nothing more (later notices are
    /// said in the chat).
    async fn ack_first(&self, line: &Lined<A>, responder: A::Responder) -> A::Responder {
        if !A::ACK_FIRST {
            return responder;
        }
        self.app.respond(line, responder, Response::Taken).await;
        A::Responder::default()
    }

    /// Does what a step decided, and answers the inbound.
    pub(super) async fn follow_step(
        &mut self,
        line: &Lined<A>,
        responder: A::Responder,
        stepped: Option<(Question, Next, Walk)>,
    ) {
        let words = self.words();
        let Some((question, next, before)) = stepped else {
            return self
                .notice(line, responder, words.plain("chat-closed"))
                .await;
        };
        let id = question.id;
        let (outcome, done) = match next {
            Next::Show => {
                self.app.respond(line, responder, Response::Taken).await;
                self.reshow(id);
                return;
            }
            // Typed words answer at once: a text-only app has nothing more to ask for.
            Next::AskReply(_) if A::TEXT_ONLY => return self.reshow(id),
            Next::AskReply(awaiting) => {
                let walk = match self.find(id) {
                    Some(conversation) => {
                        // A window's words come with its submission: the message waits for
                        // nothing meanwhile.
                        if A::ASKS_IN_A_WINDOW {
                            conversation.walk.awaiting = None;
                        }
                        conversation.walk.clone()
                    }
                    None => before,
                };
                // The person is about to type: a time limit waits for them (SPEC §18).
                self.relay.store.typing(id);
                let reply_to = self
                    .find(id)
                    .and_then(|conversation| conversation.posted.as_ref().map(A::message_id));
                let asked = Response::AskReply {
                    lang: words.lang,
                    question: &question,
                    walk: &walk,
                    awaiting,
                    at: self
                        .direct
                        .as_ref()
                        .map(|(_, at)| at.clone())
                        .or_else(|| self.person()),
                    reply_to,
                };
                match self.app.respond(line, responder, asked).await {
                    Responded::Prompted(message) => {
                        if let Some(conversation) = self.find(id) {
                            let step = walk.step;
                            conversation.prompt = Some(Prompt {
                                message,
                                step,
                                awaiting,
                            });
                        }
                    }
                    Responded::Failed => {
                        tracing::warn!(channel = %A::NAME, "the reply window did not open");
                        self.say_to_the_person(&words.plain("chat-not-recorded"));
                    }
                    Responded::Done | Responded::SayInChat(_) => {}
                }
                return;
            }
            Next::Refuse(refusal) => {
                let text = match refusal {
                    Refusal::Stale => words.in_app("chat-stale"),
                    Refusal::TickFirst => words.in_app("chat-tick-first"),
                    Refusal::UseButtons => words.in_app("chat-use-buttons"),
                };
                self.notice(line, responder, text).await;
                return self.reshow(id);
            }
            Next::Submit(answers) => (Outcome::Answered(answers), "chat-answer-sent"),
            Next::Decline(note) => (Outcome::Declined { note }, "chat-skipped"),
        };
        let responder = self.ack_first(line, responder).await;
        let via = Some(AnsweredVia::Channel(A::NAME));
        let key = match self.relay.store.close(id, outcome, via).await {
            Ok(_) => {
                let done = Response::Closed(words.plain(done));
                self.app.respond(line, responder, done).await;
                return;
            }
            // Closed elsewhere a moment before: the update (or follow-up) that follows shows how.
            Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) if A::TEXT_ONLY => return,
            Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => "chat-closed",
            Err(error) => {
                if let Some(conversation) = self.find(id) {
                    conversation.walk = before;
                }
                if matches!(error, StoreError::Invalid(_)) {
                    "chat-too-long"
                } else {
                    "chat-not-recorded"
                }
            }
        };
        self.notice(line, responder, words.plain(key)).await;
        self.reshow(id);
    }

    /// A message to the bot: a pairing, words for a question, a message for an agent, or a
    /// hint.
    async fn take_said(&mut self, line: &Lined<A>, said: Said) {
        let Said {
            from,
            at,
            text,
            replying_to,
            private,
            written,
            ..
        } = said;
        let words = self.words();
        let text = text.trim();
        let person = self.person();
        let is_the_person = person.as_deref() == Some(from.as_str());
        if let Some(code) = pairing_code(text, A::PAIR_COMMAND).filter(|_| A::PAIRS_BY_CODE) {
            let reply = if !private {
                words.in_app("chat-private-only")
            } else if code.is_empty() && is_the_person {
                words.in_app("chat-already-paired")
            } else if code.is_empty() {
                words.in_app("chat-stranger")
            } else {
                let (paired, reply) = self.pair(&from, &at, &code, person.as_deref()).await;
                if paired {
                    self.say(To::At(at), &reply);
                    return;
                }
                reply
            };
            if is_the_person || self.strangers.allow(from) {
                self.say(To::At(at), &reply);
            }
            return;
        }
        let Some(person) = person.filter(|_| is_the_person) else {
            // Without a pairing code to ask for, a stranger does not even learn a bot is here.
            if A::PAIRS_BY_CODE && self.strangers.allow(from) {
                self.say(To::At(at), &words.in_app("chat-stranger"));
            }
            return;
        };
        let told = if A::BARE_TELL {
            tell::command_or_word(text)
        } else {
            tell::command(text)
        };
        let replying_to = replying_to.filter(|replied| !replied.is_empty());
        if told.is_none()
            && A::WORDS_ANSWER
            && self.take_words(line, text, replying_to.as_deref()).await
        {
            return;
        }
        if told.is_none() && A::TEXT_ONLY {
            return self.take_typed(line, &person, at, text, written).await;
        }
        let replied_agent = replying_to
            .as_deref()
            .and_then(|replied| self.agent_of_message(replied))
            .or_else(|| {
                // Without replies, the question on screen names the agent.
                let current = self.conversations.iter().find(|c| !c.closed);
                current
                    .filter(|_| A::TEXT_ONLY)
                    .and_then(|c| tell::agent_of(&c.question))
            });
        let message = match (told, &replied_agent) {
            (Some(message), _) => message.to_string(),
            (None, Some(_)) => text.to_string(),
            (None, None) => {
                self.say(To::At(at), &words.in_app("chat-use-buttons"));
                return;
            }
        };
        let store = self.relay.store.clone();
        // Else the agent the person was last told of (it finished, or waits), else the one
        // that asked last.
        let to = match replied_agent.or_else(|| self.last_noticed.clone()) {
            Some(agent) => Some(agent),
            None => tell::last_asker(&store).await,
        };
        let said = tell::tell(&store, to, &message, A::NAME, words.lang).await;
        self.say(To::At(at), &said);
    }

    /// Words that answer a question, where the app takes them: a reply to its prompt (while
    /// the prompt is current) or to its message, else the question that waits for words. Whether
    /// they were for a question.
    async fn take_words(&mut self, line: &Lined<A>, text: &str, replying_to: Option<&str>) -> bool {
        let open = |conversation: &&super::engine::Conversation<A>| !conversation.closed;
        let prompted = replying_to.and_then(|replied| {
            self.conversations
                .iter()
                .filter(open)
                .rfind(|c| {
                    c.prompt
                        .as_ref()
                        .is_some_and(|prompt| prompt.message == replied)
                })
                .map(|c| (c.question.id, c.prompt.clone(), c.walk.clone()))
        });
        if let Some((_, Some(prompt), walk)) = &prompted
            && (walk.awaiting != Some(prompt.awaiting) || walk.step != prompt.step)
        {
            // A reply to a prompt counts only while its question still waits for it.
            self.say_to_the_person(&self.words().in_app("chat-stale"));
            return true;
        }
        let id = prompted.map(|(id, ..)| id).or_else(|| {
            let replied = replying_to?;
            self.conversations
                .iter()
                .filter(open)
                .rfind(|c| {
                    c.posted
                        .as_ref()
                        .is_some_and(|posted| A::message_id(posted) == replied)
                })
                .map(|c| c.question.id)
        });
        // Without a reply, the words go to the question that asked for some.
        let id = id.or_else(|| {
            if replying_to.is_some_and(|replied| self.agent_of_message(replied).is_some()) {
                return None;
            }
            self.conversations
                .iter()
                .filter(open)
                .rfind(|c| c.walk.awaiting.is_some())
                .map(|c| c.question.id)
        });
        let Some(id) = id else {
            return false;
        };
        if text.is_empty() {
            self.say_to_the_person(&self.words().in_app("chat-use-buttons"));
            return true;
        }
        let stepped = self.step(id, |walk, question| walk.reply(question, text));
        self.follow_step(line, A::Responder::default(), stepped)
            .await;
        true
    }
}

/// What a step's checkboxes or menu hold now: a single choice picks the first; a multi-select
/// ticks and unticks the difference among the options `within` (all when `None`).
fn tick(
    walk: &mut Walk,
    question: &Question,
    step: usize,
    within: Option<&std::ops::Range<usize>>,
    ticked: &BTreeSet<usize>,
) -> Next {
    let Some(sub) = question.questions.get(step).filter(|_| walk.step == step) else {
        return Next::Refuse(Refusal::Stale);
    };
    if !sub.multi_select {
        return match ticked.iter().next() {
            Some(choice) => walk.tap(question, step, Tap::Pick(*choice)),
            None => Next::Show,
        };
    }
    let before: BTreeSet<usize> = walk
        .ticked
        .iter()
        .copied()
        .filter(|index| within.is_none_or(|range| range.contains(index)))
        .collect();
    for index in before.symmetric_difference(ticked) {
        walk.tap(question, step, Tap::Toggle(*index));
    }
    Next::Show
}

/// Who asks about which question, when an inbound names one.
fn asked_about<R>(inbound: &Inbound<R>) -> Option<(&str, QuestionId)> {
    match inbound {
        Inbound::Tap { from, callback, .. } => Some((from, callback.id)),
        Inbound::Ticked {
            from,
            on: Target::Question(id),
            ..
        }
        | Inbound::Words { from, id, .. }
        | Inbound::Form { from, id, .. } => Some((from, *id)),
        Inbound::Ticked { .. } | Inbound::Said(_) | Inbound::Unreadable { .. } => None,
    }
}
