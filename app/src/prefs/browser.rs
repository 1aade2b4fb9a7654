//! The browser side of a switch: `<html>` follows, the cookie and localStorage remember, and a
//! language waits for its catalogue.

use super::{LANG_COOKIE, Prefs, THEME_COOKIE, Theme, document_cookie, preference_cookie};
use crate::i18n::{Lang, page_catalogues};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The language picked last, whose catalogue may still be on its way.
    static LATEST_PICK: std::cell::Cell<Option<Lang>> = const { std::cell::Cell::new(None) };
}

/// What the server put on `<html>`, so hydration starts from the same choice.
pub fn rendered() -> (Lang, Theme) {
    let Some(root) = document().document_element() else {
        return (Lang::En, Theme::System);
    };
    let attribute = |name: &str| root.get_attribute(name).unwrap_or_default();
    (
        attribute("lang").parse().unwrap_or_default(),
        attribute("data-theme").parse().unwrap_or_default(),
    )
}

/// Keeps `<html lang>` and `data-theme` on the current picks, restores a language kept in
/// localStorage when its cookie was lost, and fetches the page's catalogue when it is missing.
pub fn follow(prefs: Prefs) {
    Effect::new(move |_| {
        let lang = prefs.lang.get();
        let theme = prefs.theme.get();
        if let Some(root) = document().document_element() {
            // Tells the stylesheet that picks apply at once (no "Apply" button needed).
            let _ = root.set_attribute("data-js", "");
            let _ = root.set_attribute("lang", lang.code());
            let _ = root.set_attribute("data-theme", theme.code());
        }
        // The tab's title is the server's until the attention clock's next tick.
        document().set_title(&crate::i18n::t("app-title"));
        if let Some(meta) = document()
            .query_selector("meta[name=color-scheme]")
            .ok()
            .flatten()
        {
            let _ = meta.set_attribute("content", theme.color_scheme());
        }
    });
    Effect::new(move |_| {
        let cookies = cookies();
        let stored = storage()
            .and_then(|storage| storage.get_item(LANG_COOKIE).ok().flatten())
            .and_then(|code| code.parse::<Lang>().ok());
        match (document_cookie(&cookies, LANG_COOKIE), stored) {
            (None, Some(stored)) if stored != prefs.lang.get_untracked() => {
                prefs.choose_lang(stored);
            }
            (Some(_), _) => mirror(prefs.lang.get_untracked()),
            _ => {}
        }
    });
    let lang = prefs.lang.get_untracked();
    if !page_catalogues::is_whole(lang) {
        // The page came without its catalogue (a proxy stripped it, a stale cache): fetch it
        // and redraw, rather than show message ids.
        leptos::task::spawn_local(async move {
            if page_catalogues::load(lang).await {
                prefs.lang.update(|_| {});
            }
        });
    }
}

/// Switches once the language's catalogue is here; a pick made meanwhile wins.
pub fn choose_lang(prefs: Prefs, lang: Lang) {
    LATEST_PICK.set(Some(lang));
    leptos::task::spawn_local(async move {
        let loaded = page_catalogues::load(lang).await;
        // A pick made while this catalogue was on its way wins, whenever it lands.
        if LATEST_PICK.get() != Some(lang) {
            return;
        }
        if loaded {
            prefs.lang.set(lang);
            remember(Some(lang), None);
        } else {
            // The pickers show the language the page is still in, not the failed pick.
            prefs.lang.update(|_| {});
        }
    });
}

/// Writes the cookies at once (so a reload keeps the pick), mirrors the language, and tells
/// the daemon, which also sets the cookies from its side.
pub fn remember(lang: Option<Lang>, theme: Option<Theme>) {
    if let Some(document) = document().dyn_ref::<web_sys::HtmlDocument>() {
        if let Some(lang) = lang {
            let _ = document.set_cookie(&preference_cookie(LANG_COOKIE, lang.code()));
        }
        if let Some(theme) = theme {
            let _ = document.set_cookie(&preference_cookie(THEME_COOKIE, theme.code()));
        }
    }
    if let Some(lang) = lang {
        mirror(lang);
    }
    leptos::task::spawn_local(async move {
        let lang = lang.map(|lang| lang.code().to_string());
        let theme = theme.map(|theme| theme.code().to_string());
        if let Err(error) = super::save_preferences(lang, theme, None).await {
            leptos::logging::warn!("the daemon did not take the new preferences: {error}");
        }
    });
}

fn mirror(lang: Lang) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(LANG_COOKIE, lang.code());
    }
}

fn cookies() -> String {
    document()
        .dyn_ref::<web_sys::HtmlDocument>()
        .and_then(|document| document.cookie().ok())
        .unwrap_or_default()
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}
