//! A script written into the page as the browser needs it (server only): without its comment
//! lines and indentation, which are for the source's readers and which every page would
//! otherwise carry (issue 48).

/// `source` without its comment lines, blank lines and leading indentation. Only for Hark's own
/// scripts, which start no line inside a string or a template with `//`.
pub fn compact(source: &str) -> String {
    source
        .lines()
        .map(str::trim_start)
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn comment_lines_and_indentation_go_and_the_code_stays() {
        let source =
            "// Why.\n(function () {\n  // How.\n\n  var url = 'http://x'; // kept\n})();\n";
        assert_eq!(
            compact(source),
            "(function () {\nvar url = 'http://x'; // kept\n})();"
        );
    }

    #[test]
    fn every_inline_script_still_parses_as_the_same_tokens() {
        for source in [
            include_str!("island_script.js"),
            include_str!("../pages/home/prefetch.js"),
        ] {
            let compacted = compact(source);
            assert!(compacted.len() < source.len());
            // Every line of code is there, in order.
            let code: Vec<&str> = (source.lines().map(str::trim))
                .filter(|line| !line.is_empty() && !line.starts_with("//"))
                .collect();
            assert_eq!(compacted.lines().map(str::trim).collect::<Vec<_>>(), code);
        }
    }
}
