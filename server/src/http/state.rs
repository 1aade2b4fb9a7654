//! What every handler shares: the store, the access policy, the channels' relay, the Leptos
//! options and the port this daemon serves.

use crate::channels::Relay;
use crate::daemon::secrets::Secrets;
use crate::security::access::Access;
use axum::extract::FromRef;
use hark_core::store::Store;
use leptos::config::LeptosOptions;
use std::sync::Arc;

/// The router's state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub access: Arc<Access>,
    pub relay: Arc<Relay>,
    /// Shared: every extractor of the state clones it, once per request and layer.
    pub leptos_options: Arc<LeptosOptions>,
    pub port: u16,
}

impl AppState {
    /// State for a daemon listening on `port` under `access`, its channels' secrets in memory.
    pub fn new(store: Store, access: Arc<Access>, port: u16) -> Self {
        let relay = Relay::new(
            store.clone(),
            Arc::new(Secrets::load(None)),
            access.clone(),
            port,
            None,
            crate::channels::registry(),
        );
        Self::with_relay(store, access, port, relay)
    }

    /// State with the channels' `relay`.
    pub fn with_relay(store: Store, access: Arc<Access>, port: u16, relay: Arc<Relay>) -> Self {
        // The site is embedded, so these only name the files the page links to.
        let leptos_options = LeptosOptions::builder()
            .output_name("hark")
            .site_pkg_dir("pkg")
            .site_root("target/site")
            .build()
            .into();
        Self {
            store,
            access,
            relay,
            leptos_options,
            port,
        }
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        LeptosOptions::clone(&state.leptos_options)
    }
}
