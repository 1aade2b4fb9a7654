//! The catalogues compiled into the daemon (and the native tests): all five languages, each
//! with the messages only the daemon formats. The browser's come from its page instead
//! (`page_catalogues`).

use super::{Lang, bundle};
use fluent_bundle::FluentResource;
use fluent_bundle::concurrent::FluentBundle;
use std::sync::LazyLock;

/// Each language's catalogue source, in `Lang::ALL` order.
pub(super) const CATALOGUES: [(Lang, &str); 5] = [
    (Lang::En, include_str!("../../../locales/en/main.ftl")),
    (Lang::ZhCn, include_str!("../../../locales/zh-CN/main.ftl")),
    (Lang::Ko, include_str!("../../../locales/ko/main.ftl")),
    (Lang::Ja, include_str!("../../../locales/ja/main.ftl")),
    (Lang::Ru, include_str!("../../../locales/ru/main.ftl")),
];

/// The messages only the daemon formats (pushes, the Telegram bot, the 401 page, exports): the
/// page never shows them, so it is never sent them.
#[cfg(feature = "ssr")]
pub(super) const SERVER_CATALOGUES: [(Lang, &str); 5] = [
    (Lang::En, include_str!("../../../locales/en/server.ftl")),
    (
        Lang::ZhCn,
        include_str!("../../../locales/zh-CN/server.ftl"),
    ),
    (Lang::Ko, include_str!("../../../locales/ko/server.ftl")),
    (Lang::Ja, include_str!("../../../locales/ja/server.ftl")),
    (Lang::Ru, include_str!("../../../locales/ru/server.ftl")),
];

/// The catalogue of `lang` that a page shows (and is sent).
pub(super) fn page_source(lang: Lang) -> &'static str {
    CATALOGUES
        .iter()
        .find(|(of, _)| *of == lang)
        .map_or("", |(_, source)| *source)
}

/// Every catalogue of `lang` this build carries, the server's own messages too.
pub(super) fn all_sources(lang: Lang) -> Vec<&'static str> {
    #[cfg_attr(not(feature = "ssr"), allow(unused_mut))]
    let mut sources = vec![page_source(lang)];
    #[cfg(feature = "ssr")]
    sources.extend(
        SERVER_CATALOGUES
            .iter()
            .filter(|(of, _)| *of == lang)
            .map(|(_, source)| *source),
    );
    sources
}

static BUNDLES: LazyLock<Vec<(Lang, FluentBundle<FluentResource>)>> = LazyLock::new(|| {
    Lang::ALL
        .into_iter()
        .map(|lang| (lang, bundle(lang, &all_sources(lang))))
        .collect()
});

/// Runs `read` on the catalogue of `lang`.
pub(super) fn with_bundle<T>(
    lang: Lang,
    read: impl FnOnce(&FluentBundle<FluentResource>) -> T,
) -> Option<T> {
    BUNDLES
        .iter()
        .find(|(of, _)| *of == lang)
        .map(|(_, bundle)| read(bundle))
}
