//! A config as the browser reads it: handed over already parsed by `JSON.parse`
//! (`crate::json`), its text kept by `JSON.stringify`.

use hark_core::model::PageConfig;
use serde::de::{self, Deserializer};
use std::sync::Arc;

/// The page's part of the config, and the whole config's text.
pub fn read<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(PageConfig, Arc<str>), D::Error> {
    // `preserve` works under serde-wasm-bindgen's own deserializer only: `Event`'s reader
    // hands the config over directly, never through serde's buffered (untagged, flattened)
    // readers, where this would fail.
    let sent: wasm_bindgen::JsValue = serde_wasm_bindgen::preserve::deserialize(deserializer)?;
    let text = js_sys::JSON::stringify(&sent)
        .map_err(|_| de::Error::custom("the config has no JSON form"))?;
    let page = serde_wasm_bindgen::from_value(sent).map_err(de::Error::custom)?;
    Ok((page, Arc::from(String::from(text))))
}
