//! An agent session as its hooks tell it (SPEC §20): what the agent is doing (working, waiting
//! in its own dialog, finished its turn, ended) goes to the daemon; and at the end of a turn the
//! messages the person left for it come back to continue it, the hook waiting up to
//! `continueWaitSecs` for one when none waits yet (never while the agent is already being
//! continued by a hook, so a reply cannot start a loop). Quiet when the daemon is not running:
//! these hooks run on every turn, and never start it.

use super::Hook;
use crate::client::ClientError;
use hark_core::model::{AgentRef, PersonMessage, SessionReport, SessionState, for_the_agent};
use serde_json::{Value, json};
use tokio::time::Instant;

/// A turn's events as Claude Code's hooks give them, which Codex's take too: its session, what
/// it said last (`Stop`, `StopFailure`), and whether a stop hook continues it already.
pub(super) struct Turn<'a> {
    pub event: &'a str,
    pub session_id: Option<&'a str>,
    pub said: Option<&'a str>,
    pub continued: bool,
}

/// What a turn's event says of the session, and at `Stop` the answer that continues the agent
/// with the person's message (`{"decision": "block", "reason": …}`); `None` for an event that
/// is not a turn's.
pub(super) async fn turn(hook: &Hook<'_>, turn: &Turn<'_>) -> Option<Option<Value>> {
    let (id, said) = (turn.session_id, turn.said);
    let state = match turn.event {
        "UserPromptSubmit" | "PostToolUse" => SessionState::Working,
        "Stop" | "StopFailure" => SessionState::Finished,
        "SessionEnd" => SessionState::Ended,
        _ => return None,
    };
    if turn.event != "Stop" {
        report(hook, id, state, said).await;
        return Some(None);
    }
    let reason = end_of_turn(hook, id, said, !turn.continued).await;
    Some(reason.map(|reason| json!({"decision": "block", "reason": reason})))
}

/// The end of the agent's turn: a message the person left for it already continues it at once
/// (the agent goes on working, and nobody is told it finished); else it finished, saying
/// `said`, and the hook waits for a message as `messages_to_continue` does when `may_wait`.
pub(super) async fn end_of_turn(
    hook: &Hook<'_>,
    session_id: Option<&str>,
    said: Option<&str>,
    may_wait: bool,
) -> Option<String> {
    if let Some(words) = waiting_messages(hook, 0).await {
        report(hook, session_id, SessionState::Working, said).await;
        return Some(words);
    }
    report(hook, session_id, SessionState::Finished, said).await;
    messages_to_continue(hook, session_id, may_wait).await
}

/// The agent the hook runs for, as messages and sessions address it.
fn agent(hook: &Hook<'_>) -> AgentRef {
    AgentRef {
        client: hook.agent.client_name().to_string(),
        cwd: hook.cwd.clone(),
    }
}

/// Says what the agent is doing: `state`, with the last thing it said if any.
pub(super) async fn report(
    hook: &Hook<'_>,
    session_id: Option<&str>,
    state: SessionState,
    last_message: Option<&str>,
) {
    let report = SessionReport {
        agent: agent(hook),
        session_id: session_id.map(str::to_string),
        state: Some(state),
        last_message: last_message.map(str::to_string),
    };
    match hook.connection.client().report_session(&report).await {
        Ok(_) | Err(ClientError::Unreachable { .. }) => {}
        Err(error) => eprintln!("hark hook: {error}"),
    }
}

/// At the end of the agent's turn: the messages the person left for it, in words for the
/// agent, marked delivered; when none waits and `may_wait`, the first to come within
/// `continueWaitSecs`. Then the agent is at work again. `None` when there is none.
async fn messages_to_continue(
    hook: &Hook<'_>,
    session_id: Option<&str>,
    may_wait: bool,
) -> Option<String> {
    let client = hook.connection.client();
    let wait_secs = match client.config().await {
        Ok(config) if may_wait => config.continue_wait_secs,
        Ok(_) => 0,
        Err(ClientError::Unreachable { .. }) => return None,
        Err(error) => {
            eprintln!("hark hook: {error}");
            return None;
        }
    };
    let words = waiting_messages(hook, wait_secs).await?;
    report(hook, session_id, SessionState::Working, None).await;
    Some(words)
}

/// The messages the person left for the agent, in words for it, marked delivered; when none
/// waits, the first to come within `wait_secs`.
pub(super) async fn waiting_messages(hook: &Hook<'_>, wait_secs: u64) -> Option<String> {
    let client = hook.connection.client();
    let agent = agent(hook);
    let deadline = Instant::now() + std::time::Duration::from_secs(wait_secs);
    // One call at least (what waits already), then long polls of at most a minute each, so
    // the wait outlives no connection's patience.
    let messages = loop {
        let left = deadline.saturating_duration_since(Instant::now()).as_secs();
        match client.deliver_messages_within(&agent, left.min(60)).await {
            Ok(messages) if !messages.is_empty() => break messages,
            Ok(_) if left == 0 => return None,
            Ok(_) => continue,
            Err(ClientError::Unreachable { .. }) => return None,
            Err(error) => {
                eprintln!("hark hook: {error}");
                return None;
            }
        }
    };
    let messages: Vec<PersonMessage> = messages.iter().map(PersonMessage::from).collect();
    for_the_agent(&messages)
}
