//! The person's per-browser choices, language and theme: read from cookies (else the browser's
//! `Accept-Language`) when the server renders, from `<html>` once the browser takes over, and
//! written back to the cookie (mirrored to localStorage) on a switch (`browser`, whose headless
//! twin on the server only sets the signal).

#[cfg_attr(not(feature = "hydrate"), path = "prefs/headless.rs")]
mod browser;
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

/// The value of cookie `name` in `document.cookie`. Hand-written for the browser: the `cookie`
/// crate (which the server uses) would bring the `time` crate into the wasm.
pub fn document_cookie<'a>(cookies: &'a str, name: &str) -> Option<&'a str> {
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
        let (lang, theme) = browser::rendered();
        let prefs = Prefs {
            lang: RwSignal::new(lang),
            theme: RwSignal::new(theme),
        };
        provide_context(prefs);
        crate::i18n::PageLang::provide(prefs.lang);
        browser::follow(prefs);
        prefs
    }

    /// Switches the language and remembers it (cookie, localStorage, the daemon). In the
    /// browser the switch waits for the language's catalogue, unless the page already has it.
    pub fn choose_lang(self, lang: Lang) {
        browser::choose_lang(self, lang);
    }

    /// Switches the theme at once and remembers it in the cookie.
    pub fn choose_theme(self, theme: Theme) {
        self.theme.set(theme);
        browser::remember(None, Some(theme));
    }
}

/// Saves the picks: sets their cookies, and a language also becomes the daemon's language for
/// desktop notifications. `back` (the page a plain form came from) is where to return to.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn save_preferences(
    #[server(default)] lang: Option<String>,
    #[server(default)] theme: Option<String>,
    #[server(default)] back: Option<String>,
) -> Result<(), crate::failure::Failure> {
    use crate::failure::{Failure, refuse};
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
