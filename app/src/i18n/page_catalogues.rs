//! The catalogues a page carries. The daemon holds all five; a page carries only the one it is
//! shown in, plus each language's own name (for the language picker), written into the page as
//! a JSON data block, resolved (`hark_text::words`): the browser formats without Fluent. It
//! reads them from there, and fetches a whole catalogue from the daemon when the person
//! switches to another language (`browser`). Sending all five in the WebAssembly cost 19 KB
//! (brotli) of every first view, and parsing Fluent in the browser about 10 KB more. The
//! server writes the block (`server::catalogue_block`, which reads this module's names).

use super::Lang;
use crate::failure::Failure;
use hark_text::words::Words;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The id of the `<script type="application/json">` holding them.
pub const ELEMENT_ID: &str = "hark-catalogues";

/// What the page carries: resolved catalogues by language code, with the languages whose
/// catalogue is whole (the others hold only `language-name`).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct PageCatalogues {
    pub whole: Vec<String>,
    pub catalogues: Vec<(String, Words)>,
}

/// The whole catalogue of the language `lang` (a code), resolved, for a page switching to it.
#[server(
    prefix = "/fn",
    input = leptos::server_fn::codec::GetUrl,
    output = crate::json::JsonAnswer
)]
pub async fn catalogue(lang: String) -> Result<Words, Failure> {
    let lang = crate::failure::offered_lang::<Catalogue>(&lang)?;
    Ok(hark_text::words::resolved(lang).clone())
}

#[cfg_attr(not(feature = "hydrate"), path = "page_catalogues/headless.rs")]
mod browser;

pub use browser::{install_carried, is_whole, load};
