//! A text as an agent sent it, shown from what the daemon rendered (`Question::shown`): a JSON
//! document as YAML with the raw text one click away (a `<details>`, so it works without
//! JavaScript), anything else as the sanitised HTML of its Markdown.

use hark_core::model::Rendered;
use leptos::prelude::*;

/// One rendered text; `source` is the original, for the raw view of a JSON document and for a
/// text that came without a rendering (shown as plain text then).
#[component]
pub fn RichText(
    source: String,
    rendered: Option<Rendered>,
    #[prop(optional, into)] class: String,
    #[prop(optional)] inline: bool,
) -> impl IntoView {
    match rendered {
        Some(Rendered::Yaml(yaml)) => view! {
            <span class=format!("json-document {class}")>
                <pre class="yaml">{yaml}</pre>
                <details class="raw">
                    <summary>{crate::i18n::tr("question-show-raw")}</summary>
                    <pre>{source}</pre>
                </details>
            </span>
        }
        .into_any(),
        Some(Rendered::Html(html)) if inline => {
            view! { <span class=format!("markdown {class}") inner_html=html></span> }.into_any()
        }
        Some(Rendered::Html(html)) => {
            view! { <div class=format!("markdown {class}") inner_html=html></div> }.into_any()
        }
        None => view! { <span class=format!("markdown {class}")>{source}</span> }.into_any(),
    }
}
