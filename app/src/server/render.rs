//! Markdown rendered safely, on the server only (the page gets it as `Question::shown`, so the
//! browser carries no Markdown parser): raw HTML is shown as text, only http, https and mailto
//! links survive (opened in a new tab with `rel="noopener noreferrer"`), and images are never
//! fetched (their alt text stays).

use hark_core::model::{AgentSession, Event as HubEvent, InitData, Question, Rendered, Shown};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// True for the link targets a question may carry.
fn is_safe_link(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

fn link_open(url: &str, title: &str) -> String {
    let mut html = String::from("<a href=\"");
    let _ = pulldown_cmark_escape::escape_href(&mut html, url);
    html.push('"');
    if !title.is_empty() {
        html.push_str(" title=\"");
        let _ = pulldown_cmark_escape::escape_html(&mut html, title);
        html.push('"');
    }
    html.push_str(" target=\"_blank\" rel=\"noopener noreferrer\">");
    html
}

/// Renders `source` to HTML that is safe to insert.
pub fn render(source: &str) -> String {
    let options =
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS;
    // Whether each open link was kept, so its end matches.
    let mut open_links: Vec<bool> = Vec::new();
    let events = Parser::new_ext(source, options).filter_map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Some(Event::Text(html)),
        Event::Start(Tag::Link {
            dest_url, title, ..
        }) => {
            let keep = is_safe_link(&dest_url);
            open_links.push(keep);
            keep.then(|| Event::InlineHtml(CowStr::from(link_open(&dest_url, &title))))
        }
        Event::End(TagEnd::Link) => open_links
            .pop()
            .unwrap_or(false)
            .then_some(Event::InlineHtml(CowStr::Borrowed("</a>"))),
        // The alt text between these stays as plain text.
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        other => Some(other),
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// A single paragraph without its `<p>`, for places that take inline content only.
pub fn render_inline(source: &str) -> String {
    let html = render(source);
    let trimmed = html.trim_end();
    match trimmed
        .strip_prefix("<p>")
        .and_then(|rest| rest.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => html,
    }
}

/// A text as the page shows it: a JSON document as YAML, anything else as Markdown (inline
/// when `inline`).
fn rendered(source: &str, inline: bool) -> Rendered {
    match crate::server::json_yaml::json_as_yaml(source) {
        Some(yaml) => Rendered::Yaml(yaml),
        None if inline => Rendered::Html(render_inline(source)),
        None => Rendered::Html(render(source)),
    }
}

/// What a list shows of `question`: its headline and, under a title, its first question, as
/// every surface words them.
fn listed(question: &Question) -> Shown {
    Shown {
        headline: hark_text::question::headline(question),
        first_question: hark_text::question::first_question(question),
        ..Shown::default()
    }
}

/// What the page shows of `question`'s texts.
pub fn shown(question: &Question) -> Shown {
    Shown {
        title: question
            .title
            .as_deref()
            .map(|title| rendered(title, false)),
        questions: question
            .questions
            .iter()
            .map(|sub| rendered(&sub.question, true))
            .collect(),
        previews: question
            .questions
            .iter()
            .map(|sub| {
                sub.options
                    .iter()
                    .map(|option| {
                        option
                            .preview
                            .as_deref()
                            .map(|preview| rendered(preview, false))
                    })
                    .collect()
            })
            .collect(),
        ..listed(question)
    }
}

/// `question` ready for its own page: with all its texts rendered.
pub fn for_page(mut question: Question) -> Question {
    question.shown = Some(shown(&question));
    question
}

/// `question` ready for a list (the inbox, the history, a notification): with its headlines
/// alone, which is all a list shows; its own page asks for the rest.
pub fn for_list(mut question: Question) -> Question {
    question.shown = Some(listed(&question));
    question
}

/// `session` ready for the page: its last message's Markdown rendered.
pub fn session_for_page(mut session: AgentSession) -> AgentSession {
    session.shown = session.last_message.as_deref().map(render);
    session
}

/// An event ready for the page's lists: every question in it with its headlines.
pub fn event_for_page(event: &HubEvent) -> HubEvent {
    let for_page = for_list;
    match event {
        HubEvent::Init(init) => HubEvent::Init(InitData {
            questions: init.questions.iter().cloned().map(for_page).collect(),
            config: init.config.clone(),
            messages: init.messages.clone(),
            sessions: init
                .sessions
                .iter()
                .cloned()
                .map(session_for_page)
                .collect(),
        }),
        HubEvent::QuestionCreated(question) => {
            HubEvent::QuestionCreated(for_page(question.clone()))
        }
        HubEvent::QuestionAnswered(question) => {
            HubEvent::QuestionAnswered(for_page(question.clone()))
        }
        HubEvent::QuestionClosed(question) => HubEvent::QuestionClosed(for_page(question.clone())),
        HubEvent::QuestionUpdated(question) => {
            HubEvent::QuestionUpdated(for_page(question.clone()))
        }
        // Named, so an event that comes to carry a question is not passed on unrendered.
        HubEvent::QuestionRemind(_)
        | HubEvent::ConfigUpdated(_)
        | HubEvent::MessageCreated(_)
        | HubEvent::MessageDelivered(_) => event.clone(),
        HubEvent::SessionUpdated(session) => {
            HubEvent::SessionUpdated(session_for_page(session.clone()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_the_usual_things() {
        assert_eq!(
            render("**bold** and `code`"),
            "<p><strong>bold</strong> and <code>code</code></p>\n"
        );
        assert!(render("- a\n- b").contains("<li>a</li>"));
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = render("<script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"));
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;script&gt;"));
        let block = render("<div onclick=\"x()\">hi</div>");
        assert!(!block.contains("<div"), "{block}");
    }

    #[test]
    fn only_safe_links_survive_and_open_safely() {
        let html = render("[site](https://example.com \"t\") [mail](mailto:a@b.c)");
        assert!(html.contains(
            "<a href=\"https://example.com\" title=\"t\" target=\"_blank\" rel=\"noopener noreferrer\">site</a>"
        ));
        assert!(html.contains("href=\"mailto:a@b.c\""));
        for evil in [
            "javascript:alert(1)",
            "JAVASCRIPT:alert(1)",
            "data:text/html,x",
            "vbscript:x",
            "/relative",
        ] {
            let html = render(&format!("[click]({evil})"));
            assert!(!html.contains("<a"), "{evil}: {html}");
            assert!(html.contains("click"));
        }
        let quoted = render("[x](https://e.com/\"onmouseover=\"alert(1))");
        assert!(!quoted.contains("\" onmouseover"), "{quoted}");
    }

    #[test]
    fn images_are_never_fetched() {
        let html = render("![a cat](https://tracker.example/pixel.png)");
        assert!(!html.contains("<img"));
        assert!(html.contains("a cat"));
    }

    #[test]
    fn inline_rendering_unwraps_one_paragraph() {
        assert_eq!(
            render_inline("Deploy **now**?"),
            "Deploy <strong>now</strong>?"
        );
        assert!(render_inline("one\n\ntwo").contains("<p>two</p>"));
    }
}
