//! Drafts in the browser's localStorage, one key per question.

use super::Draft;
use hark_core::model::QuestionId;

fn key(id: QuestionId) -> String {
    format!("hark.draft.{id}")
}

fn local_storage() -> Option<web_sys::Storage> {
    leptos::prelude::window().local_storage().ok().flatten()
}

/// The stored draft of question `id`, if it fits.
pub fn load(id: QuestionId, questions: usize) -> Option<Draft> {
    let text = local_storage()?.get_item(&key(id)).ok()??;
    crate::json::read::<Draft>(&text)
        .ok()
        .filter(|draft| draft.fits(questions))
}

/// Stores the draft, or forgets it when blank.
pub fn save(id: QuestionId, draft: &Draft) {
    let Some(storage) = local_storage() else {
        return;
    };
    if draft.is_blank() {
        let _ = storage.remove_item(&key(id));
    } else if let Ok(text) = crate::json::write(draft) {
        let _ = storage.set_item(&key(id), &text);
    }
}

pub fn forget(id: QuestionId) {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(&key(id));
    }
}
