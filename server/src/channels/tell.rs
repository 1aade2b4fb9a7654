//! "Tell the agent…" from a chat (SPEC §18), shared by the chat channels: `/tell <words>` leaves
//! a message for an agent (the one whose question the person replied to or has on screen, else
//! the one that asked last), and the chat's reply says to whom it went, or why it did not.

use hark_core::model::{AgentRef, AnsweredVia, ChannelName, NewMessage, Question};
use hark_core::store::{Store, StoreError};
use hark_text::{Lang, t_in};

/// The words after `/tell` (or Telegram's `/tell@SomeBot`), when `text` is that command.
pub fn command(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix("/tell")?;
    let rest = match rest.strip_prefix('@') {
        Some(addressed) => addressed
            .split_once(char::is_whitespace)
            .map_or("", |(_, words)| words),
        // "/telling" is another word.
        None if !rest.is_empty() && !rest.starts_with(char::is_whitespace) => return None,
        None => rest,
    };
    Some(rest.trim())
}

/// The words after `/tell`, or after a bare `tell` (for chat apps that keep a leading `/` for
/// their own commands).
pub fn command_or_word(text: &str) -> Option<&str> {
    command(text).or_else(|| {
        let text = text.trim_start();
        text.get(..5)
            .filter(|head| head.eq_ignore_ascii_case("tell "))
            .map(|_| text[5..].trim())
    })
}

/// The agent of `question`, when it is known.
pub fn agent_of(question: &Question) -> Option<AgentRef> {
    question.source.as_ref().and_then(AgentRef::of)
}

/// The agent that asked last: the newest pending question's, else the newest in the history.
pub async fn last_asker(store: &Store) -> Option<AgentRef> {
    let mut pending = store.pending();
    pending.sort_by_key(|question| std::cmp::Reverse(question.created_at));
    if let Some(agent) = pending.iter().find_map(agent_of) {
        return Some(agent);
    }
    store.snapshot().await.questions.iter().find_map(agent_of)
}

/// Leaves `words` for `to` as written in `channel`; returns the chat's reply, in `lang`.
pub async fn tell(
    store: &Store,
    to: Option<AgentRef>,
    words: &str,
    channel: ChannelName,
    lang: Lang,
) -> String {
    if words.is_empty() {
        return t_in(lang, "chat-tell-empty", &[]);
    }
    let Some(to) = to else {
        return t_in(lang, "chat-tell-nobody", &[]);
    };
    let label = to.label();
    let message = NewMessage {
        to,
        text: words.to_string(),
        via: Some(AnsweredVia::Channel(channel)),
    };
    match store.post_message(message).await {
        Ok(_) => t_in(lang, "chat-tell-sent", &[("agent", label.into())]),
        Err(StoreError::Invalid(_)) => t_in(lang, "chat-tell-too-long", &[]),
        Err(StoreError::TooManyMessages { .. }) => t_in(lang, "chat-tell-too-many", &[]),
        Err(error) => {
            tracing::warn!(%channel, %error, "could not keep a message for an agent");
            t_in(lang, "chat-tell-failed", &[])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_tell_and_its_words() {
        assert_eq!(command("/tell use staging"), Some("use staging"));
        assert_eq!(command("  /tell   two  words "), Some("two  words"));
        assert_eq!(command("/tell@HarkBot stop now"), Some("stop now"));
        assert_eq!(command("/tell"), Some(""));
        assert_eq!(command("/tell@HarkBot"), Some(""));
        assert_eq!(command("/telling you"), None);
        assert_eq!(command("tell me"), None);
        assert_eq!(command("2"), None);
        assert_eq!(command_or_word("Tell them to stop"), Some("them to stop"));
        assert_eq!(command_or_word("/tell x"), Some("x"));
        assert_eq!(command_or_word("telling"), None);
    }
}
