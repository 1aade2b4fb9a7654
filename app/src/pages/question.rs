//! `/q/:id`: one question, answerable in any shape, locked with a banner once it is closed.

pub mod attachments;
#[cfg_attr(not(feature = "hydrate"), path = "question/headless.rs")]
mod browser;
#[cfg(feature = "ssr")]
mod closing;
mod deadline;
pub mod form;
pub mod presets;
pub mod rich_text;

#[cfg(feature = "ssr")]
use crate::components::failure_notice::FailureNotice;
use crate::components::status_chip::StatusChip;
use crate::components::tell_agent::TellAgentBox;
use crate::draft::Draft;
use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use crate::live::Live;
use crate::pages::question::attachments::Attachments;
use crate::pages::question::form::SubQuestionFields;
use crate::pages::question::rich_text::RichText;
#[cfg(feature = "ssr")]
use crate::server::data_block::DataBlock;
use crate::words::{answer_summary, note_text};
use hark_core::model::{Question, QuestionId, Status};
use leptos::prelude::*;
#[cfg(feature = "ssr")]
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};

/// The answer form's server function: an answer may carry images, so its body may be large
/// (the daemon's body limits read this).
pub const ANSWER_FORM_PATH: &str = <SubmitAnswer as leptos::server_fn::ServerFn>::PATH;

/// The skip form's server function, which takes only the usual small body.
pub const SKIP_FORM_PATH: &str = <SkipQuestion as leptos::server_fn::ServerFn>::PATH;

/// One question by id, `None` when the daemon does not know it.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn get_question(id: QuestionId) -> Result<Option<Question>, Failure> {
    let store = expect_context::<hark_core::store::Store>();
    Ok(store.get(id).await.map(crate::server::render::for_page))
}

/// One sub-question's answer as the form posts it (`answer[0][selected][1]=Yes`,
/// `answer[0][images][0]=data:image/png;base64,…`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormAnswer {
    #[serde(default)]
    pub selected: Vec<String>,
    #[serde(default)]
    pub free_text: String,
    /// Attached images as `data:` URLs.
    #[serde(default)]
    pub images: Vec<String>,
}

impl FormAnswer {
    /// The shared answer type; an empty text box means no free text.
    pub fn into_answer(self) -> hark_core::model::SubQuestionAnswer {
        hark_core::model::SubQuestionAnswer {
            selected: self.selected,
            free_text: Some(self.free_text).filter(|text| !text.is_empty()),
            images: self
                .images
                .iter()
                .map(|url| hark_core::model::AnswerImage::from_data_url(url))
                .collect(),
        }
    }
}

/// Where an answer came from, when it was not this page.
fn via_text(via: Option<hark_core::model::AnsweredVia>) -> Option<String> {
    use hark_core::model::AnsweredVia;
    match via? {
        AnsweredVia::Client => Some(t("question-via-client")),
        AnsweredVia::Push => Some(t("question-via-push")),
        AnsweredVia::Rule => Some(t("question-via-rule")),
        AnsweredVia::Channel(channel) => Some(t_args(
            "question-via-channel",
            &[("channel", channel.display().into())],
        )),
        AnsweredVia::Page => None,
    }
}

/// Answers a question from its form, then opens the next pending one (or the inbox).
/// Works as a plain HTML form post too, before or without the WASM.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn submit_answer(
    id: QuestionId,
    #[server(default)] answer: Vec<FormAnswer>,
) -> Result<(), Failure> {
    let store = expect_context::<hark_core::store::Store>();
    let answers: Vec<_> = answer.into_iter().map(FormAnswer::into_answer).collect();
    store
        .close(
            id,
            hark_core::store::Outcome::Answered(answers),
            Some(hark_core::model::AnsweredVia::Page),
        )
        .await
        .map_err(closing::refused::<SubmitAnswer>(id))?;
    closing::open_next(&store);
    Ok(())
}

/// Skips (declines) a question with an optional note, then opens the next one.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn skip_question(id: QuestionId, #[server(default)] note: String) -> Result<(), Failure> {
    let store = expect_context::<hark_core::store::Store>();
    store
        .close(
            id,
            hark_core::store::Outcome::Declined { note: Some(note) },
            Some(hark_core::model::AnsweredVia::Page),
        )
        .await
        .map_err(closing::refused::<SkipQuestion>(id))?;
    closing::open_next(&store);
    Ok(())
}

/// The question page (server only: its question is an island of its own).
#[cfg(feature = "ssr")]
#[component]
pub fn QuestionPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || {
        params
            .read()
            .get("id")
            .and_then(|id| id.parse::<QuestionId>().ok())
    };
    let rendered = crate::json::resource(id, |id| async move {
        match id {
            Some(id) => get_question(id).await,
            None => Ok(None),
        }
    });
    view! {
        <Suspense fallback=|| view! { <p class="muted">{tr("question-loading")}</p> }>
            {move || {
                rendered
                    .get()
                    .map(|loaded| match loaded {
                        Ok(Some(question)) => {
                            view! {
                                <DataBlock id=SHOWN_ID value=question>
                                    <QuestionView />
                                </DataBlock>
                            }
                                .into_any()
                        }
                        Err(failure) => view! { <FailureNotice failure /> }.into_any(),
                        Ok(None) => {
                            view! {
                                <section class="panel">
                                    <p>{tr("question-not-found")}</p>
                                    <a href="/">{tr("question-back")}</a>
                                </section>
                            }
                                .into_any()
                        }
                    })
            }}
        </Suspense>
    }
}

fn closed_key(status: Status) -> &'static str {
    match status {
        Status::Pending | Status::Answered => "question-closed-answered",
        Status::Declined => "question-closed-declined",
        Status::Timeout => "question-closed-timeout",
        Status::Cancelled => "question-closed-cancelled",
    }
}

/// The data block that carries the page's question to its island (`crate::carried`).
const SHOWN_ID: &str = "hark-question";

/// The question itself: rendered once, so typed text survives live updates; only the lock and
/// banner follow the live status. A lazy island (its code loads with the page that holds it),
/// given its question through the page (`crate::carried`).
#[island(lazy)]
fn QuestionView() -> impl IntoView {
    let question: Question = crate::carried::carried(SHOWN_ID);
    let live = Live::expect();
    let id = question.id;
    let initial = question.clone();
    let current = Memo::new(move |_| live.question(id).unwrap_or_else(|| initial.clone()));
    let closed = move || !current.read().is_pending();
    let submit = ServerAction::<SubmitAnswer>::new();
    let skip = ServerAction::<SkipQuestion>::new();
    let failure = move || {
        let error = match (submit.value().get(), skip.value().get()) {
            (Some(Err(error)), _) | (_, Some(Err(error))) => error,
            _ => return None,
        };
        Some(t_args(
            "question-submit-failed",
            &[("reason", error.text().into())],
        ))
    };
    let draft = RwSignal::new(Draft::empty(question.questions.len()));
    let count = question.questions.len();
    // After hydration, so the server's empty form and the browser's first render agree.
    Effect::new(move |_| {
        if let Some(saved) = crate::draft::load(id, count) {
            draft.set(saved);
        }
    });
    Effect::watch(
        move || draft.get(),
        move |draft, _, _| {
            crate::draft::save(id, draft);
            // An edit: a time limit waits while the person types.
            if current
                .with_untracked(|question| question.is_pending() && question.expires_at.is_some())
            {
                live.typing(id);
            }
        },
        false,
    );
    let attachments = Attachments::new(question.questions.len());
    // An answer needs a pick, some text or an image.
    let unanswered = move || {
        let mut unanswered = draft.with(Draft::unanswered);
        unanswered.retain(|index| !attachments.has(*index));
        unanswered
    };
    let missing = RwSignal::new(Vec::<usize>::new());
    // Once a send attempt flagged questions, each flag clears as soon as it is answered.
    Effect::new(move |_| {
        let unanswered = unanswered();
        if !missing.read_untracked().is_empty() {
            missing.update(|missing| missing.retain(|index| unanswered.contains(index)));
        }
    });
    // Checked before sending; with JavaScript off, the server checks the same rules.
    let ready_to_send = move || {
        // An image still being read would be left out.
        if attachments.busy_untracked() {
            return false;
        }
        let unanswered = untrack(unanswered);
        let ready = unanswered.is_empty();
        missing.set(unanswered);
        ready
    };
    let form = NodeRef::<leptos::html::Form>::new();
    // Keys work as soon as the page is open, wherever the focus is (the handler leaves text
    // boxes and menus alone), not only once something inside the form has the focus.
    browser::listen(&question, current, draft, form, attachments, ready_to_send);
    // Its agent may be told something whatever became of the question (SPEC §18).
    let tell_box = question
        .source
        .as_ref()
        .and_then(hark_core::model::AgentRef::of)
        .map(|agent| view! { <TellAgentBox agent back=format!("/q/{id}") /> }.into_any());
    let title = question.title.clone();
    let shown = question.shown.clone().unwrap_or_default();
    let title_rendered = shown.title.clone();
    view! {
        <article
            class="panel question"
            class:leaving=move || submit.pending().get() || skip.pending().get()
            data-question-id=id.to_string()
        >
            <a class="back" href="/">{tr("question-back")}</a>
            {title.map(|title| view! { <RichText source=title rendered=title_rendered class="title" /> })}
            <deadline::Deadline current />
            <div aria-live="polite">
                {move || {
                    let question = current.read();
                    (question.is_pending() && question.abandoned_at.is_some()).then(|| view! {
                        <div class="banner late" role="status" data-testid="abandoned-banner">
                            <span>{t("question-abandoned")}</span>
                        </div>
                    })
                }}
                {move || closed().then(|| {
                    let question = current.get();
                    view! {
                        <div class="banner" role="status" data-testid="closed-banner">
                            <StatusChip status=question.status />
                            <span>{t(closed_key(question.status))}</span>
                            {via_text(question.answered_via).map(|text| view! {
                                <span class="via" data-testid="answered-via">{text}</span>
                            })}
                            {question.answers.is_some().then(|| view! {
                                <p class="answer">
                                    {t_args("question-your-answer", &[("answer", answer_summary(&question).into())])}
                                </p>
                            })}
                            <AnswerImages question=question.clone() />
                            {question.note.clone().map(|note| view! {
                                <p class="note">{t_args("question-note", &[("note", note_text(&note).into())])}</p>
                            })}
                        </div>
                    }
                    // Erased: the question page's view type is otherwise too deep to compile.
                    .into_any()
                })}
            </div>
            <div>
                <ActionForm action=submit node_ref=form>
                    <input type="hidden" name="id" value=id.to_string() />
                    <fieldset class="form-body" disabled=closed>
                        {question
                            .questions
                            .iter()
                            .cloned()
                            .enumerate()
                            .map(|(index, sub)| {
                                let text = shown.questions.get(index).cloned();
                                let previews = shown.previews.get(index).cloned().unwrap_or_default();
                                view! { <SubQuestionFields index sub text previews draft attachments missing /> }
                            })
                            .collect_view()}
                        <p class="error" role="alert">{failure}</p>
                        <div class="actions">
                            <span class="hint">{tr("question-keys-hint")}</span>
                            <button
                                type="submit"
                                class="primary"
                                // A photo being redrawn takes a second or two: the button
                                // says why it waits rather than ignoring a tap.
                                disabled=move || submit.pending().get() || attachments.busy()
                                on:click=move |event| {
                                    if !ready_to_send() {
                                        event.prevent_default();
                                    }
                                }
                            >
                                {move || {
                                    if submit.pending().get() {
                                        t("question-submitting")
                                    } else if attachments.busy() {
                                        t("question-reading-images")
                                    } else {
                                        t("question-submit")
                                    }
                                }}
                            </button>
                        </div>
                    </fieldset>
                </ActionForm>
                <details class="skip">
                    <summary>{tr("question-skip")}</summary>
                    <ActionForm action=skip>
                        <input type="hidden" name="id" value=id.to_string() />
                        <fieldset disabled=closed>
                            <label for="skip-note">{tr("question-skip-note")}</label>
                            <textarea id="skip-note" name="note" rows="2"></textarea>
                            <button type="submit" class="secondary">
                                {tr("question-skip-confirm")}
                            </button>
                        </fieldset>
                    </ActionForm>
                </details>
                {tell_box}
            </div>
        </article>
    }
}

/// A closed question's images, each linking to the full picture.
#[component]
fn AnswerImages(question: Question) -> impl IntoView {
    // The answer's time makes each link unique to this answer, so it may be cached for good.
    let version = question
        .closed_at
        .map_or(0, |closed| closed.timestamp_millis());
    let links: Vec<String> = question
        .answers
        .iter()
        .flatten()
        .enumerate()
        .flat_map(|(answer, given)| {
            (0..given.images.len()).map(move |place| {
                format!(
                    "/api/questions/{}/images/{answer}/{place}?v={version}",
                    question.id
                )
            })
        })
        .collect();
    (!links.is_empty()).then(|| {
        let items = links
            .into_iter()
            .enumerate()
            .map(|(at, link)| {
                let alt = t_args("image-alt", &[("n", (at as u32 + 1).into())]);
                let href = link.clone();
                view! {
                    <li>
                        <a href=href target="_blank" rel="noopener">
                            <img src=link alt=alt loading="lazy" />
                        </a>
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="answer-images" data-testid="answer-images">{items}</ul> }
    })
}
