//! The page's hydration scripts in islands mode: the module and its WebAssembly preloaded, and
//! Hark's own islands loader (`island_script.js`, which says why it is not Leptos').

use leptos::prelude::*;

/// Preloads the page's module and WebAssembly and starts the islands loader.
#[component]
pub fn IslandScripts(options: LeptosOptions) -> impl IntoView {
    // What Leptos' `HydrationScripts` does in islands mode: resources outside islands are
    // rendered, not sent along for hydration.
    if let Some(context) = Owner::current_shared_context() {
        context.set_is_hydrating(false);
    }
    let pkg = options.site_pkg_dir.to_string();
    let name = options.output_name.to_string();
    let nonce = leptos::nonce::use_nonce();
    static LOADER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        super::inline_script::compact(include_str!("island_script.js"))
    });
    let script = format!("{}({pkg:?}, {name:?});", *LOADER);
    view! {
        <link rel="modulepreload" href=format!("/{pkg}/{name}.js") crossorigin=nonce.clone() />
        <link
            rel="preload"
            href=format!("/{pkg}/{name}.wasm")
            r#as="fetch"
            r#type="application/wasm"
            crossorigin=nonce.as_ref().map(|nonce| nonce.to_string()).unwrap_or_default()
        />
        <script type="module" nonce=nonce>
            {script}
        </script>
    }
}
