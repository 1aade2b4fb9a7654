//! A script written into the page as the browser needs it (server only): without its comment
//! lines and indentation, which are for the source's readers and which every page would
//! otherwise carry (issue 48).

/// `source` without its comment lines, blank lines and leading indentation. Only for Hark's own
/// scripts, which have no string or template literal over several lines (its lines would lose
/// their indentation, and one starting with `//` would go). The browser tests run every script
/// so written (`early-socket.spec.ts` holds all three).
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
}
