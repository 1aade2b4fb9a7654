//! Which language to speak: the best of a browser's `Accept-Language` (a request's cookie
//! comes first, `request`), and the daemon's own for text no browser asked for (the config's
//! `language`, else the desktop's locale).
//!
//! The `Accept-Language` negotiation is hand-written on purpose: `fluent-langneg` drops the
//! header's q-values (so `en;q=0.5, ru;q=0.8` would pick English and `ru;q=0` would not rule
//! Russian out), and its matching keeps Traditional Chinese (`zh-TW`, `zh-HK`) apart from our one
//! Chinese catalogue, where Hark deliberately serves every Chinese tag.

use crate::Lang;
use hark_core::model::Config;

/// The cookie (and browser storage key) holding the language a person picked.
pub const LANG_COOKIE: &str = "hark_lang";

/// The best language for an `Accept-Language` header: the highest-weighted tag Hark has (ties
/// keep the header's order), else English.
pub fn accept_language_pick(accept_language: &str) -> Lang {
    let mut ranked: Vec<(f32, usize, Lang)> = accept_language
        .split(',')
        .enumerate()
        .filter_map(|(position, entry)| {
            let mut parts = entry.split(';');
            let lang = Lang::from_tag(parts.next()?)?;
            let weight = parts
                .find_map(|param| param.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (weight > 0.0).then_some((weight, position, lang))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.first().map_or(Lang::En, |(_, _, lang)| *lang)
}

/// The language of what the daemon says on its own (pushes, chat messages, notifications,
/// exports): the config's choice, else the desktop's.
pub fn daemon_lang(config: &Config) -> Lang {
    config.language.unwrap_or_else(desktop_lang)
}

/// The desktop's own language (`LC_ALL`, `LC_MESSAGES`, `LANG`); English when none of them
/// names a language Hark has.
pub fn desktop_lang() -> Lang {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .and_then(|value| Lang::from_tag(&value))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_best_language_hark_has() {
        let cases = [
            ("", Lang::En),
            ("fr-FR, de;q=0.9", Lang::En),
            ("ko-KR", Lang::Ko),
            ("zh-Hans-CN", Lang::ZhCn),
            ("zh", Lang::ZhCn),
            ("zh-TW,zh;q=0.9", Lang::ZhCn),
            ("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", Lang::Ja),
            ("en-US,ru;q=0.9", Lang::En),
            // Weights beat order.
            ("en;q=0.5, ru-RU;q=0.8", Lang::Ru),
            ("fr, ko;q=0.3, ja;q=0.2", Lang::Ko),
            // Equal weights keep the header's order.
            ("ja;q=0.7, ko;q=0.7", Lang::Ja),
            // q=0 means "not this one".
            ("ru;q=0, ko", Lang::Ko),
            ("ru;q=0", Lang::En),
            // Whitespace and odd case.
            ("  RU-ru ;q=1.0 ", Lang::Ru),
            ("*", Lang::En),
            // Malformed weights drop only that entry.
            ("ko;q=abc, ja;q=0.1", Lang::Ja),
        ];
        for (header, expected) in cases {
            assert_eq!(
                accept_language_pick(header),
                expected,
                "Accept-Language: {header:?}"
            );
        }
    }
}
