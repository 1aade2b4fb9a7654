//! The server's twin of `browser.rs`: the island is rendered inside the `DataBlock` that holds
//! its value.

use super::Carried;
use leptos::prelude::expect_context;
use serde::de::DeserializeOwned;

/// The value of the nearest `DataBlock` of this type, which must be the block `id` the
/// browser will read: a mismatch fails here, on the server and in its tests, not only in a
/// browser.
pub fn carried<T: Clone + DeserializeOwned + Send + Sync + 'static>(id: &'static str) -> T {
    let carried = expect_context::<Carried<T>>();
    assert_eq!(
        carried.id, id,
        "the island reads another block than it is given"
    );
    carried.value
}

/// A page on the server has no blocks to read.
pub fn block<T: DeserializeOwned>(_id: &str) -> Option<T> {
    None
}
