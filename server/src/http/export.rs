//! The history as a file: JSON (every question as the API shows it) or Markdown (a readable
//! record of what was asked and answered), in the daemon's language, written one question at a
//! time so an export streams.

use hark_core::model::{AgentMessage, Question};
use hark_text::{Lang, date_time_in, t_in};
use std::fmt::Write;

/// The export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
}

impl std::str::FromStr for Format {
    type Err = ();
    fn from_str(text: &str) -> Result<Format, ()> {
        match text {
            "json" => Ok(Format::Json),
            "markdown" | "md" => Ok(Format::Markdown),
            _ => Err(()),
        }
    }
}

/// The Markdown document's first line.
pub fn markdown_heading(lang: Lang) -> String {
    format!("# {}\n", t_in(lang, "export-title", &[]))
}

/// The Markdown document of the messages for agents (`of=messages`), newest first.
pub fn markdown_messages(messages: &[AgentMessage], lang: Lang) -> String {
    let mut out = format!("# {}\n", t_in(lang, "export-messages-title", &[]));
    for message in messages {
        let written = date_time_in(lang, message.created_at);
        let status = match message.delivered_at {
            Some(at) => t_in(
                lang,
                "export-message-delivered",
                &[("when", date_time_in(lang, at).into())],
            ),
            None => t_in(lang, "export-message-waiting", &[]),
        };
        let _ = write!(
            out,
            "\n## {}\n\n*{written} · {status}*\n\n> {}\n",
            one_line(&message.to.label()),
            message.text.replace('\n', "\n> ")
        );
    }
    out
}

/// One question's section of the Markdown document.
pub fn markdown_question(question: &Question, lang: Lang) -> String {
    let mut out = String::new();
    let _ = write!(out, "\n## {}\n\n", one_line(question.headline()));
    let mut facts = vec![t_in(
        lang,
        "export-asked",
        &[("when", date_time_in(lang, question.created_at).into())],
    )];
    if let Some(client) = question
        .source
        .as_ref()
        .and_then(|source| source.client.clone())
    {
        facts.push(t_in(lang, "export-by", &[("client", client.into())]));
    }
    facts.push(hark_text::question::status_name(lang, question.status));
    let _ = writeln!(out, "*{}*", facts.join(" · "));
    if question.title.is_some() {
        let _ = writeln!(out, "\n{}", question.title.as_deref().unwrap_or_default());
    }
    for (index, sub) in question.questions.iter().enumerate() {
        let _ = writeln!(out, "\n**{}**\n", one_line(&sub.question));
        let answer = question
            .answers
            .as_ref()
            .and_then(|answers| answers.get(index));
        for option in &sub.options {
            let picked = answer.is_some_and(|answer| answer.selected.contains(&option.label));
            let _ = writeln!(
                out,
                "- [{}] {}",
                if picked { "x" } else { " " },
                option.label
            );
        }
        if let Some(text) = answer.and_then(|answer| answer.free_text.as_deref()) {
            let _ = writeln!(out, "\n> {}", text.replace('\n', "\n> "));
        }
        let images = answer.map_or(0, |answer| answer.images.len());
        if images > 0 {
            let _ = writeln!(
                out,
                "\n*{}*",
                t_in(lang, "export-images", &[("count", images.into())])
            );
        }
    }
    if let Some(note) = &question.note {
        let _ = writeln!(
            out,
            "\n{}",
            t_in(lang, "question-note", &[("note", note.clone().into())])
        );
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
