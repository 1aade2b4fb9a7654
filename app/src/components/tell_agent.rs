//! "Tell the agent…" (SPEC §18): under an agent's questions, a box that leaves a message for
//! that agent (it gets it with its next result from Hark), and the messages the person left it,
//! waiting or delivered. A plain form: it works without JavaScript.

use crate::components::age::Age;
use crate::components::failure::Failure;
use crate::i18n::tr;
use crate::live::Live;
use hark_core::model::{AgentMessage, AgentRef};
use leptos::prelude::*;

/// The messages the box lists at most, newest first.
const SHOWN: usize = 5;

/// Leaves `text` for the agent `client` in `cwd`, then goes back to `back` (the page the form
/// is on).
#[server(prefix = "/fn")]
pub async fn tell_agent(
    client: String,
    #[server(default)] cwd: String,
    #[server(default)] text: String,
    #[server(default)] back: String,
) -> Result<(), Failure> {
    use hark_core::model::{AnsweredVia, NewMessage};
    let store = expect_context::<hark_core::store::Store>();
    // Only a page of this site: the field is the form's own, but anyone may post it.
    let back = if back.starts_with('/') && !back.starts_with("//") {
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
            Err(crate::components::failure::refuse::<TellAgent>(
                &back, failure,
            ))
        }
        Err(other) => Err(crate::components::failure::refuse::<TellAgent>(
            &back,
            other.into(),
        )),
    }
}

/// The box for `agent`, on the page at `back`.
#[component]
pub fn TellAgentBox(agent: AgentRef, back: String) -> impl IntoView {
    let live = Live::expect();
    let tell = ServerAction::<TellAgent>::new();
    let field = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if matches!(tell.value().get(), Some(Ok(())))
            && let Some(field) = field.get()
        {
            field.set_value("");
        }
    });
    let problem = move || match tell.value().get() {
        Some(Err(failure)) => Some(failure.text()),
        _ => None,
    };
    let this_agent = agent.clone();
    let told = move || {
        live.messages
            .get()
            .unwrap_or_default()
            .into_iter()
            .filter(|message| message.to.matches(&this_agent))
            .take(SHOWN)
            .collect::<Vec<_>>()
    };
    view! {
        <div class="tell" data-testid="tell-agent">
            <ul class="told" data-testid="told">
                <For each=told key=|message| (message.id, message.status) let:message>
                    <Told message />
                </For>
            </ul>
            <details>
                <summary data-testid="tell-open">{tr("tell-summary")}</summary>
                <ActionForm action=tell>
                    <input type="hidden" name="client" value=agent.client.clone() />
                    <input type="hidden" name="cwd" value=agent.cwd.clone().unwrap_or_default() />
                    <input type="hidden" name="back" value=back />
                    <label>
                        <span class="help">{tr("tell-help")}</span>
                        <textarea name="text" rows="2" required maxlength="4000" node_ref=field placeholder=tr("tell-placeholder") data-testid="tell-text"></textarea>
                    </label>
                    <p class="error" role="alert">{problem}</p>
                    <div class="actions">
                        <button type="submit" class="primary" data-testid="tell-send">{tr("tell-send")}</button>
                    </div>
                </ActionForm>
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
