//! Pairing in a chat app: the code after its pairing command (`pair <code>`, Telegram's
//! `/start <code>`), redeemed for the sender; someone else's pairing tells the person before
//! and moves the questions to the new person.

use super::ChatApp;
use super::engine::Engine;
use crate::channels::pairing::Redeemed;

impl<A: ChatApp> Engine<A> {
    /// Redeems `code` for `from`, who writes `at`: whether they are paired now, and the reply.
    pub(super) async fn pair(
        &mut self,
        from: &str,
        at: &str,
        code: &str,
        before: Option<&str>,
    ) -> (bool, String) {
        let words = self.words();
        match self.shared.codes.redeem(from.to_string(), code) {
            Redeemed::Paired => {
                let paired = from.to_string();
                let saved = self
                    .relay
                    .change_channels(move |channels| channels.pair_chat_app(A::NAME, Some(paired)))
                    .await;
                if saved.is_err() {
                    return (false, words.in_app("chat-pairing-failed"));
                }
                self.shared.paired();
                tracing::info!(channel = %A::NAME, "a person was paired");
                // Someone else pairs: the one before is told, and the questions move to the
                // new person's chat.
                if let Some(before) = before.filter(|before| *before != from) {
                    self.unpaired(before.to_string());
                }
                self.direct = Some((from.to_string(), at.to_string()));
                (true, words.in_app("chat-paired"))
            }
            Redeemed::Expired => (false, words.in_app("chat-expired-code")),
            Redeemed::Wrong => (false, words.in_app("chat-wrong-code")),
        }
    }
}

/// The code after the app's pairing command (`pair <code>`, Telegram's `/start <code>` or
/// `/start@Bot <code>`), spaces dropped; empty when the command comes alone.
pub(super) fn pairing_code(text: &str, command: &str) -> Option<String> {
    let mut parts = text.split_whitespace();
    let first = parts.next()?;
    let named = first.eq_ignore_ascii_case(command)
        || (command.starts_with('/')
            && first
                .split_once('@')
                .is_some_and(|(head, _)| head.eq_ignore_ascii_case(command)));
    named.then(|| parts.collect::<Vec<_>>().join(""))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_pairing_command_takes_its_code_in_any_case_and_spacing() {
        let code = |text| super::pairing_code(text, "pair");
        assert_eq!(code("pair ABCD EFGH"), Some("ABCDEFGH".into()));
        assert_eq!(code("PAIR abc"), Some("abc".into()));
        assert_eq!(code("pair"), Some(String::new()));
        assert_eq!(code("pairing abc"), None);
        let start = |text| super::pairing_code(text, "/start");
        assert_eq!(start("/start X1"), Some("X1".into()));
        assert_eq!(start("/start@HarkBot X1"), Some("X1".into()));
        assert_eq!(start("/stop X1"), None);
    }
}
