//! The one seam to the page crate (`app`): the Leptos routes and the contexts their server
//! functions take (the store, the phone's pairing details, the channels' desk), the not-found
//! page, what the page takes from the embedded site as it renders (the inline stylesheet, the
//! lazy islands' modules to preload), and the page's view of a hub event. Every other module of
//! the daemon stays free of `app`, so a surface never depends on the page for its words.

use crate::channels::Relay;
use crate::http::assets;
use crate::http::state::AppState;
use app::server::services::{ChannelDesk, ChannelDeskContext, DeskFuture, PairingSource};
use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelError, ChannelName, ChannelsReport, Event,
};
use leptos::config::LeptosOptions;
use leptos_axum::{LeptosRoutes, generate_route_list};
use std::sync::Arc;

/// The page's server function that takes an answer, whose body may be large (images).
pub const ANSWER_FORM_PATH: &str = app::pages::question::ANSWER_FORM_PATH;

/// The page's server function that skips a question (a small body).
pub const SKIP_FORM_PATH: &str = app::pages::question::SKIP_FORM_PATH;

/// `router` with the app's pages and server functions, each render given the daemon's
/// contexts.
pub fn routes(router: Router<AppState>, state: &AppState) -> Router<AppState> {
    let routes = generate_route_list(app::App);
    let store = state.store.clone();
    let options = state.leptos_options.clone();
    let (access, port) = (state.access.clone(), state.port);
    let pairing = PairingSource(Arc::new(move || {
        crate::security::pairing::pairing(&access, port, true)
    }));
    let desk = ChannelDeskContext(Arc::new(Desk(state.relay.clone())));
    router.leptos_routes_with_context(
        state,
        routes,
        move || {
            leptos::prelude::provide_context(store.clone());
            leptos::prelude::provide_context(pairing.clone());
            leptos::prelude::provide_context(desk.clone());
            provide_site_context();
        },
        move || app::server::shell::shell(LeptosOptions::clone(&options)),
    )
}

/// Where the not-found page is rendered: no page of the app lives there.
const NOT_FOUND: &str = "/not-found";

/// What no route takes: a file of the embedded site, else the app's not-found page.
pub async fn site_or_not_found(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request,
) -> Response {
    if let Some(file) = assets::served(request.uri().path(), request.headers()) {
        return file;
    }
    not_found(state, request).await
}

/// The app's not-found page, with its 404.
pub async fn not_found(state: AppState, mut request: Request) -> Response {
    // Rendered at a fixed address, never the one asked for: the router reads addresses its own
    // way (`/x/../` is `/` to it), and a page must not render here by another name.
    *request.uri_mut() = axum::http::Uri::from_static(NOT_FOUND);
    let options = state.leptos_options.clone();
    let store = state.store.clone();
    let render = leptos_axum::render_app_to_stream_with_context(
        move || {
            leptos::prelude::provide_context(store.clone());
            provide_site_context();
        },
        move || app::server::shell::shell(LeptosOptions::clone(&options)),
    );
    let mut response = render(request).await.into_response();
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

/// An event as the page's stream carries it: its questions' texts rendered for the page.
pub fn event_for_page(event: &Event) -> Event {
    app::server::render::event_for_page(event)
}

/// Each lazy island's `.wasm` files and their loader, from the manifest the site's build
/// writes, for pages to preload (`app::preload`). Empty before the first site build, or when the
/// site was built without splitting.
fn split_modules() -> app::server::preload::SplitModules {
    /// The loader's name, fixed while the site's file names carry no hashes (Leptos' default).
    const LOADER: &str = "pkg/__wasm_split.______________________.js";
    static MODULES: std::sync::LazyLock<app::server::preload::SplitModules> =
        std::sync::LazyLock::new(|| {
            let read = || -> Option<Vec<(String, Vec<String>)>> {
                let file = assets::file("pkg/__wasm_split_manifest.json")?;
                let manifest: std::collections::BTreeMap<String, Vec<String>> =
                    serde_json::from_slice(&file.data).ok()?;
                Some(manifest.into_iter().collect())
            };
            app::server::preload::SplitModules {
                routes: Arc::new(read().unwrap_or_default()),
                loader: assets::file(LOADER).map(|_| format!("/{LOADER}")),
            }
        });
    MODULES.clone()
}

/// The built stylesheet, for pages to carry inline. `None` before the first site build.
fn page_style() -> Option<app::server::shell::PageStyle> {
    static STYLE: std::sync::LazyLock<Option<app::server::shell::PageStyle>> =
        std::sync::LazyLock::new(|| {
            let file = assets::file("pkg/hark.css")?;
            let css = String::from_utf8(file.data.into_owned()).ok()?;
            Some(app::server::shell::PageStyle(css.into()))
        });
    STYLE.clone()
}

/// Provides what every page render takes from the embedded site.
fn provide_site_context() {
    leptos::prelude::provide_context(split_modules());
    if let Some(style) = page_style() {
        leptos::prelude::provide_context(style);
    }
}

/// The settings page's view of the channels.
struct Desk(Arc<Relay>);

impl ChannelDesk for Desk {
    fn report(&self) -> ChannelsReport {
        self.0.report()
    }

    fn test(&self, channel: ChannelName) -> DeskFuture<Result<String, ChannelError>> {
        let relay = self.0.clone();
        Box::pin(async move { relay.test(channel).await })
    }

    fn act(
        &self,
        channel: ChannelName,
        action: ChannelAction,
        input: serde_json::Value,
    ) -> DeskFuture<Result<serde_json::Value, ActionRefusal>> {
        let relay = self.0.clone();
        Box::pin(async move { relay.act(channel, action, input).await })
    }

    fn set_token(
        &self,
        channel: ChannelName,
        token: Option<String>,
    ) -> DeskFuture<Result<(), ChannelError>> {
        let relay = self.0.clone();
        Box::pin(async move { relay.set_token(channel, token).await })
    }

    fn shown_secrets(
        &self,
        channel: ChannelName,
    ) -> DeskFuture<Result<Vec<(String, String)>, ChannelError>> {
        let relay = self.0.clone();
        Box::pin(async move { relay.shown_secrets(channel).await })
    }
}
