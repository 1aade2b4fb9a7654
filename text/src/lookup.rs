//! A message in a language: `t_in(lang, key, args)`, falling back to English for a key one
//! language lacks, and to the key itself when no catalogue has it (the catalogue tests keep
//! that from shipping). Dates as each language writes them.

use crate::{Lang, catalogues};
use fluent_bundle::{FluentArgs, FluentValue};

/// The message `key` in `lang`, with its variables.
pub fn t_in(lang: Lang, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let args = (!args.is_empty()).then_some(&fluent_args);
    [lang, Lang::En]
        .into_iter()
        .find_map(|wanted| format_in(&*catalogues::get(wanted)?, key, args))
        .unwrap_or_else(|| key.to_string())
}

/// The message `key` of one catalogue, if it has it.
pub fn format_in(
    bundle: &catalogues::Bundle,
    key: &str,
    args: Option<&FluentArgs<'_>>,
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
