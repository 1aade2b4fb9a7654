//! Creating a question: a new one (durable before the caller hears so, its event out while the
//! write runs), the one a client's id already names, one its agent asks again after leaving it,
//! or one a kept rule answers at once (`rules`); and undoing a creation the disk refused.

use super::{Created, Entry, Store, StoreError, now, timers};
use crate::model::rule::Decision;
use crate::model::{
    AnsweredVia, AskRequest, Event, Question, QuestionId, Status, limits, validate_ask,
};
use chrono::Utc;

impl Store {
    /// Creates a question, or returns the existing one when the client's id is already known.
    /// Returns once the question is durable; `question:created` may go out before.
    ///
    /// # Errors
    /// `Invalid` naming the field, `TooManyPending`, or `Storage` when the disk refused it
    /// (nothing changed then).
    pub async fn create(&self, request: AskRequest) -> Result<Created, StoreError> {
        validate_ask(&request)?;
        if let Some(id) = request.id {
            self.load(id).await;
        }
        let (default_timeout, default_action) =
            self.read_config(|config| (config.timeout_secs, config.timeout_action));
        // A permission prompt a kept rule answers is answered as it is made: nobody is asked.
        let ruled = (request.permission.as_ref())
            .and_then(|ask| self.shared.rules.decide(ask))
            .map(|rule| rule.decision);
        // One lock for "is it known?" and "insert it": two re-submits of one id cannot both
        // create it.
        let decided = {
            let mut state = self.state();
            let known = request.id.and_then(|id| {
                let entry = state.entries.get_mut(&id)?;
                // The agent is back (re-submitting after a restart of either side).
                self.taken_up(entry);
                Some(entry.question.clone())
            });
            // Or it asks again what it stopped waiting for.
            let known = known.or_else(|| self.resumed(&mut state, &request));
            match known {
                Some(existing) => Err(existing),
                None if state.pending >= limits::MAX_PENDING => {
                    return Err(StoreError::TooManyPending);
                }
                None => {
                    let mut question = new_question(request, default_timeout, default_action);
                    let asked = ruled.is_some().then(|| question.clone());
                    let by_rule = answered_by_rule(&mut question, ruled);
                    if let Some(asked) = asked.filter(|_| by_rule) {
                        // The log takes a question's close only after its creation.
                        let _ = self.record(&asked);
                    }
                    let durable = self.record(&question);
                    state
                        .entries
                        .insert(question.id, Entry::new(question.clone()));
                    if by_rule {
                        self.announce(|| Event::QuestionAnswered(question.clone()));
                    } else {
                        state.pending += 1;
                        self.announce(|| Event::QuestionCreated(question.clone()));
                    }
                    Ok((question, durable))
                }
            }
        };
        let (question, durable) = match decided {
            Ok(created) => created,
            Err(existing) => return self.existing(existing).await,
        };
        let (id, expires_at) = (question.id, question.expires_at);
        let by_rule = !question.is_pending();
        if !by_rule {
            self.session_asks(question.source.as_ref(), true);
        }
        self.settle(durable, move |store, recorded| match recorded {
            Ok(()) if by_rule => store.retire(id),
            Ok(()) => {
                if let Some(expires_at) = expires_at {
                    let left = (expires_at - Utc::now()).to_std().unwrap_or_default();
                    store.schedule(timers::Due::Expire, id, tokio::time::Instant::now() + left);
                }
            }
            Err(_) => store.undo_create(id),
        })
        .await?;
        Ok(Created::New(question))
    }

    /// A re-submitted id: the question it names, once its first create is durable (and an
    /// error if the disk refused that create).
    async fn existing(&self, question: Question) -> Result<Created, StoreError> {
        let Some(log) = &self.shared.log else {
            return Ok(Created::Existing(question));
        };
        log.sync().await;
        if self.in_memory(question.id) || log.holds(question.id) {
            Ok(Created::Existing(question))
        } else {
            Err(StoreError::Storage(
                "the first request with this id could not be recorded".into(),
            ))
        }
    }

    fn in_memory(&self, id: QuestionId) -> bool {
        self.state().entries.contains_key(&id)
    }

    /// Forgets a question whose creation the disk refused, and resyncs every subscriber.
    fn undo_create(&self, id: QuestionId) {
        let mut state = self.state();
        if let Some(entry) = state.entries.remove(&id)
            && entry.question.is_pending()
        {
            state.pending -= 1;
        }
        self.send(Event::Init(self.snapshot_in_memory(&state)));
    }
}

/// A new pending question from the request, with its deadline.
fn new_question(
    request: AskRequest,
    default_timeout: u64,
    default_action: crate::model::TimeoutAction,
) -> Question {
    let timeout_secs = request.timeout_secs.unwrap_or(default_timeout);
    let created_at = now();
    let expires_at =
        (timeout_secs > 0).then(|| created_at + chrono::Duration::seconds(timeout_secs as i64));
    Question {
        id: request.id.unwrap_or_else(QuestionId::new_random),
        questions: request.questions,
        title: request.title,
        source: request.source,
        status: Status::Pending,
        answers: None,
        note: None,
        created_at,
        closed_at: None,
        expires_at,
        timeout_action: request.timeout_action.unwrap_or(default_action),
        answered_via: None,
        permission: request.permission,
        abandoned_at: None,
        shown: None,
    }
}

/// Answers a new permission prompt with a kept rule's `decision`, if there is one (its option
/// that allows or denies once); whether it did.
fn answered_by_rule(question: &mut Question, decision: Option<Decision>) -> bool {
    let answer =
        decision.and_then(|decision| question.permission.as_ref()?.answer(question, decision));
    let Some(answer) = answer else {
        return false;
    };
    question.status = Status::Answered;
    question.answers = Some(vec![answer]);
    question.answered_via = Some(AnsweredVia::Rule);
    question.closed_at = Some(question.created_at);
    question.expires_at = None;
    true
}
