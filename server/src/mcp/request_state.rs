//! The `requestState` of a multi round-trip `ask_user` (MCP 2026-07-28): the question's id,
//! signed with a key this process alone holds and bound to the client that asked, so another
//! client can neither make one from a question's id (the API lists them) nor replay one it saw.
//! The key is made at start: after a restart, a retry is told to call `ask_user` again.

use hark_core::model::QuestionId;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::sync::OnceLock;

/// The signature's bytes kept in a state: 128 bits.
const SIGNATURE_BYTES: usize = 16;

fn key() -> &'static [u8; 32] {
    static KEY: OnceLock<[u8; 32]> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut key = [0u8; 32];
        // Without randomness no state verifies, and every retry is asked to start over.
        let _ = getrandom::fill(&mut key);
        key
    })
}

fn signature(id: QuestionId, client: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key()) else {
        return String::new();
    };
    mac.update(id.to_string().as_bytes());
    mac.update(b"\n");
    mac.update(client.as_bytes());
    hex::encode(&mac.finalize().into_bytes()[..SIGNATURE_BYTES])
}

/// The state of question `id`, asked by `client` (its name as it declared it).
pub fn issue(id: QuestionId, client: &str) -> String {
    format!("{id}.{}", signature(id, client))
}

/// The question a state names, when this process issued it to `client`.
pub fn read(state: &str, client: &str) -> Option<QuestionId> {
    let (id, signed) = state.split_once('.')?;
    let id: QuestionId = id.parse().ok()?;
    let expected = signature(id, client);
    let same: bool = subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), signed.as_bytes()).into();
    (same && !expected.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reads_back_only_for_its_client_and_never_from_a_bare_id() {
        let id = QuestionId(uuid::Uuid::new_v4());
        let state = issue(id, "claude-code");
        assert_eq!(read(&state, "claude-code"), Some(id));
        assert_eq!(read(&state, "other-agent"), None);
        assert_eq!(read(&id.to_string(), "claude-code"), None);
        let mut tampered = state.clone();
        tampered.replace_range(0..1, if state.starts_with('0') { "1" } else { "0" });
        assert_eq!(read(&tampered, "claude-code"), None);
    }
}
