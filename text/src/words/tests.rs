//! The resolved catalogues read exactly as Fluent writes them: every page message, in every
//! language, with counts that reach every plural form and texts for the other variables. The
//! same cases, with Fluent's output, are the browser test's fixture
//! (`end2end/fixtures/words.json`), so the page's own walk, with the browser's plural rules, is
//! held to Fluent too.

use super::{Arg, Part, Plural, Words, compile};
use crate::{Lang, t_in};
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use std::collections::BTreeSet;

/// Counts that reach every plural form of the five languages, and every month.
const COUNTS: [i64; 20] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 21, 22, 25, 101, 111, 1000,
];

/// Fluent's plural rules for `lang` (the ones its bundles negotiate: the language's own, `zh`
/// for `zh-CN`).
fn fluent_plural(lang: Lang) -> impl Fn(i64) -> Plural {
    let language = lang.code().split('-').next().unwrap_or("en");
    let id: unic_langid::LanguageIdentifier = language.parse().expect("a language identifier");
    let rules = PluralRules::create(id, PluralRuleType::CARDINAL)
        .unwrap_or_else(|error| panic!("plural rules of {lang}: {error}"));
    move |number| match rules.select(number).expect("a category") {
        PluralCategory::ZERO => Plural::Zero,
        PluralCategory::ONE => Plural::One,
        PluralCategory::TWO => Plural::Two,
        PluralCategory::FEW => Plural::Few,
        PluralCategory::MANY => Plural::Many,
        PluralCategory::OTHER => Plural::Other,
    }
}

/// The variables a pattern places and those it selects on.
fn variables(pattern: &[Part], placed: &mut BTreeSet<String>, selected: &mut BTreeSet<String>) {
    for part in pattern {
        match part {
            Part::Text(_) => {}
            Part::Var(name) => {
                placed.insert(name.clone());
            }
            Part::Select(select) => {
                selected.insert(select.var.clone());
                for variant in &select.variants {
                    variables(&variant.pattern, placed, selected);
                }
            }
        }
    }
}

/// The cases of one message: each selected variable through every count, the others fixed; a
/// placed-only variable as a number and as a text.
fn cases(pattern: &[Part]) -> Vec<Vec<(String, Arg<'static>)>> {
    let (mut placed, mut selected) = (BTreeSet::new(), BTreeSet::new());
    variables(pattern, &mut placed, &mut selected);
    let all: Vec<String> = placed.union(&selected).cloned().collect();
    let base = |varied: &str, value: Arg<'static>| -> Vec<(String, Arg<'static>)> {
        all.iter()
            .map(|name| {
                let arg = if name == varied {
                    value.clone()
                } else if selected.contains(name) {
                    Arg::Number(3)
                } else {
                    Arg::Text(format!("<{name}>").into())
                };
                (name.clone(), arg)
            })
            .collect()
    };
    let mut cases = Vec::new();
    for name in &all {
        if selected.contains(name) {
            cases.extend(COUNTS.map(|count| base(name, Arg::Number(count))));
        } else {
            cases.push(base(name, Arg::Number(42)));
            cases.push(base(name, Arg::Text("a text, «quoted»".into())));
        }
    }
    cases
}

fn borrowed<'a>(args: &'a [(String, Arg<'static>)]) -> Vec<(&'a str, Arg<'static>)> {
    args.iter()
        .map(|(name, arg)| (name.as_str(), arg.clone()))
        .collect()
}

#[test]
fn every_page_message_reads_as_fluent_writes_it_in_every_language() {
    let mut fixture = serde_json::Map::new();
    for lang in Lang::ALL {
        let words = compile(lang);
        let plural = fluent_plural(lang);
        let keys = crate::tests::page_keys(lang);
        let resolved: BTreeSet<String> = words
            .plain
            .keys()
            .chain(words.patterns.keys())
            .cloned()
            .collect();
        assert_eq!(resolved, keys, "{lang}: every page message is resolved");
        for key in words.plain.keys() {
            assert_eq!(
                words.format(key, &[], &plural),
                Some(t_in(lang, key, &[])),
                "{lang} {key}"
            );
        }
        let mut samples = Vec::new();
        for (key, pattern) in &words.patterns {
            for args in cases(pattern) {
                let args = borrowed(&args);
                let fluent = t_in(lang, key, &args);
                assert_eq!(
                    words.format(key, &args, &plural),
                    Some(fluent.clone()),
                    "{lang} {key} {args:?}"
                );
                let given: serde_json::Map<String, serde_json::Value> = args
                    .iter()
                    .map(|(name, arg)| {
                        let value = match arg {
                            Arg::Number(number) => serde_json::json!(number),
                            Arg::Text(text) => serde_json::json!(text),
                        };
                        (name.to_string(), value)
                    })
                    .collect();
                samples.push(serde_json::json!({"key": key, "args": given, "text": fluent}));
            }
        }
        fixture.insert(lang.code().to_string(), samples.into());
    }
    // A case a line, so a change to the catalogues reads as a change to its lines.
    let mut written = String::from("{\n");
    for (index, (code, samples)) in fixture.iter().enumerate() {
        written.push_str(&format!("{}: [\n", serde_json::json!(code)));
        let samples = samples.as_array().expect("a list");
        for (at, sample) in samples.iter().enumerate() {
            let comma = if at + 1 < samples.len() { "," } else { "" };
            written.push_str(&format!("  {sample}{comma}\n"));
        }
        written.push_str(if index + 1 < fixture.len() {
            "],\n"
        } else {
            "]\n"
        });
    }
    written.push_str("}\n");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../end2end/fixtures/words.json"
    );
    if std::env::var_os("HARK_BLESS").is_some() {
        std::fs::write(path, &written).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == written,
        "{path} is not what the catalogues say now: run `HARK_BLESS=1 cargo test -p hark-text \
         words` and commit it"
    );
}

#[test]
fn a_missing_variable_and_an_unknown_key_read_as_fluent_would() {
    let words = compile(Lang::En);
    let plural = fluent_plural(Lang::En);
    assert_eq!(words.format("no-such-message", &[], &plural), None);
    let (placing, _) = words
        .patterns
        .iter()
        .find(|(_, pattern)| pattern.iter().any(|part| matches!(part, Part::Var(_))))
        .expect("a message that places a variable");
    assert_eq!(
        words.format(placing, &[], &plural),
        Some(t_in(Lang::En, placing, &[]))
    );
    // A select without its variable takes the default variant.
    let (selecting, _) = words
        .patterns
        .iter()
        .find(|(_, pattern)| matches!(pattern.first(), Some(Part::Select(_))))
        .expect("a message that starts with a select");
    assert_eq!(
        words.format(selecting, &[], &plural),
        Some(t_in(Lang::En, selecting, &[]))
    );
}

#[test]
fn a_select_on_a_text_and_a_number_key_read_as_fluent_writes_them() {
    // The catalogues select on counts only; the walk must still match Fluent for a select on
    // a text, a number key beside plural ones, and quoted text.
    let source = "kind = { $kind ->\n    [cat] A cat\n    [1] One\n   *[other] Something { $kind }\n}\n\
                  spaced = {\"  \"}{ $n ->\n    [one] one\n   *[other] { $n } more\n}\n";
    for lang in [Lang::En, Lang::Ru] {
        let bundle = crate::catalogues::bundle(lang, &[source]);
        let words = super::compile::compile_source(lang, source);
        let plural = fluent_plural(lang);
        for (key, arg) in [
            ("kind", Arg::Text("cat".into())),
            ("kind", Arg::Text("dog".into())),
            ("kind", Arg::Text("1".into())),
            ("kind", Arg::Number(1)),
            ("kind", Arg::Number(2)),
            ("spaced", Arg::Number(1)),
            ("spaced", Arg::Number(5)),
            ("spaced", Arg::Text("one".into())),
        ] {
            let name = if key == "kind" { "kind" } else { "n" };
            let args = [(name, arg)];
            let fluent_args = crate::lookup::fluent_args(&args);
            let fluent = crate::lookup::format_in(&bundle, key, Some(&fluent_args));
            assert_eq!(
                words.format(key, &args, &plural),
                fluent,
                "{lang} {key} {args:?}"
            );
        }
    }
}

#[test]
fn another_language_is_carried_by_its_name_alone() {
    let words = Words::named(crate::language_name(Lang::Ja));
    assert!(words.patterns.is_empty());
    assert_eq!(
        words.plain.into_iter().collect::<Vec<_>>(),
        [(
            "language-name".to_string(),
            t_in(Lang::Ja, "language-name", &[])
        )]
    );
}

#[test]
fn resolved_words_travel_as_json() {
    let words: Words = compile(Lang::Ru);
    let text = serde_json::to_string(&words).unwrap();
    assert_eq!(serde_json::from_str::<Words>(&text).unwrap(), words);
}
