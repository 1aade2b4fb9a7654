//! The catalogues. The daemon (feature `server`) holds all five languages' Fluent sources and
//! the bundles made from them, each with the messages only it formats (`server.ftl`: pushes,
//! the chat bots, the 401 page, exports). A page's WebAssembly carries none of them, and no
//! Fluent: the browser `install`s the resolved catalogue (`words::Words`) its page carried, and
//! any it fetches on a language switch, with the browser's plural rules.

use crate::Lang;
#[cfg(feature = "server")]
use fluent_bundle::FluentResource;
#[cfg(feature = "server")]
use fluent_bundle::concurrent::FluentBundle;
use std::sync::{Arc, RwLock};

/// A catalogue ready for lookups, shared by every thread that formats with it.
#[cfg(feature = "server")]
pub type Bundle = FluentBundle<FluentResource>;

/// Each language's page catalogue (`main.ftl`), in `Lang::ALL` order.
#[cfg(feature = "server")]
pub const PAGE_SOURCES: [(Lang, &str); 5] = [
    (Lang::En, include_str!("../../locales/en/main.ftl")),
    (Lang::ZhCn, include_str!("../../locales/zh-CN/main.ftl")),
    (Lang::Ko, include_str!("../../locales/ko/main.ftl")),
    (Lang::Ja, include_str!("../../locales/ja/main.ftl")),
    (Lang::Ru, include_str!("../../locales/ru/main.ftl")),
];

/// The messages only the daemon formats (`server.ftl`): the page never shows them, so it is
/// never sent them.
#[cfg(feature = "server")]
pub const SERVER_SOURCES: [(Lang, &str); 5] = [
    (Lang::En, include_str!("../../locales/en/server.ftl")),
    (Lang::ZhCn, include_str!("../../locales/zh-CN/server.ftl")),
    (Lang::Ko, include_str!("../../locales/ko/server.ftl")),
    (Lang::Ja, include_str!("../../locales/ja/server.ftl")),
    (Lang::Ru, include_str!("../../locales/ru/server.ftl")),
];

/// The catalogue of `lang` that a page shows (and is sent).
#[cfg(feature = "server")]
pub fn page_source(lang: Lang) -> &'static str {
    source_of(&PAGE_SOURCES, lang)
}

/// Every catalogue source of `lang` the daemon carries, its own messages too.
#[cfg(feature = "server")]
pub fn all_sources(lang: Lang) -> [&'static str; 2] {
    [page_source(lang), source_of(&SERVER_SOURCES, lang)]
}

#[cfg(feature = "server")]
fn source_of(sources: &[(Lang, &'static str)], lang: Lang) -> &'static str {
    sources
        .iter()
        .find(|(of, _)| *of == lang)
        .map_or("", |(_, source)| *source)
}

/// A language's own name (`language-name` in its page catalogue), read from the source without
/// compiling the catalogue: the language picker names all five languages on every page (the
/// daemon renders one while it starts, to learn its routes), and compiling five catalogues for
/// that held 1.5 MB. Read by hand because the message is one plain line (`language-name =
/// 日本語`); a test holds it to what Fluent gives.
#[cfg(feature = "server")]
pub fn own_name(lang: Lang) -> Option<&'static str> {
    page_source(lang)
        .lines()
        .find_map(|line| line.strip_prefix("language-name ="))
        .map(str::trim)
}

/// A catalogue of `lang` made from Fluent sources.
#[cfg(feature = "server")]
pub fn bundle(lang: Lang, sources: &[&str]) -> Bundle {
    let id = lang
        .code()
        .parse::<unic_langid::LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Isolation marks (U+2068/U+2069) around placeables would leak into titles, chat messages
    // and tests.
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

/// The compiled catalogue of `lang`, made the first time it is asked for: a daemon that speaks
/// one language never holds the other four (each is about 0.2 MB once parsed).
#[cfg(feature = "server")]
pub fn get(lang: Lang) -> Option<Arc<Bundle>> {
    static COMPILED: [std::sync::OnceLock<Arc<Bundle>>; Lang::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    let at = Lang::ALL.iter().position(|of| *of == lang)?;
    Some(
        COMPILED[at]
            .get_or_init(|| Arc::new(bundle(lang, &all_sources(lang))))
            .clone(),
    )
}

/// How the browser tells a count's plural form in a language (`Intl.PluralRules`).
pub type PluralRule = fn(Lang, i64) -> crate::words::Plural;

/// A resolved catalogue installed at run time (the browser's), with its language's plural rule.
struct Installed {
    lang: Lang,
    words: Arc<crate::words::Words>,
    plural: PluralRule,
}

/// The catalogues installed at run time, newest last.
static INSTALLED: RwLock<Vec<Installed>> = RwLock::new(Vec::new());

/// Makes `words` the catalogue of `lang` from now on, replacing one installed before; `plural`
/// chooses its plural forms.
pub fn install(lang: Lang, words: crate::words::Words, plural: PluralRule) {
    let mut installed = INSTALLED
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    installed.retain(|known| known.lang != lang);
    installed.push(Installed {
        lang,
        words: Arc::new(words),
        plural,
    });
}

/// The message `key` of the catalogue installed for `lang`, if both are there.
pub fn format_installed(
    lang: Lang,
    key: &str,
    args: &[(&str, crate::words::Arg<'_>)],
) -> Option<String> {
    let (words, plural) = INSTALLED
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .iter()
        .find(|known| known.lang == lang)
        .map(|known| (known.words.clone(), known.plural))?;
    words.format(key, args, |count| plural(lang, count))
}
