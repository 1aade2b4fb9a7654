//! What an HTTP request asks of the page (server only): the language (as `hark-text`
//! negotiates it for every surface) and the theme, from its cookies and `Accept-Language`.

use super::{THEME_COOKIE, Theme};
use crate::i18n::Lang;
use hark_text::request::header_cookie;
use leptos::prelude::use_context;

/// What a request asks for: the cookies' picks, else `Accept-Language` and the system theme.
pub fn from_headers(cookie_header: Option<&str>, accept_language: Option<&str>) -> (Lang, Theme) {
    let lang = hark_text::request::requested(cookie_header, accept_language);
    let theme = header_cookie(cookie_header.unwrap_or_default(), THEME_COOKIE)
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(header_cookie("not_hark_theme=dark", THEME_COOKIE), None);
    }
}
