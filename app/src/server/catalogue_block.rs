//! The catalogues a page carries (`i18n::page_catalogues`), written into its `<head>` as a JSON
//! data block: the language the page is shown in whole, every other language by its name.

use crate::i18n::Lang;
use crate::i18n::page_catalogues::{ELEMENT_ID, PageCatalogues};
use leptos::prelude::*;
use serde::Serialize;

/// The data block in the page's `<head>`: data, not a script (so no CSP applies to it).
#[component]
pub fn CatalogueBlock(lang: Lang) -> impl IntoView {
    view! { <script type="application/json" id=ELEMENT_ID inner_html=for_page(lang)></script> }
}

/// The data block's JSON for a page shown in `lang`, safe inside `<script>`. The catalogues are
/// compiled in, so each language's block is built once, not on every page.
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
                    crate::i18n::t_in(of, "language-name", &[])
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
fn script_json(value: &impl Serialize) -> String {
    // `<` occurs only inside strings in JSON, where `\u003c` means the same.
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

#[cfg(test)]
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
