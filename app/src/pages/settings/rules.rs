//! "Remembered decisions" on the settings page (SPEC §19): the rules kept when the person
//! answered a permission prompt with "Always allow" or "Always deny", each with what it answers
//! (the agent, the tool, the exact command or a prefix) and a button that takes it back. Plain
//! forms: it works without JavaScript.

use crate::components::failure_notice::FailureNotice;
use crate::failure::Failure;
use crate::i18n::{t_args, tr};
use hark_core::model::rule::{Decision, Rule};
use leptos::prelude::*;

/// The rules kept, oldest first.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn get_rules() -> Result<Vec<Rule>, Failure> {
    Ok(expect_context::<hark_core::store::Store>().rules())
}

/// Takes rule `id` back; one already gone is gone, as asked.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn take_back_rule(id: String) -> Result<(), Failure> {
    let store = expect_context::<hark_core::store::Store>();
    let refuse = |failure| crate::failure::refuse::<TakeBackRule>("/settings", failure);
    let Ok(id) = id.parse().map(hark_core::model::rule::RuleId) else {
        return Err(refuse(Failure::BadRequest {
            details: "id is not a rule's id".into(),
        }));
    };
    match store.remove_rule(id).await {
        Ok(_) | Err(hark_core::store::StoreError::RuleNotFound(_)) => {
            leptos_axum::redirect("/settings#rules-heading");
            Ok(())
        }
        Err(other) => Err(refuse(other.into())),
    }
}

/// The section.
#[component]
pub fn RememberedDecisions() -> impl IntoView {
    let take_back = ServerAction::<TakeBackRule>::new();
    let loaded = crate::json::resource(move || take_back.version().get(), |_| get_rules());
    let problem = move || match take_back.value().get() {
        Some(Err(failure)) => Some(failure.text()),
        _ => None,
    };
    let one = move |rule: Rule| {
        let (mark, decided) = match rule.decision {
            Decision::Allow => ("✓", tr("rules-allowed")),
            Decision::Deny => ("✕", tr("rules-denied")),
        };
        let what = t_args(
            "rules-what",
            &[
                ("agent", rule.agent.clone().into()),
                ("tool", rule.tool.clone().into()),
            ],
        );
        view! {
            <li class="rule" data-testid="rule">
                <p>
                    <span class=format!("decision {}", if rule.decision == Decision::Allow { "allow" } else { "deny" })>{mark} " " {decided}</span>
                    " · " {what}
                </p>
                <pre class="pattern"><code>{rule.pattern.clone()}</code></pre>
                <ActionForm action=take_back>
                    <input type="hidden" name="id" value=rule.id.to_string() />
                    <button type="submit" data-testid="take-back">{tr("rules-take-back")}</button>
                </ActionForm>
            </li>
        }
    };
    view! {
        <section class="panel settings" aria-labelledby="rules-heading">
            <h2 id="rules-heading">{tr("rules-heading")}</h2>
            <p class="help">{tr("rules-help")}</p>
            <p class="error" role="alert">{problem}</p>
            <Suspense fallback=|| ()>
                {move || {
                    loaded
                        .get()
                        .map(|loaded| match loaded {
                            Ok(rules) if rules.is_empty() => {
                                view! { <p class="muted" data-testid="no-rules">{tr("rules-none")}</p> }.into_any()
                            }
                            Ok(rules) => {
                                view! { <ul class="rules">{rules.into_iter().map(one).collect_view()}</ul> }
                                    .into_any()
                            }
                            Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                        })
                }}
            </Suspense>
        </section>
    }
}
