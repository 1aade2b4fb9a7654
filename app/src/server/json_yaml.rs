//! A title or question that is a JSON document is easier to read as YAML (Fello's habit): this
//! prints a JSON value as block YAML, on the server (the page gets it rendered). Hand-written
//! rather than a YAML crate because it only ever emits, and an emitter is a screenful.

use serde_json::Value;

/// The YAML form of `text` when it is a JSON object or array; `None` for anything else.
pub fn json_as_yaml(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    let value: Value = serde_json::from_str(trimmed).ok()?;
    let mut out = String::new();
    write_value(&mut out, &value, 0);
    Some(out.trim_end().to_string())
}

fn indent(out: &mut String, level: usize) {
    out.extend(std::iter::repeat_n("  ", level));
}

fn write_value(out: &mut String, value: &Value, level: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, item) in map {
                indent(out, level);
                out.push_str(&scalar_string(key));
                out.push(':');
                write_child(out, item, level);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                indent(out, level);
                out.push('-');
                match item {
                    Value::Object(map) if !map.is_empty() => {
                        // The first key shares the dash's line; the rest align under it.
                        let mut nested = String::new();
                        write_value(&mut nested, item, level + 1);
                        out.push(' ');
                        out.push_str(nested.trim_start());
                    }
                    _ => write_child(out, item, level),
                }
            }
        }
        other => {
            indent(out, level);
            out.push_str(&scalar(other, level));
            out.push('\n');
        }
    }
}

/// The value after `key:` or `-`: inline when scalar or empty, on the next lines otherwise.
fn write_child(out: &mut String, value: &Value, level: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_value(out, value, level + 1);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_value(out, value, level + 1);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other, level + 1));
            out.push('\n');
        }
    }
}

fn scalar(value: &Value, level: usize) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => number.to_string(),
        Value::String(text) if text.contains('\n') && !text.contains('\r') => {
            // A literal block keeps multi-line text readable.
            let mut block = String::from(if text.ends_with('\n') { "|" } else { "|-" });
            for line in text.trim_end_matches('\n').split('\n') {
                block.push('\n');
                if !line.is_empty() {
                    indent(&mut block, level);
                    block.push_str(line);
                }
            }
            block
        }
        Value::String(text) => scalar_string(text),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
    }
}

/// A string as a plain scalar when YAML would read it back unchanged, else double-quoted
/// (JSON's escapes are valid YAML).
fn scalar_string(text: &str) -> String {
    let reserved = matches!(
        text.to_ascii_lowercase().as_str(),
        "" | "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
    );
    let looks_numeric = text.parse::<f64>().is_ok();
    let plain = !reserved
        && !looks_numeric
        && text.trim() == text
        && !text.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c))
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && text.chars().all(|c| !c.is_control());
    if plain {
        text.to_string()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_json_documents_are_converted() {
        assert_eq!(json_as_yaml("Deploy now?"), None);
        assert_eq!(json_as_yaml("{not json"), None);
        assert_eq!(json_as_yaml("42"), None);
        assert!(json_as_yaml(" {\"a\": 1} ").is_some());
    }

    #[test]
    fn nested_documents_become_block_yaml() {
        let json = r#"{"service": "api", "replicas": 3, "enabled": true, "owner": null,
            "ports": [80, 443], "env": {"MODE": "prod", "EMPTY": {}},
            "steps": [{"name": "build", "run": "cargo build"}, {"name": "test"}], "none": []}"#;
        let expected = "\
service: api
replicas: 3
enabled: true
owner: null
ports:
  - 80
  - 443
env:
  MODE: prod
  EMPTY: {}
steps:
  - name: build
    run: cargo build
  - name: test
none: []";
        assert_eq!(json_as_yaml(json).unwrap(), expected);
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        let yaml = json_as_yaml(r#"{"a": "true", "b": "12", "c": "x: y", "d": " pad", "e": "", "f": "- item", "g": "tab\there"}"#)
            .unwrap();
        assert_eq!(
            yaml,
            "a: \"true\"\nb: \"12\"\nc: \"x: y\"\nd: \" pad\"\ne: \"\"\nf: \"- item\"\ng: \"tab\\there\""
        );
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        let yaml = json_as_yaml(r#"{"script": "line one\nline two"}"#).unwrap();
        assert_eq!(yaml, "script: |-\n  line one\n  line two");
    }
}
