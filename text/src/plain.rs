//! Text cut to a length, in bytes (what a chat app or a push server counts) or in characters
//! (what a reader sees).

/// `text` within `limit` bytes: cut on a character boundary with "…" when longer.
pub fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let ellipsis = "…";
    let mut end = limit.saturating_sub(ellipsis.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ellipsis}", &text[..end])
}

/// `text` within `limit` characters, with "…" after the first `limit` when longer (for places
/// that count what a reader sees, not bytes).
pub fn cut_chars(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// `text` within `limit` characters with its "…" counted (for services that refuse a text past
/// their limit, such as Slack's blocks and Discord's components).
pub fn fit_chars(text: &str, limit: usize) -> String {
    cut_chars(text, limit.saturating_sub(1).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_within_the_limit_on_a_character_boundary() {
        let mixed = "确认部署吗？🚀 Да ".repeat(400);
        for limit in [10, 11, 12, 13, 100, 4096] {
            let cut = cut(&mixed, limit);
            assert!(cut.len() <= limit, "{limit}: {}", cut.len());
            assert!(cut.ends_with('…'));
            assert!(
                cut.len() + 4 + 3 > limit,
                "{limit}: cut no more than a character"
            );
        }
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut_chars(&"é".repeat(200), 140).chars().count(), 141);
        assert_eq!(cut_chars("short", 140), "short");
    }
}
