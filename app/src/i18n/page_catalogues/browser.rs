//! The browser's catalogues: those the page carried, and those fetched since, installed
//! in `hark-text` for every lookup, with the browser's own plural rules (`Intl.PluralRules`).

use super::{ELEMENT_ID, Lang, PageCatalogues};
use hark_text::words::Plural;
use std::cell::RefCell;

thread_local! {
    /// The languages whose whole catalogue is here (the others carry only their name);
    /// `None` until the page's own are installed.
    static WHOLE: RefCell<Option<Vec<Lang>>> = const { RefCell::new(None) };
}

/// Installs the catalogues the page carried into `hark-text`, where every lookup finds
/// them, once; hydration calls it before the first word is looked up.
pub fn install_carried() {
    WHOLE.with_borrow_mut(|whole| {
        if whole.is_none() {
            *whole = Some(from_page());
        }
    });
}

/// Installs what the server wrote into the page; nothing if the block is missing or
/// unreadable. Returns the languages it carried whole.
fn from_page() -> Vec<Lang> {
    let carried = crate::carried::block::<PageCatalogues>(ELEMENT_ID).unwrap_or_else(|| {
        // `prefs` then fetches the page's language (see `Prefs::provide`).
        leptos::logging::warn!("the page carried no readable catalogues");
        PageCatalogues::default()
    });
    let mut whole = Vec::new();
    for (code, words) in carried.catalogues {
        if let Ok(lang) = code.parse::<Lang>() {
            hark_text::catalogues::install(lang, words, plural);
            if carried.whole.contains(&code) {
                whole.push(lang);
            }
        }
    }
    whole
}

thread_local! {
    /// `Intl.PluralRules` of each language asked so far.
    static RULES: RefCell<Vec<(Lang, js_sys::Intl::PluralRules)>> = const { RefCell::new(Vec::new()) };
}

/// The plural form of `count` in `lang`, as the browser's `Intl.PluralRules` tells it.
fn plural(lang: Lang, count: i64) -> Plural {
    RULES.with_borrow_mut(|rules| {
        let index = match rules.iter().position(|(of, _)| *of == lang) {
            Some(index) => index,
            None => {
                let locales = js_sys::Array::of1(&lang.code().into());
                let made = js_sys::Intl::PluralRules::new(&locales, &js_sys::Object::new());
                rules.push((lang, made));
                rules.len() - 1
            }
        };
        let category = String::from(rules[index].1.select(count as f64));
        Plural::named(&category).unwrap_or(Plural::Other)
    })
}

/// Whether the whole catalogue of `lang` is here.
pub fn is_whole(lang: Lang) -> bool {
    install_carried();
    WHOLE.with_borrow(|whole| whole.iter().flatten().any(|of| *of == lang))
}

/// Makes sure the whole catalogue of `lang` is here, fetching it from the daemon if not.
/// False when it could not be fetched (the page then stays in its language).
pub async fn load(lang: Lang) -> bool {
    if is_whole(lang) {
        return true;
    }
    match super::catalogue(lang.code().to_string()).await {
        Ok(words) => {
            hark_text::catalogues::install(lang, words, plural);
            WHOLE.with_borrow_mut(|whole| whole.get_or_insert_default().push(lang));
            true
        }
        Err(error) => {
            leptos::logging::warn!("the {lang} catalogue did not arrive: {error}");
            false
        }
    }
}
