//! The catalogues a page carries. The daemon holds all five; a page carries only the one it is
//! shown in, plus each language's own name (for the language picker), written into the page as
//! a JSON data block. The browser reads them from there, and fetches a whole catalogue from the
//! daemon when the person switches to another language. Sending all five in the WebAssembly
//! cost 19 KB (brotli) of every first view.

use super::Lang;
use crate::components::failure::Failure;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The id of the `<script type="application/json">` holding them.
pub const ELEMENT_ID: &str = "hark-catalogues";

/// What the page carries: Fluent sources by language code, with the languages whose source is
/// the whole catalogue (the others hold only `language-name`).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct PageCatalogues {
    pub whole: Vec<String>,
    pub sources: Vec<(String, String)>,
}

/// The data block in the page's `<head>`: data, not a script (so no CSP applies to it).
#[cfg(feature = "ssr")]
#[component]
pub fn DataBlock(lang: Lang) -> impl IntoView {
    view! { <script type="application/json" id=ELEMENT_ID inner_html=for_page(lang)></script> }
}

/// The data block's JSON for a page shown in `lang`, safe inside `<script>`. The catalogues are
/// compiled in, so each language's block is built once, not on every page.
#[cfg(feature = "ssr")]
pub fn for_page(lang: Lang) -> &'static str {
    static BLOCKS: std::sync::LazyLock<Vec<(Lang, String)>> = std::sync::LazyLock::new(|| {
        Lang::ALL
            .into_iter()
            .map(|lang| (lang, build_for_page(lang)))
            .collect()
    });
    BLOCKS
        .iter()
        .find(|(of, _)| *of == lang)
        .map_or("", |(_, block)| block.as_str())
}

#[cfg(feature = "ssr")]
fn build_for_page(lang: Lang) -> String {
    let sources = Lang::ALL
        .into_iter()
        .map(|of| {
            // Another language is carried as a one-message catalogue, its name, so the picker
            // (and every lookup) goes through Fluent the same way for all five.
            let source = if of == lang {
                hark_text::catalogues::page_source(of).to_string()
            } else {
                format!(
                    "language-name = {}\n",
                    super::t_in(of, "language-name", &[])
                )
            };
            (of.code().to_string(), source)
        })
        .collect();
    let catalogues = PageCatalogues {
        whole: vec![lang.code().to_string()],
        sources,
    };
    script_json(&catalogues)
}

/// `value` as JSON that cannot end a `<script>` element or open a comment in it.
#[cfg(feature = "ssr")]
fn script_json(value: &impl Serialize) -> String {
    // `<` occurs only inside strings in JSON, where `\u003c` means the same.
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

/// The whole catalogue of the language `lang` (a code), for a page switching to it.
#[server(prefix = "/fn", input = leptos::server_fn::codec::GetUrl)]
pub async fn catalogue(lang: String) -> Result<String, Failure> {
    let lang = lang.parse::<Lang>().map_err(|_| {
        let failure = Failure::UnknownPreference {
            field: "lang".to_string(),
        };
        crate::components::failure::refuse::<Catalogue>("/", failure)
    })?;
    Ok(hark_text::catalogues::page_source(lang).to_string())
}

#[cfg(feature = "hydrate")]
pub use browser::{install_carried, is_whole, load};

#[cfg(feature = "hydrate")]
mod browser {
    //! The browser's catalogues: those the page carried, and those fetched since, installed
    //! in `hark-text` for every lookup.
    use super::{ELEMENT_ID, Lang, PageCatalogues};
    use std::cell::RefCell;

    thread_local! {
        /// The languages whose whole catalogue is here (the others carry only their name);
        /// `None` until the page's own are installed.
        static WHOLE: RefCell<Option<Vec<Lang>>> = const { RefCell::new(None) };
    }

    /// Installs the catalogues the page carried into `hark-text`, where every lookup finds
    /// them, once; hydration calls it before the first word is looked up.
    pub fn install_carried() {
        WHOLE.with_borrow_mut(|whole| {
            if whole.is_none() {
                *whole = Some(from_page());
            }
        });
    }

    /// Installs what the server wrote into the page; nothing if the block is missing or
    /// unreadable. Returns the languages it carried whole.
    fn from_page() -> Vec<Lang> {
        let carried = leptos::prelude::document()
            .get_element_by_id(ELEMENT_ID)
            .and_then(|element| element.text_content())
            .and_then(|text| serde_json::from_str::<PageCatalogues>(&text).ok())
            .unwrap_or_else(|| {
                // `prefs` then fetches the page's language (see `Prefs::provide`).
                leptos::logging::warn!("the page carried no readable catalogues");
                PageCatalogues::default()
            });
        let mut whole = Vec::new();
        for (code, source) in &carried.sources {
            if let Ok(lang) = code.parse::<Lang>() {
                hark_text::catalogues::install(lang, &[source]);
                if carried.whole.contains(code) {
                    whole.push(lang);
                }
            }
        }
        whole
    }

    /// Whether the whole catalogue of `lang` is here.
    pub fn is_whole(lang: Lang) -> bool {
        install_carried();
        WHOLE.with_borrow(|whole| whole.iter().flatten().any(|of| *of == lang))
    }

    /// Makes sure the whole catalogue of `lang` is here, fetching it from the daemon if not.
    /// False when it could not be fetched (the page then stays in its language).
    pub async fn load(lang: Lang) -> bool {
        if is_whole(lang) {
            return true;
        }
        match super::catalogue(lang.code().to_string()).await {
            Ok(source) => {
                hark_text::catalogues::install(lang, &[&source]);
                WHOLE.with_borrow_mut(|whole| whole.get_or_insert_default().push(lang));
                true
            }
            Err(error) => {
                leptos::logging::warn!("the {lang} catalogue did not arrive: {error}");
                false
            }
        }
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn a_page_carries_its_own_catalogue_and_every_language_name() {
        let carried: PageCatalogues = serde_json::from_str(for_page(Lang::Ru)).unwrap();
        assert_eq!(carried.whole, ["ru"]);
        assert_eq!(carried.sources.len(), Lang::ALL.len());
        for (code, source) in &carried.sources {
            let lang: Lang = code.parse().unwrap();
            let bundle = hark_text::catalogues::bundle(lang, &[source]);
            let name = hark_text::lookup::format_in(&bundle, "language-name", None);
            assert_eq!(name, Some(hark_text::t_in(lang, "language-name", &[])));
            if lang == Lang::Ru {
                assert_eq!(source, hark_text::catalogues::page_source(Lang::Ru));
            } else {
                assert_eq!(source.lines().count(), 1, "{code} carries only its name");
            }
        }
    }

    #[test]
    fn the_data_block_cannot_end_its_element() {
        let text = "</script><script>alert(1)</script><!--";
        let json = script_json(&text);
        assert!(!json.contains('<'), "{json}");
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}
