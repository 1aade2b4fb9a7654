//! Data blocks in the browser: the text of `<script type="application/json" id=…>`, read with
//! `crate::json`.

use leptos::prelude::document;
use serde::de::DeserializeOwned;

pub fn carried<T: Clone + DeserializeOwned + Send + Sync + 'static>(id: &'static str) -> T {
    block(id).expect("a page carries the data block its island reads")
}

/// The data block `id` read as a `T`; `None` when the page has none, or it does not read.
pub fn block<T: DeserializeOwned>(id: &str) -> Option<T> {
    let text = document().get_element_by_id(id)?.text_content()?;
    crate::json::read(&text).ok()
}
