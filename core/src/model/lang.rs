//! The five languages Hark speaks, their tags, and choosing one from what a browser asks for.
//!
//! The `Accept-Language` negotiation is hand-written on purpose: `fluent-langneg` drops the
//! header's q-values (so `en;q=0.5, ru;q=0.8` would pick English and `ru;q=0` would not rule
//! Russian out), and its matching keeps Traditional Chinese (`zh-TW`, `zh-HK`) apart from our one
//! Chinese catalogue, where Hark deliberately serves every Chinese tag.

use std::fmt;
use std::str::FromStr;

/// A language with a complete catalogue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    ZhCn,
    Ko,
    Ja,
    Ru,
}

impl Lang {
    /// Every language, in the order the picker lists them.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::ZhCn, Lang::Ko, Lang::Ja, Lang::Ru];

    /// The BCP 47 tag: `<html lang>`, the cookie and the catalogue's folder.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
            Lang::Ko => "ko",
            Lang::Ja => "ja",
            Lang::Ru => "ru",
        }
    }

    /// The language matching one language tag (`zh-Hans-CN`, `ko_KR.UTF-8`, `RU`), if Hark has
    /// it. Every Chinese tag gets the Simplified catalogue, the only Chinese one there is.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag
            .trim()
            .split(['-', '_', '.', '@'])
            .next()?
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::ZhCn),
            "ko" => Some(Lang::Ko),
            "ja" => Some(Lang::Ja),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The best language for an `Accept-Language` header: the highest-weighted tag Hark has
    /// (ties keep the header's order), else English.
    pub fn negotiate(accept_language: &str) -> Lang {
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
}

impl Lang {
    /// The desktop's own language (`LC_ALL`, `LC_MESSAGES`, `LANG`), for text the daemon
    /// makes before any browser picked one; English when none of them names a language here.
    pub fn from_environment() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|name| std::env::var(name).ok())
            .find(|value| !value.is_empty())
            .and_then(|value| Lang::from_tag(&value))
            .unwrap_or_default()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Exactly one of the five codes (case-insensitive), as the cookie and config store them.
    fn from_str(code: &str) -> Result<Lang, UnknownLang> {
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(code.trim()))
            .ok_or(UnknownLang)
    }
}

/// A code that is none of the five.
#[derive(Debug, PartialEq, Eq)]
pub struct UnknownLang;

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
                Lang::negotiate(header),
                expected,
                "Accept-Language: {header:?}"
            );
        }
    }

    #[test]
    fn codes_round_trip_and_system_locales_map() {
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
        }
        assert_eq!("zh-cn".parse::<Lang>(), Ok(Lang::ZhCn));
        assert_eq!("fr".parse::<Lang>(), Err(UnknownLang));
        assert_eq!(Lang::from_tag("ko_KR.UTF-8"), Some(Lang::Ko));
        assert_eq!(Lang::from_tag("C"), None);
    }
}
