//! The page's words: `t`, `t_args` and `tr` look a message up in the language the page shows
//! (`PageLang`, provided by `prefs`), through `hark-text`, which holds the catalogues and the
//! renderings every surface shares. The daemon has all five catalogues compiled in; the browser
//! has those its page carried, resolved (`page_catalogues`). English outside a page.

pub mod page_catalogues;

pub use hark_text::{Arg, Lang, UnknownLang, date_time_in, language_name, t_in};

use leptos::prelude::{Get, RwSignal, provide_context, use_context};

/// The page's language, a signal `prefs` owns and provides here, so this module needs nothing
/// of the preferences (it sits below them).
#[derive(Clone, Copy, Debug)]
pub struct PageLang(RwSignal<Lang>);

#[cfg_attr(not(feature = "hydrate"), path = "i18n/headless.rs")]
mod browser;

impl PageLang {
    /// Makes `lang` the language of everything rendered below (and, in the browser, of text
    /// made outside the tree).
    pub fn provide(lang: RwSignal<Lang>) {
        provide_context(PageLang(lang));
        browser::keep(PageLang(lang));
    }

    fn current() -> Option<PageLang> {
        use_context::<PageLang>().or_else(browser::kept)
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
    t_in(current(), key, &[])
}

/// The message `key` with its variables, in the current language.
pub fn t_args(key: &str, args: &[(&str, Arg<'_>)]) -> String {
    t_in(current(), key, args)
}

/// The message `key` as a view child or attribute that follows a language switch.
pub fn tr(key: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || t(key)
}

/// A moment as the current language writes a date and time, in the viewer's time zone.
pub fn date_time(moment: chrono::DateTime<chrono::Utc>) -> String {
    date_time_in(current(), moment)
}

/// What `render` writes, in the language `lang`: for HTML a server function writes outside a
/// page, where no language is current (server only).
#[cfg(feature = "ssr")]
pub fn in_lang<T>(lang: Lang, render: impl FnOnce() -> T) -> T {
    leptos::prelude::Owner::new().with(|| {
        PageLang::provide(RwSignal::new(lang));
        render()
    })
}
