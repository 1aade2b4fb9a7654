//! A question's Markdown as one plain line of words (server only), for headlines in lists,
//! notifications and chat apps: the browser gets headlines already rendered, and carries no
//! Markdown parser.

use pulldown_cmark::{Event, Options, Parser, TagEnd};

/// The words of Markdown `source` in one line, without any markup. Blocks (headings,
/// paragraphs, list items, code) are kept apart by a space, so "## Release 2.4" over "The
/// migration…" reads "Release 2.4 The migration…".
pub fn one_line(source: &str) -> String {
    let mut text = String::new();
    // The page's own options, so a table or a task list reads as its words here too.
    let options =
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS;
    for event in Parser::new_ext(source, options) {
        match event {
            Event::Text(words)
            | Event::Code(words)
            | Event::Html(words)
            | Event::InlineHtml(words) => text.push_str(&words),
            Event::SoftBreak | Event::HardBreak | Event::Rule => text.push(' '),
            Event::End(end) if ends_a_block(end) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn ends_a_block(end: TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Paragraph
            | TagEnd::Heading(_)
            | TagEnd::BlockQuote(_)
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::List(_)
            | TagEnd::Item
            | TagEnd::FootnoteDefinition
            | TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_stay_apart_and_markup_goes() {
        let cases = [
            (
                "## Release 2.4\nThe migration drops a column.",
                "Release 2.4 The migration drops a column.",
            ),
            ("**Deploy** now?", "Deploy now?"),
            ("a\nb", "a b"),
            ("- one\n- two", "one two"),
            ("> quoted\n\nafter", "quoted after"),
            ("```\nlet x;\n```\nrun it", "let x; run it"),
            ("| a | b |\n|---|---|\n| 1 | 2 |", "a b 1 2"),
            ("see [the docs](https://example.com)", "see the docs"),
            ("![alt text](x.png) here", "alt text here"),
            (
                "Release **2.3** is [ready](https://x.y)\n\nnow `go`",
                "Release 2.3 is ready now go",
            ),
            ("<b>raw</b>", "<b>raw</b>"),
            ("   ", ""),
        ];
        for (source, expected) in cases {
            assert_eq!(one_line(source), expected, "{source:?}");
        }
    }
}
