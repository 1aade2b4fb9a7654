//! The person's per-browser choices, language and theme: read from cookies (else the browser's
//! `Accept-Language`) when the server renders, from `<html>` once the browser takes over, and
//! written back to the cookie (mirrored to localStorage) on a switch.

#[cfg(feature = "ssr")]
pub mod request;

use crate::i18n::Lang;
use leptos::prelude::*;
use std::str::FromStr;

/// The cookie holding the picked language (every surface reads it through `hark-text`).
pub use hark_text::negotiate::LANG_COOKIE;
/// The cookie holding the picked theme.
pub const THEME_COOKIE: &str = "hark_theme";

/// Light, dark, or whatever the system prefers (resolved in CSS alone, so nothing flashes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// The value of `<html data-theme>` and the cookie.
    pub fn code(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// `<meta name="color-scheme">`: what the browser may paint before the stylesheet applies.
    pub fn color_scheme(self) -> &'static str {
        match self {
            Theme::System => "light dark",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The Fluent key naming the theme.
    pub fn label_key(self) -> &'static str {
        match self {
            Theme::System => "theme-system",
            Theme::Light => "theme-light",
            Theme::Dark => "theme-dark",
        }
    }
}

impl FromStr for Theme {
    type Err = ();

    fn from_str(code: &str) -> Result<Theme, ()> {
        Theme::ALL
            .into_iter()
            .find(|theme| theme.code() == code.trim())
            .ok_or(())
    }
}

/// The value of cookie `name` in `document.cookie`. Hand-written for the browser only: the
/// `cookie` crate (which the server uses) would bring the `time` crate into the wasm.
#[cfg(any(feature = "hydrate", test))]
fn document_cookie<'a>(cookies: &'a str, name: &str) -> Option<&'a str> {
    cookies.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key.trim() == name).then(|| value.trim())
    })
}

/// A preference cookie for a year, for the whole server and only this server: usable as a
/// `Set-Cookie` value and as a `document.cookie` assignment alike.
pub fn preference_cookie(name: &str, value: &str) -> String {
    format!("{name}={value}; Path=/; Max-Age=31536000; SameSite=Strict")
}

/// The page's language and theme, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct Prefs {
    pub lang: RwSignal<Lang>,
    pub theme: RwSignal<Theme>,
}

impl Prefs {
    /// Creates the preferences from the request (server) or the server's `<html>` (browser),
    /// so both render the same page, and provides them to every component.
    pub fn provide() -> Prefs {
        #[cfg(feature = "ssr")]
        let (lang, theme) = request::requested();
        #[cfg(not(feature = "ssr"))]
        let (lang, theme) = rendered();
        let prefs = Prefs {
            lang: RwSignal::new(lang),
            theme: RwSignal::new(theme),
        };
        provide_context(prefs);
        crate::i18n::PageLang::provide(prefs.lang);
        #[cfg(feature = "hydrate")]
        browser::follow(prefs);
        #[cfg(feature = "hydrate")]
        if !crate::i18n::page_catalogues::is_whole(lang) {
            // The page came without its catalogue (a proxy stripped it, a stale cache): fetch it
            // and redraw, rather than show message ids.
            leptos::task::spawn_local(async move {
                if crate::i18n::page_catalogues::load(lang).await {
                    prefs.lang.update(|_| {});
                }
            });
        }
        prefs
    }

    /// Switches the language and remembers it (cookie, localStorage, the daemon). In the
    /// browser the switch waits for the language's catalogue, unless the page already has it.
    pub fn choose_lang(self, lang: Lang) {
        #[cfg(feature = "hydrate")]
        {
            browser::LATEST_PICK.set(Some(lang));
            leptos::task::spawn_local(async move {
                let loaded = crate::i18n::page_catalogues::load(lang).await;
                // A pick made while this catalogue was on its way wins, whenever it lands.
                if browser::LATEST_PICK.get() != Some(lang) {
                    return;
                }
                if loaded {
                    self.lang.set(lang);
                    browser::remember(Some(lang), None);
                } else {
                    // The pickers show the language the page is still in, not the failed pick.
                    self.lang.update(|_| {});
                }
            });
        }
        #[cfg(not(feature = "hydrate"))]
        self.lang.set(lang);
    }

    /// Switches the theme at once and remembers it in the cookie.
    pub fn choose_theme(self, theme: Theme) {
        self.theme.set(theme);
        #[cfg(feature = "hydrate")]
        browser::remember(None, Some(theme));
    }
}

/// What the server put on `<html>` (browser), so hydration starts from the same choice.
#[cfg(not(feature = "ssr"))]
fn rendered() -> (Lang, Theme) {
    #[cfg(feature = "hydrate")]
    if let Some(root) = document().document_element() {
        let attribute = |name: &str| root.get_attribute(name).unwrap_or_default();
        return (
            attribute("lang").parse().unwrap_or_default(),
            attribute("data-theme").parse().unwrap_or_default(),
        );
    }
    (Lang::En, Theme::System)
}

/// Saves the picks: sets their cookies, and a language also becomes the daemon's language for
/// desktop notifications. `back` (the page a plain form came from) is where to return to.
#[server(prefix = "/fn")]
pub async fn save_preferences(
    #[server(default)] lang: Option<String>,
    #[server(default)] theme: Option<String>,
    #[server(default)] back: Option<String>,
) -> Result<(), crate::components::failure::Failure> {
    use crate::components::failure::{Failure, refuse};
    use axum::http::{HeaderValue, header};
    let response = expect_context::<leptos_axum::ResponseOptions>();
    // Only a path on this server: never an open redirect.
    let back = back.filter(|back| hark_core::model::local_path(back).is_some());
    let refuse = |field: &str| {
        refuse::<SavePreferences>(
            back.as_deref().unwrap_or("/"),
            Failure::UnknownPreference {
                field: field.to_string(),
            },
        )
    };
    let lang = lang
        .map(|code| code.parse::<Lang>().map_err(|_| refuse("lang")))
        .transpose()?;
    let theme = theme
        .map(|code| code.parse::<Theme>().map_err(|_| refuse("theme")))
        .transpose()?;
    let set_cookie = |name: &str, value: &str| {
        if let Ok(cookie) = HeaderValue::from_str(&preference_cookie(name, value)) {
            response.append_header(header::SET_COOKIE, cookie);
        }
    };
    if let Some(lang) = lang {
        set_cookie(LANG_COOKIE, lang.code());
        let store = expect_context::<hark_core::store::Store>();
        let _ = store
            .update_config(&serde_json::json!({ "language": lang.code() }))
            .await;
    }
    if let Some(theme) = theme {
        set_cookie(THEME_COOKIE, theme.code());
    }
    if let Some(back) = &back {
        leptos_axum::redirect(back);
    }
    Ok(())
}

#[cfg(feature = "hydrate")]
mod browser {
    //! The browser side of a switch: `<html>` follows, the cookie and localStorage remember.
    use super::{LANG_COOKIE, Prefs, THEME_COOKIE, Theme, document_cookie, preference_cookie};
    use crate::i18n::Lang;
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;

    thread_local! {
        /// The language picked last, whose catalogue may still be on its way.
        pub static LATEST_PICK: std::cell::Cell<Option<Lang>> = const { std::cell::Cell::new(None) };
    }

    /// Keeps `<html lang>` and `data-theme` on the current picks, and restores a language kept
    /// in localStorage when its cookie was lost.
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_reads_its_cookies() {
        assert_eq!(
            document_cookie("x=1;hark_theme= light ", THEME_COOKIE),
            Some("light")
        );
        assert_eq!(document_cookie("not_hark_lang=ru", LANG_COOKIE), None);
    }

    #[test]
    fn the_cookie_is_scoped_to_this_server() {
        let cookie = preference_cookie(LANG_COOKIE, "ru");
        assert!(cookie.starts_with("hark_lang=ru;"));
        assert!(cookie.contains("SameSite=Strict") && cookie.contains("Path=/"));
        assert!(!cookie.contains("Domain"));
    }
}
