//! "Tell the agent…" (SPEC §18): under an agent's questions, a box that leaves a message for
//! that agent (it gets it with its next result from Hark), and the messages the person left it,
//! waiting or delivered. A plain form: it works the same with JavaScript and without.

use crate::components::age::Age;
use crate::failure::Failure;
use crate::i18n::tr;
use crate::live::Live;
use hark_core::model::{AgentMessage, AgentRef};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

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
/// (40 KiB, measured); the page comes back with the message listed as waiting.
#[component]
pub fn TellAgentBox(agent: AgentRef, back: String) -> impl IntoView {
    let live = Live::expect();
    let this_agent = agent.clone();
    let told = move || {
        live.messages
            .get()
            .unwrap_or_default()
            .into_iter()
            .filter(|message| message.to.matches(&this_agent))
            .take(SHOWN)
            .map(|message| view! { <Told message /> })
            .collect_view()
    };
    view! {
        <div class="tell" data-testid="tell-agent">
            <ul class="told" data-testid="told">{told}</ul>
            <details>
                <summary data-testid="tell-open">{tr("tell-summary")}</summary>
                <form method="post" action=TellAgent::PATH>
                    <input type="hidden" name="client" value=agent.client.clone() />
                    <input type="hidden" name="cwd" value=agent.cwd.clone().unwrap_or_default() />
                    <input type="hidden" name="back" value=back />
                    <label>
                        <span class="help">{tr("tell-help")}</span>
                        <input type="text" name="text" required maxlength="4000" pattern=".*\\S.*" title=tr("tell-invalid") placeholder=tr("tell-placeholder") data-testid="tell-text" />
                    </label>
                    <div class="actions">
                        <button type="submit" class="primary" data-testid="tell-send">{tr("tell-send")}</button>
                    </div>
                </form>
            </details>
        </div>
    }
}

/// One message and whether the agent has had it.
#[component]
fn Told(message: AgentMessage) -> impl IntoView {
    let (status, class) = if message.is_waiting() {
        (tr("tell-waiting"), "told-status waiting")
    } else {
        (tr("tell-delivered"), "told-status delivered")
    };
    view! {
        <li data-testid="told-message" data-status=message.status.as_str()>
            <span class="told-text">{message.text}</span>
            <span class="meta">
                <span class=class>{status}</span>
                <Age then=message.created_at />
            </span>
        </li>
    }
}
