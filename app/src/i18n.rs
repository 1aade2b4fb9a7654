//! Fluent lookup: every visible string goes through `t` or `t_args`, read from
//! `locales/<lang>/*.ftl` compiled into the binary and the wasm alike.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::LazyLock;

/// The English catalogue; the other languages join in a later change.
const EN_MAIN: &str = include_str!("../../locales/en/main.ftl");

static ENGLISH: LazyLock<FluentBundle<FluentResource>> = LazyLock::new(|| {
    let resource =
        FluentResource::try_new(EN_MAIN.to_string()).unwrap_or_else(|(resource, _errors)| resource);
    let mut bundle = FluentBundle::new_concurrent(vec![unic_langid::langid!("en")]);
    // Isolation marks (U+2068/U+2069) around placeables would leak into titles and tests.
    bundle.set_use_isolating(false);
    // Duplicate ids are a catalogue bug that the tests below catch; the first one wins.
    let _ = bundle.add_resource(resource);
    bundle
});

/// The message `key`, or the key itself when it is missing (a test keeps that from shipping).
pub fn t(key: &str) -> String {
    format_message(key, None)
}

/// The message `key` with its variables.
pub fn t_args(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    format_message(key, Some(&fluent_args))
}

fn format_message(key: &str, args: Option<&FluentArgs<'_>>) -> String {
    let bundle = &*ENGLISH;
    let Some(pattern) = bundle.get_message(key).and_then(|message| message.value()) else {
        return key.to_string();
    };
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, args, &mut errors)
        .into_owned()
}

/// Every message id in the English catalogue, for the catalogue tests.
pub fn message_ids() -> Vec<String> {
    ENGLISH_IDS.clone()
}

static ENGLISH_IDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let resource =
        FluentResource::try_new(EN_MAIN.to_string()).unwrap_or_else(|(resource, _errors)| resource);
    resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(message) => Some(message.id.name.to_string()),
            _ => None,
        })
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_parses_cleanly() {
        assert!(FluentResource::try_new(EN_MAIN.to_string()).is_ok());
    }

    #[test]
    fn messages_format_with_plurals() {
        assert_eq!(t("app-name"), "Hark");
        assert_eq!(
            t_args("home-question-count", &[("count", 1.into())]),
            "1 question"
        );
        assert_eq!(
            t_args("home-question-count", &[("count", 3.into())]),
            "3 questions"
        );
        assert_eq!(t("no-such-key"), "no-such-key");
    }

    #[test]
    fn every_key_used_in_the_code_exists_and_every_key_is_used() {
        let sources = collect_sources(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        let ids = message_ids();
        for id in &ids {
            assert!(
                sources.contains(&format!("\"{id}\"")),
                "message {id} is in the catalogue but no code uses it"
            );
        }
        let used = regex_lite_keys(&sources);
        for key in used {
            assert!(
                ids.contains(&key),
                "the code uses {key}, which the catalogue lacks"
            );
        }
    }

    fn collect_sources(dir: std::path::PathBuf) -> String {
        let mut all = String::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                all.push_str(&collect_sources(path));
            } else if path.extension().is_some_and(|ext| ext == "rs") && !path.ends_with("i18n.rs")
            {
                all.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
        all
    }

    /// Keys passed literally to `t("…")` or `t_args("…"`.
    fn regex_lite_keys(sources: &str) -> Vec<String> {
        let mut keys = Vec::new();
        for marker in ["t(\"", "t_args(\""] {
            for (start, _) in sources.match_indices(marker) {
                let preceded_by_word = sources[..start]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
                if preceded_by_word {
                    continue;
                }
                let rest = &sources[start + marker.len()..];
                if let Some(end) = rest.find('"') {
                    keys.push(rest[..end].to_string());
                }
            }
        }
        keys
    }
}
