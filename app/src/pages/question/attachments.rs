//! The images of each answer (SPEC §13): pasted, dropped on the question, or picked (or taken
//! with the phone's camera) through a file button; shown as thumbnails with a remove button;
//! checked here as the daemon checks them (type, size, count), so a refusal comes at once and
//! names the file, a photo too large for an answer being redrawn smaller first (`shrink`); and
//! posted with the form as `data:` URLs in `answer[i][images][j]`.
//!
//! Images need the page's script: without it the file button is not shown at all, rather than
//! offered and then ignored by the plain HTML post. Reading and checking files is `browser`'s
//! (its headless twin on the server takes none).

use crate::i18n::{t_args, tr};
use hark_core::model::limits::IMAGE_TYPES;
use leptos::prelude::*;

#[cfg_attr(not(feature = "hydrate"), path = "attachments/headless.rs")]
pub(super) mod browser;

/// Every answer's images (as `data:` URLs) and the last problem with each, for one question.
#[derive(Clone, Copy)]
pub struct Attachments {
    images: RwSignal<Vec<Vec<String>>>,
    problems: RwSignal<Vec<Option<String>>>,
    /// Files being read now: the answer is not complete until they are in.
    reading: RwSignal<usize>,
}

impl Attachments {
    pub fn new(answers: usize) -> Self {
        Self {
            images: RwSignal::new(vec![Vec::new(); answers]),
            problems: RwSignal::new(vec![None; answers]),
            reading: RwSignal::new(0),
        }
    }

    /// Whether answer `index` has an image (then it needs nothing else); copies nothing.
    pub fn has(self, index: usize) -> bool {
        self.images
            .with(|images| images.get(index).is_some_and(|list| !list.is_empty()))
    }

    /// Whether a file is still being read (sending now would leave it out).
    pub fn busy(self) -> bool {
        self.reading.get() > 0
    }

    /// `busy`, without following it.
    pub fn busy_untracked(self) -> bool {
        self.reading.get_untracked() > 0
    }

    /// The images of answer `index`.
    pub fn of(self, index: usize) -> Vec<String> {
        self.images
            .with(|images| images.get(index).cloned().unwrap_or_default())
    }

    /// Why the last image could not be added to answer `index`; shown where the answer's other
    /// problems are.
    pub fn problem(self, index: usize) -> Option<String> {
        self.problems
            .with(|problems| problems.get(index).cloned().flatten())
    }

    fn set_problem(self, index: usize, problem: Option<String>) {
        self.problems.update(|problems| {
            if let Some(slot) = problems.get_mut(index) {
                *slot = problem;
            }
        });
    }

    fn remove(self, index: usize, place: usize) {
        self.images.update(|images| {
            if let Some(list) = images.get_mut(index)
                && place < list.len()
            {
                list.remove(place);
            }
        });
        self.set_problem(index, None);
    }

    /// Takes the files picked through answer `index`'s file button.
    fn take_picked(self, index: usize, event: &leptos::ev::Event) {
        browser::take_picked(self, index, event);
    }

    /// Takes the files dropped on answer `index`, unless its form is locked.
    pub fn take_dropped(self, index: usize, event: &leptos::ev::DragEvent) {
        browser::take_dropped(self, index, event);
    }
}

/// Answer `index`'s thumbnails, their hidden fields and the file button.
#[component]
pub fn AttachedImages(index: usize, attachments: Attachments) -> impl IntoView {
    // Shown once the script runs: the plain HTML post cannot carry images.
    let scripted = RwSignal::new(false);
    Effect::new(move |_| scripted.set(true));
    let input_id = format!("q{index}-images");
    let thumbnails = move || {
        attachments
            .of(index)
            .into_iter()
            .enumerate()
            .map(|(place, url)| {
                let number = (place + 1) as u32;
                view! {
                    <li class="thumbnail">
                        <img src=url.clone() alt=t_args("image-alt", &[("n", number.into())]) />
                        <button
                            type="button"
                            class="remove"
                            aria-label=t_args("image-remove", &[("n", number.into())])
                            on:click=move |_| attachments.remove(index, place)
                        >
                            "×"
                        </button>
                        <input type="hidden" name=format!("answer[{index}][images][{place}]") value=url />
                    </li>
                }
            })
            .collect_view()
    };
    let picker = move || {
        scripted.get().then(|| {
            let input_id = input_id.clone();
            view! {
                <div class="add-images">
                    <label class="button secondary" for=input_id.clone()>{tr("image-add")}</label>
                    <input
                        id=input_id
                        class="sr-only"
                        type="file"
                        accept=IMAGE_TYPES.join(",")
                        multiple
                        on:change=move |event| attachments.take_picked(index, &event)
                    />
                    <span class="muted hint">{tr("image-hint")}</span>
                </div>
            }
        })
    };
    view! {
        <div class="images" data-images=index>
            <ul class="thumbnails">{thumbnails}</ul>
            {picker}
        </div>
    }
}
