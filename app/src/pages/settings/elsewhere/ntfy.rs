//! ntfy's part of "Notify me elsewhere": whether pushes are on, the server and topic, and the
//! access token (kept in `secrets.json`: the field is never filled, and a saved one can be
//! forgotten). Fields of the section's one form.

use crate::i18n::tr;
use hark_core::model::channels::ntfy::Ntfy;
use leptos::prelude::*;

/// The fields, as `ntfy` stands; `token_set` when an access token is saved for its server.
#[component]
pub fn NtfyFields(ntfy: Ntfy, token_set: bool) -> impl IntoView {
    view! {
        <label class="toggle">
            <input type="checkbox" name="ntfy_enabled" checked=ntfy.enabled />
            <span>{tr("elsewhere-ntfy")}</span>
        </label>
        <div class="field">
            <label for="ntfy-server">{tr("elsewhere-ntfy-server")}</label>
            <input id="ntfy-server" name="ntfy_server" type="url" value=ntfy.server.clone() />
        </div>
        <div class="field">
            <label for="ntfy-topic">{tr("elsewhere-ntfy-topic")}</label>
            <input id="ntfy-topic" name="ntfy_topic" type="text" autocomplete="off" value=ntfy.topic.clone() />
            <p class="help">{tr("elsewhere-ntfy-topic-help")}</p>
        </div>
        <div class="field">
            <label for="ntfy-token">{tr("elsewhere-ntfy-token")}</label>
            <input id="ntfy-token" name="ntfy_token" type="password" autocomplete="off" value="" />
            <p class="help">{tr("elsewhere-ntfy-token-help")}</p>
            {token_set.then(|| view! {
                <p class="help" data-testid="ntfy-token-set">{tr("elsewhere-ntfy-token-set")}</p>
                <label class="toggle">
                    <input type="checkbox" name="forget_ntfy_token" />
                    <span>{tr("elsewhere-ntfy-token-forget")}</span>
                </label>
            })}
        </div>
    }
}
