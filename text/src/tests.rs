//! Catalogue checks: every locale parses, has every key and no stray one, is really translated,
//! and uses only the variables the code passes; the code uses every key.

use crate::catalogues::{SERVER_SOURCES, all_sources};
use crate::{Lang, t_in};
use fluent_bundle::FluentResource;
use fluent_syntax::ast;
use std::collections::{BTreeMap, BTreeSet};

/// Messages that read the same in every language (or all but one: WeChat is 微信 in Chinese, and
/// Feishu 飞书), and "App Secret", which Feishu's and Lark's consoles call so in every language.
const SAME_EVERYWHERE: [&str; 9] = [
    "app-name",
    "chat-app",
    "elsewhere-wechat",
    "elsewhere-slack",
    "elsewhere-feishu",
    "elsewhere-feishu-app-secret",
    "elsewhere-discord",
    // Who asks and what, with punctuation alone between them (Korean and Russian write it as
    // English does).
    "hook-elicitation-title",
    // A rule's agent and tool, likewise.
    "rules-what",
];

/// Each message id with the variables its value and variants reference.
fn variables_by_message(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(source).expect("the catalogue parses");
    resource
        .body
        .iter()
        .filter_map(|entry| match entry {
            ast::Entry::Message(message) => {
                let mut names = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_variables(pattern, &mut names);
                }
                Some((message.id.name.to_string(), names))
            }
            _ => None,
        })
        .collect()
}

fn pattern_variables(pattern: &ast::Pattern<&str>, names: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, names);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, names: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, names);
            for variant in variants {
                pattern_variables(&variant.value, names);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, names),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, names: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            names.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, names),
        _ => {}
    }
}

/// The messages of `lang`'s page catalogue.
pub(crate) fn page_keys(lang: Lang) -> BTreeSet<String> {
    variables_by_message(crate::catalogues::page_source(lang))
        .into_keys()
        .collect()
}

/// Every catalogue of `lang`, the page's and the daemon's, as one source.
fn whole(lang: Lang) -> String {
    all_sources(lang).join("\n")
}

/// Every message's text in one language, for the "really translated" check.
fn values(lang: Lang) -> BTreeMap<String, String> {
    let source = whole(lang);
    variables_by_message(&source)
        .into_keys()
        .map(|key| {
            let text = t_in(lang, &key, &[]);
            (key, text)
        })
        .collect()
}

/// The workspace's folder.
fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("hark-text lives in the workspace")
        .to_path_buf()
}

/// The code of every crate that formats messages: the page, the daemon and this one.
fn code_sources() -> String {
    let mut all = String::new();
    for folder in ["app/src", "server/src", "text/src"] {
        for file in walk(workspace().join(folder)) {
            if !file.ends_with("text/src/tests.rs") {
                all.push_str(&std::fs::read_to_string(file).unwrap());
            }
        }
    }
    all
}

/// The variables the chat engine's shared words pass (`channels::chat::words::Words::in_app`).
const CHAT_WORDS: [&str; 4] = ["app", "setup", "channel", "pair"];

/// The keys the code formats, each with the variable names passed at its call sites: literal
/// `t("…")`/`tr("…")` pass none, `t_args("…", &[("name", …)])`/`t_in(…, "…", &[…])` pass those
/// listed, `in_app("…")` the chat words'. A key mentioned only as a string literal (through a
/// helper) passes none.
fn calls_in_code(sources: &str) -> BTreeMap<String, Vec<BTreeSet<String>>> {
    let mut calls: BTreeMap<String, Vec<BTreeSet<String>>> = BTreeMap::new();
    for marker in ["t(", "tr(", "t_args(", "t_in(", "in_app("] {
        for (start, _) in sources.match_indices(marker) {
            let preceded_by_word = sources[..start]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if preceded_by_word {
                continue;
            }
            let rest = &sources[start + marker.len()..];
            // `t_in` names its language first; the others start with the key.
            let rest = if marker == "t_in(" {
                rest.split_once(',').map_or("", |(_, after)| after)
            } else {
                rest
            };
            let Some(quoted) = rest.trim_start().strip_prefix('"') else {
                continue;
            };
            let Some(end) = quoted.find('"') else {
                continue;
            };
            let key = quoted[..end].to_string();
            let passed = if matches!(marker, "t_args(" | "t_in(") {
                passed_names(&quoted[end..])
            } else if marker == "in_app(" {
                CHAT_WORDS.iter().map(|name| name.to_string()).collect()
            } else {
                BTreeSet::new()
            };
            calls.entry(key).or_default().push(passed);
        }
    }
    calls
}

/// The `("name", …)` pairs of one call's argument list `&[…]`.
fn passed_names(call_rest: &str) -> BTreeSet<String> {
    let list = call_rest
        .split_once('[')
        .and_then(|(_, list)| list.split_once(']'))
        .map_or("", |(list, _)| list);
    list.match_indices("(\"")
        .filter_map(|(at, _)| {
            let name = &list[at + 2..];
            name.find('"').map(|end| name[..end].to_string())
        })
        .collect()
}

#[test]
fn every_catalogue_parses_cleanly() {
    for lang in Lang::ALL {
        let source = whole(lang);
        let source = source.as_str();
        if let Err((_, errors)) = FluentResource::try_new(source.to_string()) {
            panic!("{lang}: {errors:?}");
        }
    }
}

#[test]
fn every_locale_has_exactly_the_english_keys() {
    let english: BTreeSet<String> = variables_by_message(&whole(Lang::En)).into_keys().collect();
    for lang in &Lang::ALL[1..] {
        let source = whole(*lang);
        let source = source.as_str();
        let keys: BTreeSet<String> = variables_by_message(source).into_keys().collect();
        let missing: Vec<_> = english.difference(&keys).collect();
        let extra: Vec<_> = keys.difference(&english).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has keys English lacks: {extra:?}");
    }
}

#[test]
fn no_locale_is_left_in_english() {
    let english = values(Lang::En);
    for lang in &Lang::ALL[1..] {
        for (key, text) in values(*lang) {
            if SAME_EVERYWHERE.contains(&key.as_str()) {
                continue;
            }
            assert_ne!(
                english.get(&key),
                Some(&text),
                "{lang}: {key} is still the English text"
            );
        }
    }
}

#[test]
fn every_key_in_the_code_exists_and_every_key_is_used() {
    let sources = code_sources();
    let catalogue = variables_by_message(&whole(Lang::En));
    for key in catalogue.keys() {
        assert!(
            sources.contains(&format!("\"{key}\"")),
            "message {key} is in the catalogue but no code uses it"
        );
    }
    for key in calls_in_code(&sources).keys() {
        assert!(
            catalogue.contains_key(key),
            "the code uses {key}, which the catalogue lacks"
        );
    }
}

#[test]
fn the_page_never_formats_a_message_it_does_not_carry() {
    let mut page = String::new();
    for entry in walk(workspace().join("app/src")) {
        page.push_str(&std::fs::read_to_string(entry).unwrap());
    }
    let server_only: BTreeSet<String> = SERVER_SOURCES
        .iter()
        .flat_map(|(_, source)| variables_by_message(source).into_keys())
        .collect();
    for key in calls_in_code(&page).keys() {
        assert!(
            !server_only.contains(key),
            "the page formats {key}, which is in server.ftl: move it to main.ftl"
        );
    }
    assert!(
        server_only.contains("unauthorized-title"),
        "the check sees server.ftl"
    );
}

/// The Rust files under `dir`.
fn walk(dir: std::path::PathBuf) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn messages_use_only_variables_the_code_passes() {
    let calls = calls_in_code(&code_sources());
    for lang in Lang::ALL {
        let source = whole(lang);
        let source = source.as_str();
        for (key, referenced) in variables_by_message(source) {
            let sites = calls
                .get(&key)
                .cloned()
                .unwrap_or_else(|| vec![BTreeSet::new()]);
            for passed in sites {
                let unpassed: Vec<_> = referenced.difference(&passed).collect();
                assert!(
                    unpassed.is_empty(),
                    "{lang}: {key} uses {unpassed:?}, which a call site does not pass"
                );
            }
        }
    }
}

#[test]
fn the_checks_find_what_they_look_for() {
    // The scanners themselves: a call with arguments, one without, a helper-held key.
    let calls = calls_in_code(
        "x t_args(\"a-b\", &[(\"count\", 1.into()), (\"name\", n.into())]) t(\"c\") tr(\"d\") \
         t_in(lang, \"e\", &[(\"count\", 2.into())]) t_args(\n    \"f\",\n    &[\n (\"x\", 1.into()),\n ],\n) \
         words.in_app(\"g\")",
    );
    assert_eq!(
        calls["a-b"],
        vec![BTreeSet::from(["count".to_string(), "name".to_string()])]
    );
    assert_eq!(calls["c"], vec![BTreeSet::new()]);
    assert_eq!(calls["d"], vec![BTreeSet::new()]);
    assert_eq!(calls["e"], vec![BTreeSet::from(["count".to_string()])]);
    assert_eq!(calls["f"], vec![BTreeSet::from(["x".to_string()])]);
    assert_eq!(
        calls["g"],
        vec![CHAT_WORDS.iter().map(|name| name.to_string()).collect()]
    );
    let variables = variables_by_message("m = { $n ->\n [one] { $who } x\n *[other] y\n}\n");
    assert_eq!(
        variables["m"],
        BTreeSet::from(["n".to_string(), "who".to_string()])
    );
}

#[test]
fn messages_format_with_plurals() {
    assert_eq!(t_in(Lang::En, "app-name", &[]), "Hark");
    let count = |lang: Lang, key: &str, n: i64| t_in(lang, key, &[("count", n.into())]);
    assert_eq!(count(Lang::En, "home-question-count", 1), "1 question");
    assert_eq!(count(Lang::En, "home-question-count", 3), "3 questions");
    assert_eq!(t_in(Lang::En, "no-such-key", &[]), "no-such-key");
}

#[test]
fn russian_plurals_take_their_three_forms() {
    let pending = |n: i64| t_in(Lang::Ru, "pending-badge", &[("count", n.into())]);
    assert_eq!(pending(1), "1 вопрос ждёт");
    assert_eq!(pending(2), "2 вопроса ждут");
    assert_eq!(pending(5), "5 вопросов ждут");
    assert_eq!(pending(21), "21 вопрос ждёт");
    assert_eq!(pending(11), "11 вопросов ждут");
}

#[test]
fn dates_follow_the_language() {
    let lang_date = |lang: Lang| {
        t_in(
            lang,
            "date-time",
            &[
                ("year", 2026.into()),
                ("month", 11.into()),
                ("day", 30.into()),
                ("hour", "08".into()),
                ("minute", "05".into()),
            ],
        )
    };
    assert_eq!(lang_date(Lang::En), "Nov 30, 2026, 08:05");
    assert_eq!(lang_date(Lang::ZhCn), "2026年11月30日 08:05");
    assert_eq!(lang_date(Lang::Ko), "2026년 11월 30일 08:05");
    assert_eq!(lang_date(Lang::Ja), "2026年11月30日 08:05");
    assert_eq!(lang_date(Lang::Ru), "30 нояб. 2026 г., 08:05");
}

#[test]
fn each_language_s_own_name_read_from_its_source_is_what_fluent_gives() {
    for lang in Lang::ALL {
        let fluent = t_in(lang, "language-name", &[]);
        assert_eq!(crate::catalogues::own_name(lang), Some(fluent.as_str()));
        assert_eq!(crate::language_name(lang), fluent);
    }
}
