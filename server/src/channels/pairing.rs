//! Pairing a chat channel (Telegram's chat, Slack's person): one code at a time, valid ten
//! minutes, used once, so only the person who sees it in settings or in `hark <channel> setup`
//! can make their chat the channel's. A sender who guesses wrong a few times is not heard again
//! for that code, and many wrong guesses in all withdraw it; a stranger's few guesses never cost
//! the owner their code.

use hark_core::model::channels::PairingCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use subtle::ConstantTimeEq;

/// How long a code is valid.
pub const VALID_FOR: Duration = Duration::from_secs(10 * 60);
/// Wrong codes one chat may send for the current code; past them its guesses are refused.
const WRONG_GUESSES: u32 = 5;
/// Wrong codes from all chats before the current code is withdrawn.
const WRONG_IN_ALL: u32 = 50;
/// Letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L).
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// 31^10: about 49 bits, for a code that lives ten minutes.
const LENGTH: usize = 10;

struct Code<K> {
    text: String,
    expires: Instant,
    expires_at: chrono::DateTime<chrono::Utc>,
    /// Wrong guesses by sender.
    wrong: std::collections::HashMap<K, u32>,
}

/// What a `/start <code>` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Redeemed {
    /// The right code: the chat may be paired.
    Paired,
    /// Not the code (or no code is waiting).
    Wrong,
    /// The right code, too late.
    Expired,
}

/// The code waiting to be sent to the bot, if any; `K` tells senders apart.
#[derive(Default)]
pub struct PairingCodes<K> {
    current: Mutex<Option<Code<K>>>,
}

impl<K: std::hash::Hash + Eq> PairingCodes<K> {
    fn current(&self) -> std::sync::MutexGuard<'_, Option<Code<K>>> {
        self.current
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// A new code, replacing any earlier one.
    ///
    /// # Errors
    /// When the system has no randomness to give.
    pub fn issue(&self) -> std::io::Result<PairingCode> {
        let mut random = [0u8; LENGTH];
        getrandom::fill(&mut random).map_err(std::io::Error::other)?;
        // 256 is not a multiple of 31: the first letters come up a shade more often, which
        // costs well under a bit of the code's 49.
        let text: String = random
            .iter()
            .map(|byte| char::from(ALPHABET[usize::from(*byte) % ALPHABET.len()]))
            .collect();
        let expires_at = chrono::Utc::now()
            + chrono::Duration::from_std(VALID_FOR).unwrap_or(chrono::Duration::minutes(10));
        *self.current() = Some(Code {
            text: text.clone(),
            expires: Instant::now() + VALID_FOR,
            expires_at,
            wrong: std::collections::HashMap::new(),
        });
        Ok(PairingCode {
            code: text,
            link: None,
            expires_at,
        })
    }

    /// The code still valid, if any.
    pub fn waiting(&self) -> Option<PairingCode> {
        let current = self.current();
        let code = current.as_ref()?;
        (code.expires > Instant::now()).then(|| PairingCode {
            code: code.text.clone(),
            link: None,
            expires_at: code.expires_at,
        })
    }

    /// Checks the code `chat` sent; the right code is used up.
    pub fn redeem(&self, chat: K, attempt: &str) -> Redeemed {
        let attempt = attempt.trim().to_ascii_uppercase().replace(['-', ' '], "");
        let mut current = self.current();
        let Some(code) = current.as_mut() else {
            return Redeemed::Wrong;
        };
        let guessed = code.wrong.get(&chat).copied().unwrap_or(0);
        let right: bool = code.text.as_bytes().ct_eq(attempt.as_bytes()).into();
        if !right || guessed >= WRONG_GUESSES {
            *code.wrong.entry(chat).or_insert(0) += 1;
            if code.wrong.values().sum::<u32>() >= WRONG_IN_ALL {
                *current = None;
            }
            return Redeemed::Wrong;
        }
        let fresh = code.expires > Instant::now();
        *current = None;
        if fresh {
            Redeemed::Paired
        } else {
            Redeemed::Expired
        }
    }

    /// Ages the code as if `by` had passed (tests of expiry).
    #[cfg(test)]
    fn age(&self, by: Duration) {
        if let Some(code) = self.current().as_mut() {
            code.expires -= by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_pairs_once_within_its_time() {
        let codes = PairingCodes::<i64>::default();
        assert_eq!(
            codes.redeem(1, "ANYTHING"),
            Redeemed::Wrong,
            "no code waiting"
        );
        let code = codes.issue().unwrap().code;
        assert_eq!(code.len(), LENGTH);
        assert!(code.bytes().all(|byte| ALPHABET.contains(&byte)));
        assert_eq!(codes.waiting().unwrap().code, code);
        assert_eq!(codes.redeem(1, &code.to_lowercase()), Redeemed::Paired);
        assert_eq!(codes.redeem(1, &code), Redeemed::Wrong, "used once");
        assert!(codes.waiting().is_none());

        let code = codes.issue().unwrap().code;
        codes.age(VALID_FOR + Duration::from_secs(1));
        assert!(codes.waiting().is_none());
        assert_eq!(codes.redeem(1, &code), Redeemed::Expired);
    }

    #[test]
    fn a_strangers_guesses_never_cost_the_owner_the_code() {
        let codes = PairingCodes::<i64>::default();
        let code = codes.issue().unwrap().code;
        for _ in 0..WRONG_GUESSES + 3 {
            assert_eq!(codes.redeem(666, "WRONGWRONG"), Redeemed::Wrong);
        }
        assert_eq!(
            codes.redeem(666, &code),
            Redeemed::Wrong,
            "a chat past its guesses is not heard, even with the right code"
        );
        assert_eq!(
            codes.redeem(1, &code),
            Redeemed::Paired,
            "the owner still pairs"
        );

        let code = codes.issue().unwrap().code;
        for chat in 0..i64::from(WRONG_IN_ALL) {
            codes.redeem(1000 + chat, "WRONGWRONG");
        }
        assert_eq!(
            codes.redeem(1, &code),
            Redeemed::Wrong,
            "withdrawn after many in all"
        );
        assert_ne!(codes.issue().unwrap().code, code);
    }
}
