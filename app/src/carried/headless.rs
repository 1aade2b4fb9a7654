//! The server's twin of `browser.rs`: the island is rendered inside the `DataBlock` that holds
//! its value.

use super::Carried;
use leptos::prelude::expect_context;
use serde::de::DeserializeOwned;

pub fn carried<T: Clone + DeserializeOwned + Send + Sync + 'static>(_id: &'static str) -> T {
    expect_context::<Carried<T>>().0
}

/// A page on the server has no blocks to read.
pub fn block<T: DeserializeOwned>(_id: &str) -> Option<T> {
    None
}
