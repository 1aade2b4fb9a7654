//! JSON in the browser: `JSON.parse` and `JSON.stringify` do the text, serde-wasm-bindgen
//! turns the parsed value into the Rust type and back. Written the way JSON has it: maps as
//! objects, nothing missing as `null` (`json_compatible`).

use super::JsonError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let parsed = js_sys::JSON::parse(text).map_err(|error| JsonError(described(&error)))?;
    serde_wasm_bindgen::from_value(parsed).map_err(|error| JsonError(error.to_string()))
}

pub fn write<T: Serialize>(value: &T) -> Result<String, JsonError> {
    let value = value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| JsonError(error.to_string()))?;
    js_sys::JSON::stringify(&value)
        .map(String::from)
        .map_err(|error| JsonError(described(&error)))
}

/// What the browser said went wrong (a `SyntaxError`'s message).
fn described(error: &JsValue) -> String {
    js_sys::Error::from(error.clone()).message().into()
}
