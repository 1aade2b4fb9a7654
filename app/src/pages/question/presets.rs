//! Quick replies on a question page (SPEC §13): the texts of config `presets` as buttons under
//! each text box; a tap, or Alt+1…9 in any text box, inserts one where the caret is. They need
//! JavaScript, so the server renders none (`browser` inserts them; its headless twin does not).

use crate::i18n::tr;
use crate::live::Live;
use leptos::prelude::*;

#[cfg_attr(not(feature = "hydrate"), path = "presets/headless.rs")]
mod browser;

/// A quick reply's text on its button, cut to a glance.
const SHOWN_CHARS: usize = 40;

/// The quick replies as the live config has them (none before the page is live).
pub fn current() -> Vec<String> {
    use_context::<Live>()
        .and_then(|live| {
            live.config
                .with(|config| config.as_ref().map(|config| config.presets.clone()))
        })
        .unwrap_or_default()
}

fn shown(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > SHOWN_CHARS || line.len() < text.len() {
        let cut: String = line.chars().take(SHOWN_CHARS).collect();
        format!("{}…", cut.trim_end())
    } else {
        line.to_string()
    }
}

/// The quick-reply buttons for the text box `text_id`.
#[component]
pub fn PresetButtons(text_id: String) -> impl IntoView {
    move || {
        let presets = current();
        (!presets.is_empty()).then(|| {
            let buttons = presets
                .into_iter()
                .enumerate()
                .map(|(index, text)| {
                    let target = text_id.clone();
                    let label = shown(&text);
                    let shortcut = (index < 9).then(|| format!("Alt+{}", index + 1));
                    view! {
                        <button
                            type="button"
                            class="preset"
                            title=text.clone()
                            aria-keyshortcuts=shortcut
                            data-testid="preset"
                            on:click=move |_| insert_into(&target, &text, true)
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view();
            view! {
                <div class="presets" role="group" aria-label=tr("presets-label")>
                    {buttons}
                </div>
            }
        })
    }
}

/// Alt+1…9 in a text box inserts that quick reply; says whether the key was one.
pub fn on_key(event: &leptos::ev::KeyboardEvent) -> bool {
    browser::on_key(event)
}

/// Inserts `text` into the text box with id `target`.
fn insert_into(target: &str, text: &str, caret_to_end: bool) {
    browser::insert_into(target, text, caret_to_end);
}
