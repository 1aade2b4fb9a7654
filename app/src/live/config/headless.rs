//! A config as the server (and the native tests) read it: serde_json keeps its text as it came.

use hark_core::model::PageConfig;
use serde::de::{self, Deserialize, Deserializer};
use std::sync::Arc;

/// The page's part of the config, and the whole config's text.
pub fn read<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(PageConfig, Arc<str>), D::Error> {
    let sent = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
    let page = crate::json::read(sent.get()).map_err(de::Error::custom)?;
    Ok((page, Arc::from(sent.get())))
}
