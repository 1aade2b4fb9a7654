//! "Tell the agent…" (SPEC §18): under an agent's questions, a box that leaves a message for
//! that agent (it gets it with its next result from Hark), and the messages the person left it,
//! waiting or delivered. A plain form: it works the same with JavaScript and without.

use crate::components::age::age_markup;
use crate::failure::Failure;
use crate::i18n::t;
use crate::live::Live;
use chrono::{DateTime, Utc};
use hark_core::model::{AgentMessage, AgentRef};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use maud::{Markup, html};

#[cfg_attr(not(feature = "hydrate"), path = "tell_agent/headless.rs")]
mod browser;

pub use browser::{redraw_keeping_boxes, watch_compositions};

/// The messages the box lists at most, newest first.
const SHOWN: usize = 5;

/// Leaves `text` for the agent `client` in `cwd`, then goes back to `back` (the page the form
/// is on).
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn tell_agent(
    client: String,
    #[server(default)] cwd: String,
    #[server(default)] text: String,
    #[server(default)] back: String,
) -> Result<(), Failure> {
    use hark_core::model::{AnsweredVia, NewMessage};
    let store = expect_context::<hark_core::store::Store>();
    // Only a path on this server (the field is the form's own, but anyone may post it): never
    // an open redirect.
    let back = if hark_core::model::local_path(&back).is_some() {
        back
    } else {
        "/".to_string()
    };
    let message = NewMessage {
        to: AgentRef {
            client,
            cwd: (!cwd.is_empty()).then_some(cwd),
        },
        text,
        via: Some(AnsweredVia::Page),
    };
    match store.post_message(message).await {
        Ok(_) => {
            leptos_axum::redirect(&back);
            Ok(())
        }
        Err(hark_core::store::StoreError::Invalid(body)) => {
            let failure = Failure::InvalidMessage {
                details: body.error,
            };
            Err(crate::failure::refuse::<TellAgent>(&back, failure))
        }
        Err(other) => Err(crate::failure::refuse::<TellAgent>(&back, other.into())),
    }
}

/// The box for `agent`, on the page at `back`. A plain form posted to the server function,
/// with the browser's own checks (not blank, not too long): on the inbox's first view an
/// `ActionForm` would bring the form-encoding machinery into the WebAssembly every page loads
/// (40 KiB, measured); the page comes back with the message listed as waiting. Written by the
/// template below, which the inbox's lists use too, and redrawn when the messages or the
/// language change, keeping what was typed.
#[component]
pub fn TellAgentBox(agent: AgentRef, back: String) -> impl IntoView {
    let live = Live::expect();
    let root = NodeRef::<leptos::html::Div>::new();
    crate::components::age::keep_current(root);
    let now = live.now.get_untracked();
    let messages = untrack(|| live.whole_messages()).unwrap_or_default();
    let written = tell_box_markup(&agent, &back, &messages, now).into_string();
    watch_compositions();
    Effect::new(move |drawn: Option<()>| {
        let messages = live.whole_messages().unwrap_or_default();
        let html = tell_box_markup(&agent, &back, &messages, live.now.get_untracked());
        // The first run is the hydration's: the page holds the box already.
        if let (Some(()), Some(root)) = (drawn, root.get_untracked()) {
            browser::redraw_keeping_boxes(&root, &html.into_string());
        }
    });
    view! { <div class="tell-box" node_ref=root inner_html=written></div> }
}

/// The whole box as HTML: the messages left for `agent` among `messages` (newest first), aged
/// at `now`, and the form.
pub fn tell_box_markup(
    agent: &AgentRef,
    back: &str,
    messages: &[AgentMessage],
    now: DateTime<Utc>,
) -> Markup {
    html! {
        div.tell data-testid="tell-agent" {
            ul.told data-testid="told" { (told_markup(agent, messages, now)) }
            details { (tell_form_markup(agent, back)) }
        }
    }
}

/// The messages left for `agent`, newest first, each with whether the agent has had it.
fn told_markup(agent: &AgentRef, messages: &[AgentMessage], now: DateTime<Utc>) -> Markup {
    let told = messages
        .iter()
        .filter(|message| message.to.matches(agent))
        .take(SHOWN);
    html! {
        @for message in told {
            @let (status, class) = if message.is_waiting() {
                (t("tell-waiting"), "told-status waiting")
            } else {
                (t("tell-delivered"), "told-status delivered")
            };
            li data-testid="told-message" data-status=(message.status.as_str()) {
                span.told-text { (message.text) }
                span.meta {
                    span class=(class) { (status) }
                    (age_markup(message.created_at, now))
                }
            }
        }
    }
}

/// What the box's `<details>` holds: its summary and the form.
fn tell_form_markup(agent: &AgentRef, back: &str) -> Markup {
    html! {
        summary data-testid="tell-open" { (t("tell-summary")) }
        form method="post" action=(TellAgent::PATH) {
            input type="hidden" name="client" value=(agent.client);
            input type="hidden" name="cwd" value=(agent.cwd.as_deref().unwrap_or_default());
            input type="hidden" name="back" value=(back);
            label {
                span.help { (t("tell-help")) }
                input type="text" name="text" required maxlength="4000" pattern=".*\\S.*"
                    title=(t("tell-invalid")) placeholder=(t("tell-placeholder"))
                    data-testid="tell-text";
            }
            div.actions {
                button type="submit" class="primary" data-testid="tell-send" { (t("tell-send")) }
            }
        }
    }
}
