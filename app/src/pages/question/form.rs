//! The fields of one sub-question: header chip, Markdown text, options as large rows (radio or
//! checkbox), descriptions, the "Recommended" mark, danger options, option previews (shown by
//! the stylesheet beside the options, or under the focused one on a phone; no script needed),
//! the "Other" box with its quick replies and images (dropped on the question, or picked).
//!
//! Field names follow serde_qs indexing, so the plain HTML post and the hydrated form both decode
//! into `submit_answer`'s arguments: `answer[i][selected][j]`, `answer[i][free_text]` and
//! `answer[i][images][j]`. Once hydrated, the inputs mirror the page's `Draft`.

use crate::draft::Draft;
use crate::i18n::{t, tr};
use crate::pages::question::attachments::{AttachedImages, Attachments};
use crate::pages::question::presets::PresetButtons;
use crate::pages::question::rich_text::RichText;
use hark_core::model::{Rendered, SubQuestion};
use leptos::prelude::*;

/// One sub-question inside the answer form.
#[component]
pub fn SubQuestionFields(
    index: usize,
    sub: SubQuestion,
    /// Its text and its options' previews as the daemon rendered them (`Question::shown`).
    text: Option<Rendered>,
    previews: Vec<Option<Rendered>>,
    draft: RwSignal<Draft>,
    attachments: Attachments,
    /// The sub-questions a send attempt found unanswered.
    missing: RwSignal<Vec<usize>>,
) -> impl IntoView {
    let takes_images = sub.allow_free_text;
    let dropping = RwSignal::new(false);
    let is_missing = move || missing.with(|missing| missing.contains(&index));
    let error_id = format!("q{index}-error");
    let described_by = error_id.clone();
    let multi = sub.multi_select;
    let legend_id = format!("q{index}-legend");
    let labelled_by = legend_id.clone();
    let text_id = format!("q{index}-text");
    let with_previews = sub.options.iter().any(|option| option.preview.is_some());
    // Beside the options, a preview spans as many rows as there are options.
    let rows = format!("--options: {}", sub.options.len().max(1));
    let options = sub
        .options
        .into_iter()
        .enumerate()
        .map(|(option_index, option)| {
            // Radios of one group must share a name to exclude each other; checkboxes each get
            // their own index.
            let name = if multi {
                format!("answer[{index}][selected][{option_index}]")
            } else {
                format!("answer[{index}][selected][0]")
            };
            let input_id = format!("q{index}-o{option_index}");
            let label_for = input_id.clone();
            let class = format!(
                "option{}{}",
                if option.recommended { " recommended" } else { "" },
                if option.danger { " danger" } else { "" }
            );
            let label = option.label.clone();
            let checked_label = label.clone();
            let key_hint = (option_index < 9).then(|| (option_index + 1).to_string());
            view! {
                <label class=class for=label_for data-option=option_index>
                    <input
                        type=if multi { "checkbox" } else { "radio" }
                        id=input_id
                        name=name
                        value=option.label.clone()
                        prop:checked=move || draft.with(|draft| draft.is_picked(index, &checked_label))
                        on:change=move |_| draft.update(|draft| draft.toggle(index, &label, multi))
                    />
                    <span class="option-text">
                        <span class="label">{option.label}</span>
                        {option.recommended.then(|| view! {
                            <span class="mark">{tr("question-option-recommended")}</span>
                        })}
                        {option.description.map(|description| view! {
                            <span class="description">{description}</span>
                        })}
                    </span>
                    {key_hint.map(|hint| view! { <kbd class="key" aria-hidden="true">{hint}</kbd> })}
                </label>
                {option.preview.map(|preview| {
                    let rendered = previews.get(option_index).cloned().flatten();
                    view! {
                        <div class="preview" data-preview=option_index>
                            <RichText source=preview rendered class="preview-text" />
                        </div>
                    }
                })}
            }
        })
        .collect_view();
    let free_text_name = format!("answer[{index}][free_text]");
    let free_text = if sub.allow_free_text {
        let presets_for = text_id.clone();
        view! {
            <div class="other">
                <label for=text_id.clone()>{tr("question-other-label")}</label>
                <textarea
                    id=text_id
                    name=free_text_name
                    rows="3"
                    placeholder=tr("question-other-placeholder")
                    prop:value=move || draft.with(|draft| draft.text(index))
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        draft.update(|draft| draft.set_text(index, text));
                    }
                ></textarea>
                <PresetButtons text_id=presets_for />
                <AttachedImages index attachments />
            </div>
        }
        .into_any()
    } else {
        // Keeps this answer's index present in the post even when nothing is picked, so the
        // answers line up with their questions.
        view! { <input type="hidden" name=free_text_name value="" /> }.into_any()
    };
    view! {
        <fieldset
            class="sub-question"
            class:invalid=is_missing
            class:dropping=move || dropping.get()
            on:dragover=move |event| {
                // Saying yes to the drag is what lets the drop happen here.
                if takes_images {
                    event.prevent_default();
                    dropping.set(true);
                }
            }
            on:dragleave=move |_| dropping.set(false)
            on:drop=move |event| {
                dropping.set(false);
                event.prevent_default();
                if takes_images {
                    attachments.take_dropped(index, &event);
                }
            }
            aria-labelledby=labelled_by
            aria-describedby=described_by
            aria-invalid=move || is_missing().then_some("true")
            data-index=index
        >
            <legend id=legend_id>
                {sub.header.map(|header| view! { <span class="chip header">{header}</span> })}
                <RichText source=sub.question rendered=text class="text" inline=true />
            </legend>
            <div class="options" class:with-previews=with_previews style=rows>{options}</div>
            {free_text}
            <p class="field-error" id=error_id role="alert">
                {move || {
                    if is_missing() {
                        Some(t("question-needs-answer"))
                    } else {
                        attachments.problem(index)
                    }
                }}
            </p>
        </fieldset>
    }
}
