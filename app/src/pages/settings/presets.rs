//! "Quick replies" on the settings page (SPEC §13): config `presets`, one per line, in the order
//! the question page offers them; adding, editing, reordering and deleting are editing lines.
//! A plain form: it works without JavaScript.

use crate::components::failure_notice::FailureNotice;
use crate::failure::Failure;
use crate::i18n::{t, tr};
use leptos::prelude::*;

/// Saves the quick replies: one per line, blank lines dropped.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn save_presets(#[server(default)] presets: String) -> Result<(), Failure> {
    let store = expect_context::<hark_core::store::Store>();
    let presets: Vec<&str> = presets
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    let refuse = |failure: Failure| crate::failure::refuse::<SavePresets>("/settings", failure);
    match store
        .update_config(&serde_json::json!({ "presets": presets }))
        .await
    {
        Ok(_) => {
            leptos_axum::redirect("/settings#presets-heading");
            Ok(())
        }
        Err(hark_core::store::StoreError::Invalid(body)) => Err(refuse(Failure::InvalidSetting {
            key: body.field.as_deref().map_or(
                hark_core::model::SettingKey::Presets,
                hark_core::model::SettingKey::of_field,
            ),
        })),
        Err(other) => Err(refuse(other.into())),
    }
}

/// The section.
#[component]
pub fn QuickReplies() -> impl IntoView {
    let save = ServerAction::<SavePresets>::new();
    let loaded = crate::json::resource(move || save.version().get(), |_| super::get_config());
    let problem = move || match save.value().get() {
        Some(Err(failure)) => Some(failure.text()),
        _ => None,
    };
    let saved = move || matches!(save.value().get(), Some(Ok(()))).then(|| t("settings-saved"));
    view! {
        <section class="panel settings" aria-labelledby="presets-heading">
            <h2 id="presets-heading">{tr("presets-heading")}</h2>
            <p class="help" id="presets-help">{tr("presets-help")}</p>
            <Suspense fallback=|| ()>
                {move || {
                    loaded
                        .get()
                        .map(|loaded| match loaded {
                            Ok(config) => {
                                let lines = config.presets.join("\n");
                                // The text for the server's HTML, the property for a page whose
                                // box was typed in (a textarea's text then no longer counts).
                                let value = lines.clone();
                                view! {
                                    <ActionForm action=save>
                                        <textarea id="presets" name="presets" rows="6" aria-labelledby="presets-heading" aria-describedby="presets-help" placeholder=tr("presets-placeholder") data-testid="presets-field" prop:value=value>{super::textarea_text(&lines)}</textarea>
                                        <p class="error" role="alert">{problem}</p>
                                        <p class="saved" role="status">{saved}</p>
                                        <div class="actions">
                                            <button type="submit" class="primary">{tr("presets-save")}</button>
                                        </div>
                                    </ActionForm>
                                }
                                    .into_any()
                            }
                            Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                        })
                }}
            </Suspense>
        </section>
    }
}
