//! The page's one way to read JSON: serde_json over bytes, as server functions read their
//! answers. Reading the same types from a `&str` as well (serde_json's `from_str`, which the
//! resources' default codec and the event stream used) put a second copy of every type's reader
//! into the WebAssembly (issue 30).

use leptos::server::codee::{Decoder, Encoder};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `text` read as a `T`.
///
/// # Errors
/// When `text` is not JSON or not a `T`.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_slice(text.as_bytes())
}

/// The codec of the page's resources (`Resource<T, PageJson>`): what the server resolved,
/// carried in the page as JSON and read with `read`.
pub struct PageJson;

impl<T: Serialize> Encoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, serde_json::Error> {
        read(text)
    }
}

/// A resource loaded on the server and carried in the page (as `Resource::new` does, with the
/// page's one reader).
pub fn resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> leptos::prelude::Resource<T, PageJson>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: Future<Output = T> + Send + 'static,
{
    leptos::prelude::Resource::new_with_options(source, fetcher, false)
}
