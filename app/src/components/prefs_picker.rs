//! The language and theme pickers, in the header and on the settings page. Once hydrated a pick
//! applies at once; without JavaScript the form posts to `save_preferences` and comes back.

use crate::i18n::{Lang, language_name, t, tr};
use crate::prefs::{Prefs, SavePreferences, Theme};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// Both pickers; `place` ("header" or "settings") keeps their ids apart and sets their look.
#[component]
pub fn PrefsPicker(place: &'static str) -> impl IntoView {
    let prefs = expect_context::<Prefs>();
    let back = crate::nav::current_path();
    let (initial_lang, initial_theme) = (prefs.lang.get_untracked(), prefs.theme.get_untracked());
    let lang_id = format!("{place}-lang");
    let theme_id = format!("{place}-theme");
    let languages = Lang::ALL
        .into_iter()
        .map(|lang| {
            // Each language named in its own script, whatever the page's language.
            view! {
                <option value=lang.code() lang=lang.code() selected=lang == initial_lang>
                    {language_name(lang)}
                </option>
            }
        })
        .collect_view();
    let themes = Theme::ALL
        .into_iter()
        .map(|theme| {
            view! {
                <option value=theme.code() selected=theme == initial_theme>
                    {move || t(theme.label_key())}
                </option>
            }
        })
        .collect_view();
    view! {
        <form
            class=format!("prefs prefs-{place}")
            method="post"
            action=SavePreferences::url()
            on:submit=|event| event.prevent_default()
        >
            <input type="hidden" name="back" value=back />
            <label class="pick">
                <span class="pick-label">{tr("prefs-language")}</span>
                <select
                    id=lang_id
                    name="lang"
                    data-testid=format!("{place}-language")
                    prop:value=move || prefs.lang.get().code()
                    on:change=move |event| {
                        if let Ok(lang) = event_target_value(&event).parse::<Lang>() {
                            prefs.choose_lang(lang);
                        }
                    }
                >
                    {languages}
                </select>
            </label>
            <label class="pick">
                <span class="pick-label">{tr("prefs-theme")}</span>
                <select
                    id=theme_id
                    name="theme"
                    data-testid=format!("{place}-theme")
                    prop:value=move || prefs.theme.get().code()
                    on:change=move |event| {
                        if let Ok(theme) = event_target_value(&event).parse::<Theme>() {
                            prefs.choose_theme(theme);
                        }
                    }
                >
                    {themes}
                </select>
            </label>
            <button type="submit" class="secondary prefs-apply">{tr("prefs-apply")}</button>
        </form>
    }
}
