//! A question's Markdown as one plain line of words (server only), for headlines in lists,
//! notifications and chat apps: the browser gets headlines already rendered, and carries no
//! Markdown parser. And the other way: a text (a command a permission asks about) as Markdown
//! that shows it literally, whole, with nothing hidden.

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

/// Runs of blanks (spaces, tabs) at least this long are counted, not shown.
const LONG_BLANKS: usize = 8;
/// Runs of empty lines at least this long are counted, not shown.
const LONG_EMPTY_LINES: usize = 3;

/// `text` as a Markdown code block that shows it literally and whole, in `lang`: nothing in it
/// renders as markup (the fence is longer than any run of backticks in it), control characters
/// are written as escapes (`\u{1b}`), and a long run of blanks or of empty lines is replaced by
/// a note of how long it was, so nothing can push the rest out of sight. At most `most` of its
/// characters are shown, and then the block says how many more there are.
pub fn literal_block(lang: crate::Lang, text: &str, most: usize) -> String {
    let mut shown = String::new();
    let mut chars = text.chars().peekable();
    let mut count = 0;
    while let Some(c) = chars.next() {
        if count >= most {
            let rest = 1 + chars.count();
            shown.push_str(&crate::t_in(lang, "literal-cut", &[("count", rest.into())]));
            break;
        }
        count += 1;
        match c {
            ' ' | '\t' => {
                let mut run = 1;
                while chars.next_if(|next| matches!(next, ' ' | '\t')).is_some() {
                    run += 1;
                    count += 1;
                }
                if run >= LONG_BLANKS {
                    let note = crate::t_in(lang, "literal-blanks", &[("count", run.into())]);
                    shown.push_str(&note);
                } else {
                    shown.extend(std::iter::repeat_n(' ', run));
                }
            }
            '\n' => {
                let mut run = 1;
                while chars.next_if(|next| *next == '\n').is_some() {
                    run += 1;
                    count += 1;
                }
                if run >= LONG_EMPTY_LINES {
                    let note =
                        crate::t_in(lang, "literal-empty-lines", &[("count", (run - 1).into())]);
                    shown.push('\n');
                    shown.push_str(&note);
                    shown.push('\n');
                } else {
                    shown.extend(std::iter::repeat_n('\n', run));
                }
            }
            c if c.is_control() => shown.push_str(&c.escape_unicode().to_string()),
            c => shown.push(c),
        }
    }
    let longest_ticks = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_ticks.max(2) + 1);
    format!("{fence}\n{shown}\n{fence}")
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
