//! Preload links for a lazily loaded page (server only). A page opened directly at a question
//! (a link from a push) or at settings needs that page's WebAssembly modules too; listed in
//! `<head>`, they download beside the main module instead of after it. Leptos writes such links
//! itself, but reads its context after the page has rendered, on whichever worker thread the
//! render ended on, and so left them out of some loads; these are written while `<head>`
//! renders, from the request itself.

use leptos::prelude::*;
use std::sync::Arc;

/// The lazy islands' modules, from the manifest the site's build writes (the daemon
/// reads it from the site it embeds).
#[derive(Clone, Debug, Default)]
pub struct SplitModules {
    /// Each split point's name with its `.wasm` files, without the extension.
    pub routes: Arc<Vec<(String, Vec<String>)>>,
    /// The split modules' loader (its path under the site), which the main module imports.
    pub loader: Option<String>,
}

/// The lazy island the page at `path` holds, as its split point names it (the island's name in
/// snake case). Must agree with `App`'s routes and the pages' `#[island(lazy)]`s.
fn lazy_island_of(path: &str) -> Option<&'static str> {
    let path = path
        .strip_suffix('/')
        .filter(|path| !path.is_empty())
        .unwrap_or(path);
    if path.starts_with("/q/") || path.starts_with("/question/") {
        Some("question_view")
    } else if path == "/settings" {
        Some("settings_page")
    } else if path == "/agents" {
        Some("agents_view")
    } else {
        None
    }
}

/// The `.wasm` files of the lazy island on the page at `path`, if any.
fn modules_for(modules: &SplitModules, path: &str) -> Vec<String> {
    let Some(island) = lazy_island_of(path) else {
        return Vec::new();
    };
    let split_point = format!("{island}_loader_");
    modules
        .routes
        .iter()
        .filter(|(name, _)| name.starts_with(&split_point))
        .flat_map(|(_, files)| files.iter().map(|file| format!("/pkg/{file}.wasm")))
        .collect()
}

/// The links for this request's page: the split modules' loader on every page (the main
/// module imports it at once), and the modules of the lazy island the page holds, if any.
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
                "question_view_loader_123".to_string(),
                vec![
                    "chunk_3".to_string(),
                    "split_question_view_loader_123".to_string(),
                ],
            ),
            (
                "settings_page_loader_456".to_string(),
                vec![
                    "chunk_3".to_string(),
                    "split_settings_page_loader_456".to_string(),
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
                "/pkg/split_question_view_loader_123.wasm"
            ]
        );
        assert_eq!(modules_for(&modules, "/question/0b7c"), question);
        assert_eq!(
            modules_for(&modules, "/settings")[1],
            "/pkg/split_settings_page_loader_456.wasm"
        );
        assert_eq!(
            modules_for(&modules, "/settings/"),
            modules_for(&modules, "/settings")
        );
        assert!(modules_for(&modules, "/").is_empty());
        assert!(modules_for(&modules, "/quiet").is_empty());
    }
}
