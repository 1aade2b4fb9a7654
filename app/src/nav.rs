//! Where the page is, and going elsewhere, without a router in the browser: the server reads
//! the request's path, the browser its location, and leaving is a page load.

use leptos::prelude::*;

/// The path of the page being rendered (the server) or shown (the browser).
pub fn current_path() -> String {
    #[cfg(feature = "ssr")]
    let path =
        use_context::<axum::http::request::Parts>().map(|parts| parts.uri.path().to_string());
    #[cfg(not(feature = "ssr"))]
    let path = window().location().pathname().ok();
    path.unwrap_or_else(|| "/".to_string())
}

/// Opens `path` (in the browser; the server never navigates).
pub fn go(path: &str) {
    #[cfg(not(feature = "ssr"))]
    let _ = window().location().assign(path);
    #[cfg(feature = "ssr")]
    let _ = path;
}

/// Where a server function called from the page sends it (`leptos_axum::redirect`): a page
/// of its own is loaded; the page it was called from stays (the call's answer shows there),
/// moved to the part the target names.
pub fn follow_redirect(target: &str) {
    #[cfg(not(feature = "ssr"))]
    {
        let location = window().location();
        let (path, part) = target.split_once('#').unwrap_or((target, ""));
        if location.pathname().ok().as_deref() == Some(path) {
            if !part.is_empty() {
                let _ = location.set_hash(part);
            }
        } else {
            go(target);
        }
    }
    #[cfg(feature = "ssr")]
    let _ = target;
}
