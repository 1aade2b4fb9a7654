//! A message in a language: `t_in(lang, key, args)`, falling back to English for a key one
//! language lacks, and to the key itself when no catalogue has it (the catalogue tests keep
//! that from shipping). The daemon formats with Fluent; the browser with the resolved
//! catalogues its page carried (`words`). Dates as each language writes them.

use crate::Lang;
use crate::words::Arg;

/// A language's own name, as the language picker shows it: on the daemon read from its
/// catalogue's source (`catalogues::own_name`), in the browser from the catalogues its page
/// carried.
pub fn language_name(lang: Lang) -> String {
    #[cfg(feature = "server")]
    if let Some(name) = crate::catalogues::own_name(lang) {
        return name.to_string();
    }
    t_in(lang, "language-name", &[])
}

/// The message `key` in `lang`, with its variables.
pub fn t_in(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    [lang, Lang::En]
        .into_iter()
        .find_map(|wanted| format_one(wanted, key, args))
        .unwrap_or_else(|| key.to_string())
}

#[cfg(feature = "server")]
fn format_one(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    let fluent_args = fluent_args(args);
    let args = (!args.is_empty()).then_some(&fluent_args);
    format_in(&*crate::catalogues::get(lang)?, key, args)
}

/// A message's variables as Fluent takes them.
#[cfg(feature = "server")]
pub fn fluent_args<'a>(args: &[(&'a str, Arg<'a>)]) -> fluent_bundle::FluentArgs<'a> {
    use fluent_bundle::FluentValue;
    let mut fluent_args = fluent_bundle::FluentArgs::new();
    for (name, value) in args {
        let value = match value {
            Arg::Number(number) => FluentValue::from(*number),
            Arg::Text(text) => FluentValue::from(text.clone()),
        };
        fluent_args.set(*name, value);
    }
    fluent_args
}

#[cfg(not(feature = "server"))]
fn format_one(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    crate::catalogues::format_installed(lang, key, args)
}

/// The message `key` of one catalogue, if it has it.
#[cfg(feature = "server")]
pub fn format_in(
    bundle: &crate::catalogues::Bundle,
    key: &str,
    args: Option<&fluent_bundle::FluentArgs<'_>>,
) -> Option<String> {
    let pattern = bundle.get_message(key)?.value()?;
    let mut errors = Vec::new();
    Some(
        bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned(),
    )
}

/// A moment as `lang` writes a date and time, in this machine's time zone (the viewer's, in
/// the browser).
pub fn date_time_in(lang: Lang, moment: chrono::DateTime<chrono::Utc>) -> String {
    use chrono::{Datelike, Timelike};
    let local = moment.with_timezone(&chrono::Local);
    t_in(
        lang,
        "date-time",
        &[
            ("year", local.year().into()),
            ("month", local.month().into()),
            ("day", local.day().into()),
            ("hour", format!("{:02}", local.hour()).into()),
            ("minute", format!("{:02}", local.minute()).into()),
        ],
    )
}
