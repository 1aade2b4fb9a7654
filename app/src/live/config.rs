//! The config as the page holds it: what answering needs, read at once, beside the daemon's
//! whole config as it was sent, read only by the settings page (in its own module). The first
//! view's WebAssembly no longer reads every channel's settings (issue 30). The browser gets
//! the config already parsed (`crate::json`), and keeps its text by `JSON.stringify` (`browser`).

#[cfg_attr(not(feature = "hydrate"), path = "config/headless.rs")]
mod browser;

use hark_core::model::{Config, PageConfig};
use serde::de::{Deserialize, Deserializer};
use std::sync::Arc;

/// One config from `init` or `config:updated`.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveConfig {
    pub page: PageConfig,
    sent: Arc<str>,
}

impl LiveConfig {
    /// The whole config as the daemon sent it; `None` when it does not read as one, which the
    /// daemon, sending a `Config`, never does.
    pub fn whole(&self) -> Option<Config> {
        crate::json::read(&self.sent).ok()
    }
}

impl<'de> Deserialize<'de> for LiveConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (page, sent) = browser::read(deserializer)?;
        Ok(Self { page, sent })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{Event, InitData};

    #[test]
    fn the_page_reads_what_answering_needs_and_keeps_the_whole_config_for_settings() {
        let config = Config {
            sound: false,
            timeout_secs: 90,
            presets: vec!["Go on".into()],
            ..Config::default()
        };
        let sent: Event = Event::Init(InitData {
            questions: vec![],
            config: config.clone(),
            messages: vec![],
            sessions: vec![],
        });
        let text = serde_json::to_string(&sent).unwrap();
        let Ok(Event::Init(init)) = crate::json::read::<Event<LiveConfig>>(&text) else {
            panic!("{text}");
        };
        assert_eq!(init.config.page, PageConfig::from(&config));
        assert_eq!(init.config.whole(), Some(config));
    }

    #[test]
    fn a_config_that_is_not_one_is_refused() {
        let text = r#"{"event": "config:updated", "data": {"sound": "loud"}}"#;
        let error = crate::json::read::<Event<LiveConfig>>(text).unwrap_err();
        assert!(error.to_string().contains("invalid type"), "{error}");
    }
}
