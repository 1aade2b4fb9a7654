//! The server's twin of `browser.rs`: the server renders with the request's picks (`request`)
//! and remembers them through `save_preferences`; nothing here follows or stores anything.

use super::{Prefs, Theme};
use crate::i18n::Lang;
use leptos::prelude::*;

pub fn follow(_prefs: Prefs) {}

pub fn choose_lang(prefs: Prefs, lang: Lang) {
    prefs.lang.set(lang);
}

pub fn remember(_lang: Option<Lang>, _theme: Option<Theme>) {}
