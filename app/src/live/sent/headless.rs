//! An item as the server (and the native tests) read it: serde_json keeps its text as it came,
//! and writes it back as it is.

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use std::sync::Arc;

/// The item's brief, and its whole text.
pub fn read<'de, Brief: DeserializeOwned, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Brief, Arc<str>), D::Error> {
    let sent = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
    let brief = crate::json::read(sent.get()).map_err(de::Error::custom)?;
    Ok((brief, Arc::from(sent.get())))
}

/// The item's text, written as the JSON it is.
pub fn write<S: Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serde_json::value::RawValue::from_string(text.to_string())
        .map_err(ser::Error::custom)?
        .serialize(serializer)
}
