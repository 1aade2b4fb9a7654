//! What the server hands an island through the page, in place of props: the page wraps the
//! island in `server::data_block::DataBlock`, which writes the value into a JSON data block
//! and gives it to the island's server render through context; in the browser the island reads
//! the block (`browser`). Leptos reads an island's props with serde_json, which would put a
//! second JSON parser into the page's WebAssembly; the block is read by `JSON.parse`
//! (`crate::json`). A resource would bring Suspense and async hydration into the island.
//! `block` reads any data block, the page's catalogues too.

#[cfg_attr(not(feature = "hydrate"), path = "carried/headless.rs")]
mod browser;

pub use browser::block;

use serde::de::DeserializeOwned;

/// The value the server wrote into the data block `id` for the island being rendered.
///
/// # Panics
/// In the browser, when the page has no such block or it does not read as a `T`: a page whose
/// island needs it always carries it, so that is the server's bug, and stops the page as an
/// island's unreadable props would.
pub fn carried<T: Clone + DeserializeOwned + Send + Sync + 'static>(id: &'static str) -> T {
    browser::carried(id)
}

/// A value in context for the island's server render, with the block it was written to; set
/// by `DataBlock`.
#[derive(Clone)]
pub struct Carried<T> {
    pub id: &'static str,
    pub value: T,
}
