//! The webhooks' part of "Notify me elsewhere": their addresses, one per line, and each one's
//! signing secret for its receiver to check signatures with. Fields of the section's one form.

use crate::i18n::{t_args, tr};
use hark_core::model::channels::webhook::Webhook;
use leptos::prelude::*;

/// The fields, with each webhook's secret (by address) as settings may show them.
#[component]
pub fn WebhookFields(webhooks: Vec<Webhook>, secrets: Vec<(String, String)>) -> impl IntoView {
    let lines: String = webhooks
        .iter()
        .map(|webhook| webhook.url.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    view! {
        <div class="field">
            <label for="webhooks">{tr("elsewhere-webhooks")}</label>
            <textarea id="webhooks" name="webhooks" rows="3" placeholder="https://hooks.example/hark">{crate::pages::settings::textarea_text(&lines)}</textarea>
            <p class="help">{tr("elsewhere-webhooks-help")}</p>
            <ul class="secrets">
                {secrets
                    .into_iter()
                    .map(|(url, secret)| {
                        view! {
                            <li>
                                {t_args("elsewhere-webhook-secret", &[("url", url.into())])}
                                " "
                                <code data-testid="webhook-secret">{secret}</code>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}
