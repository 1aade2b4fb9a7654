//! Fluent lookup in five languages: every visible string goes through `t`, `t_args` or `tr`,
//! read from `locales/<lang>/main.ftl` and (on the server only) `locales/<lang>/server.ftl`, the
//! messages only the daemon formats. The daemon compiles them all in; the browser has those its
//! page carried (`page_catalogues`). The language is the page's choice (`PageLang`, provided by
//! `prefs`) while rendering, English anywhere else.

#[cfg(not(feature = "hydrate"))]
mod compiled;
pub mod page_catalogues;
#[cfg(test)]
mod tests;

pub use hark_core::model::{Lang, UnknownLang};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use leptos::prelude::{Get, RwSignal, provide_context, use_context};

#[cfg(not(feature = "hydrate"))]
use compiled::with_bundle;
#[cfg(feature = "hydrate")]
use page_catalogues::with_bundle;

/// A catalogue of `lang` made from Fluent sources.
fn bundle(lang: Lang, sources: &[&str]) -> FluentBundle<FluentResource> {
    let id = lang
        .code()
        .parse::<unic_langid::LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Isolation marks (U+2068/U+2069) around placeables would leak into titles and tests.
    bundle.set_use_isolating(false);
    for source in sources {
        // A syntax error drops only the broken entry; the catalogue tests keep that from
        // shipping.
        let resource = FluentResource::try_new((*source).to_string())
            .unwrap_or_else(|(resource, _errors)| resource);
        let _ = bundle.add_resource(resource);
    }
    bundle
}

/// The page's language, a signal `prefs` owns and provides here, so this module needs nothing
/// of the preferences (it sits below them).
#[derive(Clone, Copy, Debug)]
pub struct PageLang(RwSignal<Lang>);

#[cfg(feature = "hydrate")]
thread_local! {
    /// The page's language, for text made outside the component tree (timers, handlers).
    static PAGE_LANG: std::cell::Cell<Option<PageLang>> = const { std::cell::Cell::new(None) };
}

impl PageLang {
    /// Makes `lang` the language of everything rendered below (and, in the browser, of text
    /// made outside the tree).
    pub fn provide(lang: RwSignal<Lang>) {
        provide_context(PageLang(lang));
        #[cfg(feature = "hydrate")]
        PAGE_LANG.with(|page| page.set(Some(PageLang(lang))));
    }

    fn current() -> Option<PageLang> {
        let from_context = use_context::<PageLang>();
        #[cfg(feature = "hydrate")]
        return from_context.or_else(|| PAGE_LANG.with(std::cell::Cell::get));
        #[cfg(not(feature = "hydrate"))]
        from_context
    }
}

/// The language of what is being rendered now: the page's choice inside the UI, else English.
/// Reading it inside a reactive closure makes the closure follow a switch.
pub fn current() -> Lang {
    PageLang::current().map_or(Lang::En, |page| page.0.get())
}

/// The message `key` in the current language, or the key itself when it is missing (a test
/// keeps that from shipping).
pub fn t(key: &str) -> String {
    format_message(current(), key, None)
}

/// The message `key` with its variables, in the current language.
pub fn t_args(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    t_in(current(), key, args)
}

/// The message `key` as a view child or attribute that follows a language switch.
pub fn tr(key: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || t(key)
}

/// The message `key` in a given language, for text made outside a page (desktop notifications).
pub fn t_in(lang: Lang, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    format_message(lang, key, Some(&fluent_args))
}

fn format_message(lang: Lang, key: &str, args: Option<&FluentArgs<'_>>) -> String {
    // A key missing from one language falls back to English rather than showing its id.
    [lang, Lang::En]
        .into_iter()
        .find_map(|wanted| with_bundle(wanted, |bundle| format_in(bundle, key, args)).flatten())
        .unwrap_or_else(|| key.to_string())
}

/// The message `key` of one catalogue, if it has it.
fn format_in(
    bundle: &FluentBundle<FluentResource>,
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

/// A moment as the current language writes a date and time, in the viewer's time zone.
pub fn date_time(moment: chrono::DateTime<chrono::Utc>) -> String {
    date_time_in(current(), moment)
}

/// A moment as `lang` writes a date and time, in this machine's time zone.
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
