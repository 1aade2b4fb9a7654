//! JSON on the server, and in native tests: serde_json, reading from bytes as it always has
//! (one reader per type: serde_json's `from_str` would be a second).

use super::JsonError;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    serde_json::from_slice(text.as_bytes()).map_err(|error| JsonError(error.to_string()))
}

pub fn write<T: Serialize>(value: &T) -> Result<String, JsonError> {
    serde_json::to_string(value).map_err(|error| JsonError(error.to_string()))
}
