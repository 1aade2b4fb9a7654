//! Reading the files a person attaches: checked as the daemon checks them (type by content,
//! size, count), a photo too large redrawn smaller (`shrink`), and read as `data:` URLs.

mod shrink;

use super::Attachments;
use crate::i18n::t_args;
use hark_core::model::limits::IMAGE_TYPES;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Takes the files picked through a file button, which is then emptied: the same file may be
/// picked again after a remove.
pub fn take_picked(attachments: Attachments, index: usize, event: &leptos::ev::Event) {
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
    input.set_value("");
    attach(attachments, index, files);
}

/// Takes the files of a drop, unless it landed in a locked form.
pub fn take_dropped(attachments: Attachments, index: usize, event: &leptos::ev::DragEvent) {
    if !in_closed_form(event.target()) {
        attach(attachments, index, files_of(event.data_transfer()));
    }
}

/// Adds an image read as a `data:` URL; false when the answer is full.
fn push(attachments: Attachments, index: usize, url: String) -> bool {
    use hark_core::model::limits::MAX_IMAGES_PER_ANSWER;
    let mut added = false;
    attachments.images.update(|images| {
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
pub fn attach(attachments: Attachments, index: usize, files: Vec<web_sys::File>) {
    if files.is_empty() {
        return;
    }
    attachments.set_problem(index, None);
    attachments.reading.update(|reading| *reading += 1);
    leptos::task::spawn_local(async move {
        for file in files {
            if let Err(problem) = attach_one(attachments, index, file).await {
                attachments.set_problem(index, Some(problem));
                break;
            }
        }
        attachments.reading.update(|reading| *reading -= 1);
    });
}

async fn attach_one(
    attachments: Attachments,
    index: usize,
    file: web_sys::File,
) -> Result<(), String> {
    use hark_core::model::limits::{MAX_IMAGE_BYTES, MAX_IMAGES_PER_ANSWER};
    const MEGABYTE: usize = 1024 * 1024;
    let name = file.name();
    let full = || {
        t_args(
            "image-too-many",
            &[("max", (MAX_IMAGES_PER_ANSWER as u32).into())],
        )
    };
    if attachments.images.with_untracked(|images| {
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
        use shrink::{Unfit, to_fit};
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
    if push(attachments, index, url) {
        Ok(())
    } else {
        Err(full())
    }
}

/// `url` (a `data:` URL) with the type its bytes show, or `None` when they are no image
/// Hark takes.
fn typed_by_content(url: &str) -> Option<String> {
    let data = url.split_once(";base64,")?.1;
    // 16 base64 characters are 12 bytes: enough for every signature checked.
    let head = data.get(..16.min(data.len()))?;
    let bytes: Vec<u8> = window().atob(head).ok()?.chars().map(|c| c as u8).collect();
    let media_type = hark_core::model::image_type_of(&bytes)?;
    Some(format!("data:{media_type};base64,{data}"))
}

/// The image files an event carries (a drop or a paste), in order.
pub fn files_of(transfer: Option<web_sys::DataTransfer>) -> Vec<web_sys::File> {
    let Some(list) = transfer.and_then(|transfer| transfer.files()) else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|at| list.get(at)).collect()
}

/// Whether an event happened inside a form that is locked (its question closed meanwhile).
pub fn in_closed_form(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .and_then(|element| element.closest("fieldset:disabled").ok().flatten())
        .is_some()
}

/// The answer an event happened in: the `data-index` of the sub-question around its target.
pub fn answer_index_of(target: Option<web_sys::EventTarget>) -> Option<usize> {
    target?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("fieldset.sub-question")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
}
