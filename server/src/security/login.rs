//! One-time logins (SPEC §16): a page Hark opens itself (auto-open, `hark open`, the link
//! `hark url` prints) carries `?login=<code>`, which sets the token's cookie once, so nobody
//! types the token on their own machine even where the daemon asks for it (`--require-token`,
//! or a browser whose connection's owner cannot be found). A code is random, works once, for
//! `LOGIN_LIFETIME`, and never for another account of this machine: an address on another
//! user's command line (a browser started with it) is no key for that user.

use hark_core::model::OneTimeLogin;
use std::collections::HashMap;
use std::io;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use subtle::ConstantTimeEq;

/// How long a code works: enough for a browser to start, or to click a printed link.
pub const LOGIN_LIFETIME: Duration = Duration::from_secs(300);
/// Codes outstanding at most; minting past this forgets the oldest.
const MAX_OUTSTANDING: usize = 64;
pub use hark_core::model::LOGIN_PARAMETER;

/// The codes minted and not used yet, each with when it was minted.
#[derive(Default)]
pub struct Logins {
    outstanding: Mutex<HashMap<String, Instant>>,
}

impl Logins {
    /// A new code: 128 random bits as 32 hex digits.
    ///
    /// # Errors
    /// When the system has no randomness to give.
    pub fn mint(&self) -> io::Result<String> {
        let mut bytes = [0_u8; 16];
        getrandom::fill(&mut bytes).map_err(|error| io::Error::other(error.to_string()))?;
        let code: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
        let mut outstanding = self.lock();
        let now = Instant::now();
        outstanding.retain(|_, minted| now.duration_since(*minted) < LOGIN_LIFETIME);
        if outstanding.len() >= MAX_OUTSTANDING
            && let Some(oldest) = outstanding
                .iter()
                .min_by_key(|(_, minted)| **minted)
                .map(|(code, _)| code.clone())
        {
            outstanding.remove(&oldest);
        }
        outstanding.insert(code.clone(), now);
        Ok(code)
    }

    /// A new code as the API hands it out.
    ///
    /// # Errors
    /// When the system has no randomness to give.
    pub fn mint_login(&self) -> io::Result<OneTimeLogin> {
        Ok(OneTimeLogin {
            code: self.mint()?,
            expires_in_secs: LOGIN_LIFETIME.as_secs(),
        })
    }

    /// Uses `presented` up: true once for a code minted less than `LOGIN_LIFETIME` ago, false
    /// for anything else. Every outstanding code is compared, each in constant time.
    pub fn redeem(&self, presented: &str) -> bool {
        let mut outstanding = self.lock();
        let now = Instant::now();
        let found = outstanding
            .keys()
            .find(|code| {
                code.len() == presented.len()
                    && bool::from(code.as_bytes().ct_eq(presented.as_bytes()))
            })
            .cloned();
        found
            .and_then(|code| outstanding.remove(&code))
            .is_some_and(|minted| now.duration_since(minted) < LOGIN_LIFETIME)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        self.outstanding
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once() {
        let logins = Logins::default();
        let code = logins.mint().unwrap();
        assert_eq!(code.len(), 32);
        assert!(!logins.redeem(&code[..31]));
        assert!(!logins.redeem(""));
        assert!(logins.redeem(&code));
        assert!(!logins.redeem(&code), "used up");
        let other = logins.mint().unwrap();
        assert_ne!(code, other);
    }

    #[test]
    fn an_old_code_is_dead() {
        let logins = Logins::default();
        let code = logins.mint().unwrap();
        let Some(minted) = Instant::now().checked_sub(LOGIN_LIFETIME) else {
            eprintln!("skipped: this machine started less than five minutes ago");
            return;
        };
        logins.lock().insert(code.clone(), minted);
        assert!(!logins.redeem(&code));
    }

    #[test]
    fn the_oldest_codes_make_way() {
        let logins = Logins::default();
        let first = logins.mint().unwrap();
        for _ in 0..MAX_OUTSTANDING {
            logins.mint().unwrap();
        }
        assert_eq!(logins.lock().len(), MAX_OUTSTANDING);
        assert!(!logins.redeem(&first));
    }
}
