//! `cargo xtask lines [FOLDER]`: the lines of non-test Rust code under a folder (default
//! `server/src/channels`), each file's and in all, as issue 43 counts them: every line,
//! comments and blanks included, but each item marked `#[cfg(test)]` (a `mod tests;`
//! declaration, or the braces of a module or function) and the files `tests.rs` and
//! `*/tests/*` left out. Hand-written: a line count needs no parser, and braces are counted
//! as they stand (a brace inside a string in a test module would mislead it; none does).

use crate::root;
use std::path::Path;

/// Counts and prints.
pub fn run(args: &[String]) -> Result<(), String> {
    let folder = root().join(args.first().map_or("server/src/channels", String::as_str));
    let mut files = Vec::new();
    walk(&folder, &mut files)?;
    files.sort();
    let mut total = 0;
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|error| format!("{}: {error}", file.display()))?;
        let lines = non_test_lines(&text);
        total += lines;
        let shown = file.strip_prefix(&folder).unwrap_or(file);
        println!("{lines:>6}  {}", shown.display());
    }
    println!("{total:>6}  in all, {}", folder.display());
    Ok(())
}

fn walk(folder: &Path, files: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    for entry in entries {
        let path = entry.map_err(|error| error.to_string())?.path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "tests" {
                walk(&path, files)?;
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            files.push(path);
        }
    }
    Ok(())
}

/// The lines of `text` that are not in an item marked `#[cfg(test)]`.
fn non_test_lines(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let (mut kept, mut at) = (0, 0);
    while at < lines.len() {
        if lines[at].trim() != "#[cfg(test)]" {
            kept += 1;
            at += 1;
            continue;
        }
        at += 1;
        while at < lines.len() && lines[at].trim().starts_with("#[") {
            at += 1;
        }
        // A declaration (`mod tests;`) ends on its line; an item with a body at its last brace.
        let (mut depth, mut opened) = (0i64, false);
        while at < lines.len() {
            let line = lines[at];
            at += 1;
            if !opened && line.trim_end().ends_with(';') && !line.contains('{') {
                break;
            }
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            opened |= line.contains('{');
            if opened && depth <= 0 {
                break;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_items_are_left_out_wherever_they_stand() {
        let text = "use a;\n\n#[cfg(test)]\nmod tests;\n\nfn code() {\n    1\n}\n\n#[cfg(test)]\n#[allow(dead_code)]\nfn helper() {\n    if true {}\n}\n\n#[cfg(test)]\nmod more {\n    fn x() {}\n}\n";
        // `use a;`, a blank, `fn code() {`, `1`, `}`, and the blanks between the items.
        assert_eq!(super::non_test_lines(text), 8);
    }
}
