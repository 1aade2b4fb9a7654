//! Preload links for a lazily loaded page (server only). A page opened directly at a question
//! (a link from a push) or at settings needs that page's WebAssembly modules too; listed in
//! `<head>`, they download beside the main module instead of after it. Leptos writes such links
//! itself, but reads its context after the page has rendered, on whichever worker thread the
//! render ended on, and so left them out of some loads; these are written while `<head>`
//! renders, from the request itself.

use leptos::prelude::*;
use std::sync::Arc;

/// The lazy routes' modules, from the manifest the site's build writes (the daemon
/// reads it from the site it embeds).
#[derive(Clone, Debug, Default)]
pub struct SplitModules {
    /// Each split point's name with its `.wasm` files, without the extension.
    pub routes: Arc<Vec<(String, Vec<String>)>>,
    /// The split modules' loader (its path under the site), which the main module imports.
    pub loader: Option<String>,
}

/// The lazy route a path opens, as named in its split point. Must agree with `App`'s routes.
fn lazy_route_of(path: &str) -> Option<&'static str> {
    if path.starts_with("/q/") || path.starts_with("/question/") {
        Some("question_route")
    } else if path == "/settings" || path == "/settings/" {
        Some("settings_route")
    } else {
        None
    }
}

/// The `.wasm` files of the lazy route `path` opens, if any.
fn modules_for(modules: &SplitModules, path: &str) -> Vec<String> {
    let Some(route) = lazy_route_of(path) else {
        return Vec::new();
    };
    let split_point = format!("__{route}_view_");
    modules
        .routes
        .iter()
        .filter(|(name, _)| name.starts_with(&split_point))
        .flat_map(|(_, files)| files.iter().map(|file| format!("/pkg/{file}.wasm")))
        .collect()
}

/// The links for this request's page: the split modules' loader on every page (the main
/// module imports it at once), and the modules of the lazy route the page opens, if any.
#[component]
pub fn Preloads() -> impl IntoView {
    let path = use_context::<axum::http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    let modules = use_context::<SplitModules>().unwrap_or_default();
    let loader = modules
        .loader
        .clone()
        .map(|href| view! { <link rel="modulepreload" href=href /> });
    let route_modules = modules_for(&modules, &path);
    view! {
        {loader}
        // `crossorigin`: the loader fetches the modules in CORS mode, and a preload is used only
        // when its mode matches.
        {route_modules
            .into_iter()
            .map(|href| {
                view! {
                    <link
                        rel="preload"
                        href=href
                        r#as="fetch"
                        r#type="application/wasm"
                        crossorigin="anonymous"
                    />
                }
            })
            .collect_view()}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lazy_page_preloads_its_own_modules() {
        let routes = Arc::new(vec![
            (
                "__question_route_view_123".to_string(),
                vec![
                    "chunk_3".to_string(),
                    "split___question_route_view_123".to_string(),
                ],
            ),
            (
                "__settings_route_view_456".to_string(),
                vec![
                    "chunk_3".to_string(),
                    "split___settings_route_view_456".to_string(),
                ],
            ),
        ]);
        let modules = SplitModules {
            routes,
            loader: None,
        };
        let question = modules_for(&modules, "/q/0b7c");
        assert_eq!(
            question,
            [
                "/pkg/chunk_3.wasm",
                "/pkg/split___question_route_view_123.wasm"
            ]
        );
        assert_eq!(modules_for(&modules, "/question/0b7c"), question);
        assert_eq!(
            modules_for(&modules, "/settings")[1],
            "/pkg/split___settings_route_view_456.wasm"
        );
        assert!(modules_for(&modules, "/").is_empty());
        assert!(modules_for(&modules, "/quiet").is_empty());
    }
}
