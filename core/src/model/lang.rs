//! The five languages Hark speaks and their tags. Choosing one from what a browser or the
//! desktop asks for is `hark-text`'s (`negotiate`).

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
