//! What an HTTP request asks of the page (server only): the language and theme from its cookies
//! and `Accept-Language`, and whether a browser navigates (wants HTML). The daemon's own
//! refusal pages read the same, so both speak the person's language.

use crate::i18n::Lang;
use crate::prefs::{LANG_COOKIE, THEME_COOKIE, Theme};
use leptos::prelude::use_context;

/// The value of cookie `name` in a request's `Cookie` header.
pub fn header_cookie(cookie_header: &str, name: &str) -> Option<String> {
    cookie::Cookie::split_parse(cookie_header)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().to_string())
}

/// What a request asks for: the cookies' picks, else `Accept-Language` and the system theme.
pub fn from_headers(cookie_header: Option<&str>, accept_language: Option<&str>) -> (Lang, Theme) {
    let cookies = cookie_header.unwrap_or_default();
    let lang = header_cookie(cookies, LANG_COOKIE)
        .and_then(|code| code.parse::<Lang>().ok())
        .unwrap_or_else(|| Lang::negotiate(accept_language.unwrap_or_default()));
    let theme = header_cookie(cookies, THEME_COOKIE)
        .and_then(|code| code.parse::<Theme>().ok())
        .unwrap_or_default();
    (lang, theme)
}

/// The language and theme of the request being rendered (server only).
pub fn requested() -> (Lang, Theme) {
    use_context::<axum::http::request::Parts>().map_or((Lang::En, Theme::System), |parts| {
        from_header_map(&parts.headers)
    })
}

/// What a request's headers ask for (server only): `from_headers` on its `Cookie` and
/// `Accept-Language`.
pub fn from_header_map(headers: &axum::http::HeaderMap) -> (Lang, Theme) {
    use axum::http::header;
    let text = |name| {
        headers
            .get(name)
            .and_then(|value: &axum::http::HeaderValue| value.to_str().ok())
    };
    from_headers(text(header::COOKIE), text(header::ACCEPT_LANGUAGE))
}

/// Whether the request came from a browser navigating (a page, a plain form post) rather than
/// from a script or a tool: it accepts HTML.
pub fn wants_html(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

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

    #[test]
    fn cookies_beat_accept_language_and_bad_cookies_are_ignored() {
        assert_eq!(from_headers(None, None), (Lang::En, Theme::System));
        assert_eq!(
            from_headers(Some("a=1; hark_lang=ko; hark_theme=dark"), Some("ru")),
            (Lang::Ko, Theme::Dark)
        );
        assert_eq!(
            from_headers(
                Some("hark_lang=xx; hark_theme=pink"),
                Some("ja-JP,en;q=0.5")
            ),
            (Lang::Ja, Theme::System)
        );
        assert_eq!(
            header_cookie("x=1; hark_theme=light", THEME_COOKIE).as_deref(),
            Some("light")
        );
        assert_eq!(header_cookie("not_hark_lang=ru", LANG_COOKIE), None);
    }
}
