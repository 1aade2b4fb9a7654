//! The catalogues a page carries (`i18n::page_catalogues`), written into its `<head>` as a JSON
//! data block: the language the page is shown in whole, every other language by its name, each
//! resolved from its Fluent source once (`hark_text::words`).

use crate::i18n::Lang;
use crate::i18n::page_catalogues::{ELEMENT_ID, PageCatalogues};
use hark_text::words::{Words, resolved};
use leptos::prelude::*;

/// The data block in the page's `<head>`: data, not a script (so no CSP applies to it).
#[component]
pub fn CatalogueBlock(lang: Lang) -> impl IntoView {
    view! { <script type="application/json" id=ELEMENT_ID inner_html=for_page(lang)></script> }
}

/// The data block's JSON for a page shown in `lang`, safe inside `<script>`. The catalogues are
/// compiled in, so each language's block is built once, not on every page.
pub fn for_page(lang: Lang) -> &'static str {
    // Each made when a page is first shown in its language.
    static BLOCKS: [std::sync::OnceLock<String>; Lang::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    let index = Lang::ALL.iter().position(|of| *of == lang).unwrap_or(0);
    BLOCKS[index].get_or_init(|| build_for_page(lang))
}

fn build_for_page(lang: Lang) -> String {
    let catalogues = Lang::ALL
        .into_iter()
        .map(|of| {
            // Another language is carried as a one-message catalogue, its name, so the picker
            // (and every lookup) goes the same way for all five.
            let carried = if of == lang {
                resolved(of).clone()
            } else {
                Words::named(hark_text::language_name(of))
            };
            (of.code().to_string(), carried)
        })
        .collect();
    let catalogues = PageCatalogues {
        whole: vec![lang.code().to_string()],
        catalogues,
    };
    super::data_block::script_json(&catalogues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_carries_its_own_catalogue_and_every_language_name() {
        let carried: PageCatalogues = serde_json::from_str(for_page(Lang::Ru)).unwrap();
        assert_eq!(carried.whole, ["ru"]);
        assert_eq!(carried.catalogues.len(), Lang::ALL.len());
        for (code, words) in &carried.catalogues {
            let lang: Lang = code.parse().unwrap();
            let name = words.format("language-name", &[], |_| hark_text::words::Plural::Other);
            assert_eq!(name, Some(hark_text::t_in(lang, "language-name", &[])));
            if lang == Lang::Ru {
                assert_eq!(*words, hark_text::words::compile(Lang::Ru));
            } else {
                assert_eq!(
                    words.plain.len() + words.patterns.len(),
                    1,
                    "{code}: its name"
                );
            }
        }
    }
}
