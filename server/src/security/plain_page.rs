//! The daemon's few pages that are not the app: a refusal or a failed form explained in the
//! person's language, in plain HTML with no script (the app's bundle is not loaded for them).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use hark_text::{Lang, t_in};

/// The page's own policy: no scripts at all, its one inline style allowed.
const PAGE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; \
                        form-action 'none'; frame-ancestors 'none'";

/// A page titled by the Fluent key `title`, with a paragraph per key in `paragraphs` and, if
/// given, a link `(href, key)`.
pub fn respond(
    status: StatusCode,
    lang: Lang,
    title: &str,
    paragraphs: &[&str],
    link: Option<(&str, &str)>,
) -> Response {
    let text = |key: &str| escape(&t_in(lang, key, &[]));
    let body: String = paragraphs
        .iter()
        .map(|key| format!("<p>{}</p>", text(key)))
        .collect();
    let link = link
        .map(|(href, key)| format!("<p><a href=\"{}\">{}</a></p>", escape(href), text(key)))
        .unwrap_or_default();
    let html = format!(
        "<!DOCTYPE html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>{title}</title>\
         <style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;\
         padding:0 1rem;line-height:1.5}}</style></head><body><h1>{title}</h1>{body}{link}\
         </body></html>",
        code = lang.code(),
        title = text(title),
    );
    let mut page = (status, Html(html)).into_response();
    page.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_CSP),
    );
    page
}

fn escape(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}
