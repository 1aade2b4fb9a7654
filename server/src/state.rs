//! What every handler shares: the store, the Leptos options and the port this daemon serves.

use app::store::Store;
use axum::extract::FromRef;
use leptos::config::LeptosOptions;

/// The router's state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub leptos_options: LeptosOptions,
    pub port: u16,
}

impl AppState {
    /// State for a daemon listening on `port`.
    pub fn new(store: Store, port: u16) -> Self {
        // The site is embedded, so these only name the files the page links to.
        let leptos_options = LeptosOptions::builder()
            .output_name("hark")
            .site_pkg_dir("pkg")
            .site_root("target/site")
            .build();
        Self {
            store,
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
