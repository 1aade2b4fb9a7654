//! The page's one way to read and write JSON, by each type's one serde definition. The server
//! uses serde_json; the browser parses with its own `JSON.parse` and reads the parsed value with
//! serde-wasm-bindgen (`browser`), so serde_json's parser and number formatting stay out of the
//! page's WebAssembly (issue 48). The same holds for what the page's resources carry and for
//! every server function's answer (`PageJson`).

#[cfg_attr(not(feature = "hydrate"), path = "json/headless.rs")]
mod browser;

use leptos::server::codee::{Decoder, Encoder};
use leptos::server_fn::codec::Post;
use leptos::server_fn::{Bytes, ContentType, Decodes, Encodes, Format, FormatType};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a value could not be read from JSON, or written as JSON (the reader's words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct JsonError(pub String);

/// `text` read as a `T`.
///
/// # Errors
/// When `text` is not JSON or not a `T`.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    browser::read(text)
}

/// `value` written as JSON.
///
/// # Errors
/// When `value` has no JSON form (a map whose keys are not strings).
pub fn write<T: Serialize>(value: &T) -> Result<String, JsonError> {
    browser::write(value)
}

/// JSON as the page reads it: the codec of the page's resources (`Resource<T, PageJson>`),
/// which the server resolved and carried in the page, and the encoding of every server
/// function's answer (`JsonAnswer`) and failure.
pub struct PageJson;

/// A server function's answer as JSON in the body, read with `read`: `output = JsonAnswer`.
pub type JsonAnswer = Post<PageJson>;

impl<T: Serialize> Encoder<T> for PageJson {
    type Error = JsonError;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, JsonError> {
        write(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for PageJson {
    type Error = JsonError;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, JsonError> {
        read(text)
    }
}

impl ContentType for PageJson {
    const CONTENT_TYPE: &'static str = "application/json";
}

impl FormatType for PageJson {
    const FORMAT_TYPE: Format = Format::Text;
}

impl<T: Serialize> Encodes<T> for PageJson {
    type Error = JsonError;

    fn encode(value: &T) -> Result<Bytes, JsonError> {
        write(value).map(Bytes::from)
    }
}

impl<T: DeserializeOwned> Decodes<T> for PageJson {
    type Error = JsonError;

    fn decode(bytes: Bytes) -> Result<T, JsonError> {
        let text = std::str::from_utf8(&bytes).map_err(|error| JsonError(error.to_string()))?;
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
