//! Hark's app crate: the shared model, the store (server only), and the Leptos UI that the
//! server renders and the browser hydrates.

pub mod model;
#[cfg(feature = "ssr")]
pub mod store;
