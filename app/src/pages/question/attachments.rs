//! The images of each answer (SPEC §13): pasted, dropped on the question, or picked (or taken
//! with the phone's camera) through a file button; shown as thumbnails with a remove button;
//! checked here as the daemon checks them (type, size, count), so a refusal comes at once and
//! names the file, a photo too large for an answer being redrawn smaller first (`shrink`); and
//! posted with the form as `data:` URLs in `answer[i][images][j]`.
//!
//! Images need the page's script: without it the file button is not shown at all, rather than
//! offered and then ignored by the plain HTML post.

use crate::i18n::{t_args, tr};
use hark_core::model::limits::IMAGE_TYPES;
use leptos::prelude::*;

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

    /// Adds an image read as a `data:` URL; false when the answer is full.
    #[cfg(feature = "hydrate")]
    fn push(self, index: usize, url: String) -> bool {
        use hark_core::model::limits::MAX_IMAGES_PER_ANSWER;
        let mut added = false;
        self.images.update(|images| {
            if let Some(list) = images.get_mut(index)
                && list.len() < MAX_IMAGES_PER_ANSWER
            {
                list.push(url);
                added = true;
            }
        });
        added
    }

    /// Checks and reads `files` into answer `index`, one after another, naming the first file
    /// that cannot be added.
    #[cfg(feature = "hydrate")]
    pub fn attach(self, index: usize, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        self.set_problem(index, None);
        self.reading.update(|reading| *reading += 1);
        leptos::task::spawn_local(async move {
            for file in files {
                if let Err(problem) = self.attach_one(index, file).await {
                    self.set_problem(index, Some(problem));
                    break;
                }
            }
            self.reading.update(|reading| *reading -= 1);
        });
    }

    #[cfg(feature = "hydrate")]
    async fn attach_one(self, index: usize, file: web_sys::File) -> Result<(), String> {
        use hark_core::model::limits::{MAX_IMAGE_BYTES, MAX_IMAGES_PER_ANSWER};
        const MEGABYTE: usize = 1024 * 1024;
        let name = file.name();
        let full = || {
            t_args(
                "image-too-many",
                &[("max", (MAX_IMAGES_PER_ANSWER as u32).into())],
            )
        };
        if self.images.with_untracked(|images| {
            images
                .get(index)
                .is_some_and(|list| list.len() >= MAX_IMAGES_PER_ANSWER)
        }) {
            return Err(full());
        }
        if !IMAGE_TYPES.contains(&file.type_().as_str()) {
            return Err(t_args("image-wrong-type", &[("name", name.into())]));
        }
        let blob = if file.size() > MAX_IMAGE_BYTES as f64 {
            // A camera's photo: redrawn smaller when it can be, refused by name when not.
            use crate::pages::question::shrink::{Unfit, to_fit};
            match to_fit(&file, MAX_IMAGE_BYTES).await {
                Ok(smaller) => gloo_file::Blob::from(smaller),
                // A file named like an image that is none: "too large" would mislead.
                Err(Unfit::Undecodable) if file.type_() != "image/gif" => {
                    return Err(t_args("image-unreadable", &[("name", name.into())]));
                }
                Err(_) => {
                    // Whole and tenths apart: each language writes its own decimal mark.
                    let tenths = (file.size() * 10.0 / MEGABYTE as f64).round() as usize;
                    return Err(t_args(
                        "image-too-large",
                        &[
                            ("name", name.into()),
                            ("whole", (tenths / 10).into()),
                            ("tenths", (tenths % 10).into()),
                            ("max", (MAX_IMAGE_BYTES / MEGABYTE).into()),
                        ],
                    ));
                }
            }
        } else {
            gloo_file::Blob::from(file)
        };
        let url = gloo_file::futures::read_as_data_url(&blob)
            .await
            .map_err(|_| t_args("image-unreadable", &[("name", name.clone().into())]))?;
        // The browser names the type after the file's extension; the daemon goes by the
        // bytes, and so does this, so a renamed file is sent as what it is.
        let Some(url) = typed_by_content(&url) else {
            return Err(t_args("image-wrong-type", &[("name", name.into())]));
        };
        if self.push(index, url) {
            Ok(())
        } else {
            Err(full())
        }
    }
}

/// `url` (a `data:` URL) with the type its bytes show, or `None` when they are no image
/// Hark takes.
#[cfg(feature = "hydrate")]
fn typed_by_content(url: &str) -> Option<String> {
    let data = url.split_once(";base64,")?.1;
    // 16 base64 characters are 12 bytes: enough for every signature checked.
    let head = data.get(..16.min(data.len()))?;
    let bytes: Vec<u8> = window().atob(head).ok()?.chars().map(|c| c as u8).collect();
    let media_type = hark_core::model::image_type_of(&bytes)?;
    Some(format!("data:{media_type};base64,{data}"))
}

/// The image files an event carries (a drop or a paste), in order.
#[cfg(feature = "hydrate")]
pub fn files_of(transfer: Option<web_sys::DataTransfer>) -> Vec<web_sys::File> {
    let Some(list) = transfer.and_then(|transfer| transfer.files()) else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|at| list.get(at)).collect()
}

/// Whether an event happened inside a form that is locked (its question closed meanwhile).
#[cfg(feature = "hydrate")]
pub fn in_closed_form(target: Option<web_sys::EventTarget>) -> bool {
    use wasm_bindgen::JsCast;
    target
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .and_then(|element| element.closest("fieldset:disabled").ok().flatten())
        .is_some()
}

/// The answer an event happened in: the `data-index` of the sub-question around its target.
#[cfg(feature = "hydrate")]
pub fn answer_index_of(target: Option<web_sys::EventTarget>) -> Option<usize> {
    use wasm_bindgen::JsCast;
    target?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("fieldset.sub-question")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
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
                        on:change=move |event| {
                            #[cfg(feature = "hydrate")]
                            {
                                use wasm_bindgen::JsCast;
                                let Some(input) = event
                                    .target()
                                    .and_then(|target| target.dyn_into::<web_sys::HtmlInputElement>().ok())
                                else {
                                    return;
                                };
                                let files = input
                                    .files()
                                    .map(|list| (0..list.length()).filter_map(|at| list.get(at)).collect())
                                    .unwrap_or_default();
                                // The same file may be picked again after a remove.
                                input.set_value("");
                                attachments.attach(index, files);
                            }
                            #[cfg(not(feature = "hydrate"))]
                            let _ = event;
                        }
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
