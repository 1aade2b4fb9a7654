//! What every handler shares: the store, the access policy, the Leptos options and the port
//! this daemon serves.

use crate::access::Access;
use axum::extract::FromRef;
use hark_core::store::Store;
use leptos::config::LeptosOptions;
use std::sync::Arc;

/// The router's state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub access: Arc<Access>,
    pub leptos_options: LeptosOptions,
    pub port: u16,
}

impl AppState {
    /// State for a daemon listening on `port` under `access`.
    pub fn new(store: Store, access: Arc<Access>, port: u16) -> Self {
        // The site is embedded, so these only name the files the page links to.
        let leptos_options = LeptosOptions::builder()
            .output_name("hark")
            .site_pkg_dir("pkg")
            .site_root("target/site")
            .build();
        Self {
            store,
            access,
            leptos_options,
            port,
        }
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}
