//! What a request asks for, read from its headers (server only): its language (the cookie's
//! pick, else its `Accept-Language`) and whether it wants a page or data. The page's server
//! side and the daemon's own refusal pages read the same, so both speak the person's language.

use crate::Lang;
use crate::negotiate::{LANG_COOKIE, accept_language_pick};

/// The value of cookie `name` in a request's `Cookie` header.
pub fn header_cookie(cookie_header: &str, name: &str) -> Option<String> {
    cookie::Cookie::split_parse(cookie_header)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().to_string())
}

/// The language a request asks for: its cookie's pick, else its `Accept-Language`.
pub fn requested(cookie_header: Option<&str>, accept_language: Option<&str>) -> Lang {
    header_cookie(cookie_header.unwrap_or_default(), LANG_COOKIE)
        .and_then(|code| code.parse::<Lang>().ok())
        .unwrap_or_else(|| accept_language_pick(accept_language.unwrap_or_default()))
}

/// The language a request's headers ask for: `requested` on its `Cookie` and
/// `Accept-Language`.
pub fn lang_of(headers: &http::HeaderMap) -> Lang {
    let text = |name| {
        headers
            .get(name)
            .and_then(|value: &http::HeaderValue| value.to_str().ok())
    };
    requested(
        text(http::header::COOKIE),
        text(http::header::ACCEPT_LANGUAGE),
    )
}

/// Whether the request came from a browser navigating (a page, a plain form post) rather than
/// from a script or a tool: it accepts HTML. Such a request is refused with a page in its
/// language, the others with JSON.
pub fn wants_html(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_wins_over_the_header_unless_it_names_no_language() {
        let ko = Some("ko-KR");
        assert_eq!(requested(Some("a=1; hark_lang=ru"), ko), Lang::Ru);
        assert_eq!(requested(Some("hark_lang=xx"), ko), Lang::Ko);
        assert_eq!(requested(None, ko), Lang::Ko);
        assert_eq!(requested(None, None), Lang::En);
    }
}
