//! The one redaction for what the daemon writes down (the log, channel statuses, `hark
//! status`, errors) about a request or an address: an answer link's capability, a token in a
//! query, a receiver's path. A near miss is redacted like a hit: `/a/<id>/<almost a
//! capability>` may differ from the real one by a character. And every secret the daemon
//! holds (`hold`: the channels' credentials, and tokens a service issued it) is taken out of
//! any text a service sent back before it is logged, kept in a status or answered (`secrets`).

use std::sync::RwLock;

/// Where answer links live (their route is `http/api/answer_link.rs`): what follows a
/// question's id under it is a capability.
pub const ANSWER_LINKS: &str = "/a/";

/// The secrets held, for `secrets`.
static HELD: RwLock<Vec<String>> = RwLock::new(Vec::new());
/// Shorter strings are no secret worth hiding, and would hide ordinary words.
const SHORTEST_SECRET: usize = 8;
/// Secrets held at most (the oldest go first): a few per channel, and tokens renewed hourly.
const MOST_HELD: usize = 256;

/// Adds `secret` to what `secrets` takes out.
pub fn hold(secret: &str) {
    let secret = secret.trim();
    if secret.chars().count() < SHORTEST_SECRET {
        return;
    }
    let mut held = HELD.write().unwrap_or_else(|poison| poison.into_inner());
    if !held.iter().any(|kept| kept == secret) {
        if held.len() >= MOST_HELD {
            held.remove(0);
        }
        held.push(secret.to_string());
    }
}

/// `text` with every secret held replaced by `…`.
pub fn secrets(text: &str) -> String {
    let held = HELD.read().unwrap_or_else(|poison| poison.into_inner());
    let mut shown = text.to_string();
    for secret in held.iter() {
        if shown.contains(secret.as_str()) {
            shown = shown.replace(secret.as_str(), "…");
        }
    }
    shown
}

/// Every string in `value` through `secrets`.
pub fn secrets_in(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => *text = secrets(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(secrets_in),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(secrets_in),
        _ => {}
    }
}

/// The daemon's log: each line through `secrets` on its way to standard error (the detached
/// daemon's `daemon.log`). The formatter writes a whole line at once.
pub struct RedactedStderr;

impl std::io::Write for RedactedStderr {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let shown = secrets(&String::from_utf8_lossy(bytes));
        std::io::stderr().write_all(shown.as_bytes())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// A request's path as the log shows it: anything under an answer link's question id is
/// hidden (`/a/<id>/…`), and a query is never part of it.
pub fn request_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    match path.strip_prefix(ANSWER_LINKS) {
        Some(rest) => {
            let id = rest.split('/').next().unwrap_or_default();
            let id: String = id.chars().take(36).collect();
            let hidden = if rest.len() > id.len() { "/…" } else { "" };
            format!("{}{id}{hidden}", ANSWER_LINKS)
        }
        None => path.to_string(),
    }
}

/// An address as settings, the log and `hark status` show it: scheme and host only. A
/// receiver's path often is its credential, and a push topic may be part of it.
pub fn address(address: &str) -> String {
    let Some((scheme, rest)) = address.split_once("://") else {
        return "…".to_string();
    };
    let (authority, path) = rest
        .find(['/', '?', '#'])
        .map_or((rest, ""), |at| rest.split_at(at));
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let hidden = if path.trim_matches(['/', '?', '#']).is_empty() {
        ""
    } else {
        "/…"
    };
    format!("{scheme}://{authority}{hidden}")
}

/// A page of this daemon's as the log shows it: without its query, which may carry the token.
pub fn page(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_held_is_taken_out_of_any_text() {
        hold("xoxb-held-in-a-test-0001");
        hold("short");
        assert_eq!(
            secrets("invalid_auth for xoxb-held-in-a-test-0001, twice: xoxb-held-in-a-test-0001"),
            "invalid_auth for …, twice: …"
        );
        assert_eq!(secrets("a short word"), "a short word");
        let mut value = serde_json::json!({"error": ["token xoxb-held-in-a-test-0001"]});
        secrets_in(&mut value);
        assert_eq!(value, serde_json::json!({"error": ["token …"]}));
    }

    #[test]
    fn answer_links_lose_their_capability_hit_or_miss() {
        let id = "0b7e1c9a-4a55-4f3e-9d2b-4a1c2f3e5d6a";
        for path in [
            format!("/a/{id}/0123456789abcdef0123456789abcdef"),
            format!("/a/{id}/0123456789abcdef0123456789abcde"),
            format!("/a/{id}/0123456789abcdef0123456789abcdef/extra?token=x"),
        ] {
            assert_eq!(request_path(&path), format!("/a/{id}/…"), "{path}");
        }
        assert_eq!(
            request_path("/api/questions?token=secret"),
            "/api/questions"
        );
        assert_eq!(request_path("/a/"), "/a/");
    }

    #[test]
    fn addresses_are_shown_without_their_paths_queries_or_users() {
        assert_eq!(
            address("https://hooks.slack.com/services/T000/B000/XXXX"),
            "https://hooks.slack.com/…"
        );
        assert_eq!(address("https://push.example"), "https://push.example");
        assert_eq!(address("http://127.0.0.1:8080/"), "http://127.0.0.1:8080");
        assert_eq!(
            address("https://user:pw@h.example?key=1"),
            "https://h.example/…"
        );
        assert_eq!(address("nonsense"), "…");
        assert_eq!(
            page("http://127.0.0.1:13390/q/1?token=abc"),
            "http://127.0.0.1:13390/q/1"
        );
    }
}
