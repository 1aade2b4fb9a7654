//! An item as the server (and the native tests) read it: serde_json keeps its text as it came.

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer};
use std::sync::Arc;

/// The item's brief, and its whole text.
pub fn read<'de, Brief: DeserializeOwned, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Brief, Arc<str>), D::Error> {
    let sent = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
    let brief = crate::json::read(sent.get()).map_err(de::Error::custom)?;
    Ok((brief, Arc::from(sent.get())))
}
