//! An item as the browser reads it: handed over already parsed by `JSON.parse`
//! (`crate::json`), its text kept by `JSON.stringify`; and written back as that text parsed.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::ser::{self, Serializer};
use std::sync::Arc;

/// The item's brief, and its whole text.
pub fn read<'de, Brief: DeserializeOwned, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Brief, Arc<str>), D::Error> {
    // `preserve` works under serde-wasm-bindgen's own deserializer only: `Event`'s reader and
    // `InitData`'s hand each item over directly, never through serde's buffered (untagged,
    // flattened) readers, where this would fail.
    let sent: wasm_bindgen::JsValue = serde_wasm_bindgen::preserve::deserialize(deserializer)?;
    let text = js_sys::JSON::stringify(&sent)
        .map_err(|_| de::Error::custom("an item of the event stream has no JSON form"))?;
    let brief = serde_wasm_bindgen::from_value(sent).map_err(de::Error::custom)?;
    Ok((brief, Arc::from(String::from(text))))
}

/// The item's text, written as the JSON it is (under `crate::json`'s writer).
pub fn write<S: Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    let parsed = js_sys::JSON::parse(text)
        .map_err(|_| ser::Error::custom("an item of the event stream lost its JSON form"))?;
    serde_wasm_bindgen::preserve::serialize(&parsed, serializer)
}
