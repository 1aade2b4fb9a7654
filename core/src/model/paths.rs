//! Which paths a person may be sent back to: a page's `back` and the token redirect keep only
//! paths on this server, so no link can bounce a browser to another site.

/// `candidate` if it is a path on this server, safe to send back as a `Location`: one leading
/// `/`, then neither a second `/` nor a `\` right after it, and no control characters or spaces
/// anywhere. Browsers read `//host`, `/\host`, and `/<tab>/host` (they drop tabs and newlines)
/// as another site.
pub fn local_path(candidate: &str) -> Option<&str> {
    let rest = candidate.strip_prefix('/')?;
    let safe = !rest.starts_with(['/', '\\'])
        && !candidate
            .chars()
            .any(|c| c == '\\' || c.is_control() || c.is_whitespace());
    safe.then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_on_this_server_are_kept() {
        for kept in ["/", "/q/1?a=b", "/settings#theme", "/%2F%2Fevil.example"] {
            assert_eq!(local_path(kept), Some(kept));
        }
        for refused in [
            "",
            "q/1",
            "//evil.example/",
            "/\\evil.example",
            "/\\/evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/ok\\..",
            "https://evil.example/",
            "/ /evil.example",
        ] {
            assert_eq!(local_path(refused), None, "{refused:?}");
        }
    }
}
