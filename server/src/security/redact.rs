//! The one redaction for what the daemon writes down (the log, channel statuses, `hark
//! status`, errors) about a request or an address: an answer link's capability, a token in a
//! query, a receiver's path. A near miss is redacted like a hit: `/a/<id>/<almost a
//! capability>` may differ from the real one by a character.

/// A request's path as the log shows it: anything under an answer link's question id is
/// hidden (`/a/<id>/…`), and a query is never part of it.
pub fn request_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    match path.strip_prefix(crate::http::api::answer_link::PREFIX) {
        Some(rest) => {
            let id = rest.split('/').next().unwrap_or_default();
            let id: String = id.chars().take(36).collect();
            let hidden = if rest.len() > id.len() { "/…" } else { "" };
            format!("{}{id}{hidden}", crate::http::api::answer_link::PREFIX)
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
