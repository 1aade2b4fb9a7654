//! The catalogues a page carries (`i18n::page_catalogues`), written into its `<head>` as a JSON
//! data block: the language the page is shown in whole (but for the settings page's own
//! messages, on every other page, and the question pages' too, on the inbox), every other
//! language by its name, each resolved from its Fluent source once (`hark_text::words`).

use crate::i18n::Lang;
use crate::i18n::page_catalogues::{ELEMENT_ID, PageCatalogues};
use hark_text::words::{Words, resolved};
use leptos::prelude::*;

/// The groups of messages that only the settings page's code formats (its forms, the chat apps,
/// the phone, the rules): about two thirds of a catalogue, which the other pages leave out. A
/// language switch fetches a whole catalogue (`page_catalogues::catalogue`).
const SETTINGS_ONLY: [&str; 4] = ["elsewhere-", "settings-", "phone-", "rules-"];

/// The groups of messages that only the question's and agents' pages format in the browser
/// (the form, its images and quick replies, the Tell box, the sessions): the inbox's lists,
/// which use some of them, are written by the server, so the inbox leaves them out too.
const QUESTION_PAGES_ONLY: [&str; 7] = [
    "question-",
    "image-",
    "presets-",
    "tell-",
    "agents-",
    "note-",
    "answer-",
];

/// Which of a catalogue's messages a page's block carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    All,
    OutsideSettings,
    /// Neither the settings page's own messages nor the question pages'.
    Inbox,
}

impl Carried {
    /// What the page at `path` carries.
    pub fn for_path(path: &str) -> Carried {
        if path == "/settings" || path.starts_with("/settings/") {
            Carried::All
        } else if path == "/" {
            Carried::Inbox
        } else {
            Carried::OutsideSettings
        }
    }

    /// Whether the message `key` is carried.
    fn carries(self, key: &str) -> bool {
        let in_any = |groups: &[&str]| groups.iter().any(|group| key.starts_with(group));
        match self {
            Carried::All => true,
            Carried::OutsideSettings => !in_any(&SETTINGS_ONLY),
            Carried::Inbox => !in_any(&SETTINGS_ONLY) && !in_any(&QUESTION_PAGES_ONLY),
        }
    }
}

/// The data block in the page's `<head>`: data, not a script (so no CSP applies to it).
#[component]
pub fn CatalogueBlock(lang: Lang) -> impl IntoView {
    let path = use_context::<axum::http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    let json = for_page(lang, Carried::for_path(&path));
    view! { <script type="application/json" id=ELEMENT_ID inner_html=json></script> }
}

/// The data block's JSON for a page shown in `lang`, safe inside `<script>`. The catalogues are
/// compiled in, so each block is built once, not on every page.
pub fn for_page(lang: Lang, carried: Carried) -> &'static str {
    type Blocks = [std::sync::OnceLock<String>; Lang::ALL.len()];
    // Each made when a page is first shown in its language.
    static ALL: Blocks = [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    static OUTSIDE_SETTINGS: Blocks = [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    static INBOX: Blocks = [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    let index = Lang::ALL.iter().position(|of| *of == lang).unwrap_or(0);
    let blocks = match carried {
        Carried::All => &ALL,
        Carried::OutsideSettings => &OUTSIDE_SETTINGS,
        Carried::Inbox => &INBOX,
    };
    blocks[index].get_or_init(|| build_for_page(lang, carried))
}

fn build_for_page(lang: Lang, carried: Carried) -> String {
    let catalogues = Lang::ALL
        .into_iter()
        .map(|of| {
            // Another language is carried as a one-message catalogue, its name, so the picker
            // (and every lookup) goes the same way for all five.
            let words = if of == lang {
                page_words(resolved(of), carried)
            } else {
                Words::named(hark_text::language_name(of))
            };
            (of.code().to_string(), words)
        })
        .collect();
    let catalogues = PageCatalogues {
        whole: vec![lang.code().to_string()],
        catalogues,
    };
    super::data_block::script_json(&catalogues)
}

/// `words` without the messages a page that carries `carried` never formats.
fn page_words(words: &Words, carried: Carried) -> Words {
    let mut words = words.clone();
    words.plain.retain(|key, _| carried.carries(key));
    words.patterns.retain(|key, _| carried.carries(key));
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_carries_its_own_catalogue_and_every_language_name() {
        let carried: PageCatalogues =
            serde_json::from_str(for_page(Lang::Ru, Carried::All)).unwrap();
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

    #[test]
    fn pages_other_than_settings_leave_the_settings_messages_out() {
        assert_eq!(Carried::for_path("/settings"), Carried::All);
        assert_eq!(Carried::for_path("/"), Carried::Inbox);
        assert_eq!(Carried::for_path("/q/x"), Carried::OutsideSettings);
        assert_eq!(Carried::for_path("/settingsx"), Carried::OutsideSettings);
        let page = |carried| -> Words {
            let block: PageCatalogues = serde_json::from_str(for_page(Lang::Ja, carried)).unwrap();
            let (_, words) = block
                .catalogues
                .into_iter()
                .find(|(code, _)| code == "ja")
                .unwrap();
            words
        };
        let (question, settings) = (page(Carried::OutsideSettings), page(Carried::All));
        let inbox = page(Carried::Inbox);
        let keys = |words: &Words| -> Vec<String> {
            words
                .plain
                .keys()
                .chain(words.patterns.keys())
                .cloned()
                .collect()
        };
        assert!(
            keys(&settings)
                .iter()
                .any(|key| key.starts_with("elsewhere-"))
        );
        assert!(
            keys(&question)
                .iter()
                .all(|key| !key.starts_with("elsewhere-") && !key.starts_with("settings-"))
        );
        assert!(
            keys(&question).contains(&"presets-label".to_string()),
            "the question page's"
        );
        assert!(keys(&question).len() * 2 < keys(&settings).len());
        // The inbox: what its islands format (the header, the history's tools, notifications),
        // not the question pages' messages.
        let inbox = keys(&inbox);
        for key in [
            "nav-inbox",
            "history-search-label",
            "attention-title",
            "session-notice-finished",
        ] {
            assert!(inbox.contains(&key.to_string()), "{key}");
        }
        assert!(!inbox.contains(&"presets-label".to_string()));
        assert!(
            inbox
                .iter()
                .all(|key| !key.starts_with("question-") && !key.starts_with("settings-"))
        );
    }
}
