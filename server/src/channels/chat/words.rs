//! The words every chat app says alike (pairing, strangers, hints, the test message): one
//! message each in `server.ftl`, given the app's name (`$app`, itself translated: 飞书 in
//! Chinese), its setup command (`$setup`), its pairing command (`$pair`) and its config name
//! (`$channel`, for the few words that differ by app).

use super::ChatApp;
use crate::channels::Relay;
use hark_text::{Lang, t_in};

/// The shared words, in the daemon's language, for one app.
pub struct Words {
    pub lang: Lang,
    /// The app's name, as people know it in `lang`.
    pub app: String,
    channel: &'static str,
    setup: String,
    pair: &'static str,
}

impl Words {
    /// The words of `A` in the daemon's language now.
    pub fn of<A: ChatApp>(relay: &Relay) -> Words {
        Words::in_lang::<A>(relay.store.read_config(hark_text::negotiate::daemon_lang))
    }

    /// The words of `A` in `lang`.
    pub fn in_lang<A: ChatApp>(lang: Lang) -> Words {
        let channel = A::NAME.as_str();
        Words {
            lang,
            app: t_in(lang, "chat-app", &[("channel", channel.into())]),
            channel,
            setup: format!("hark {channel} setup"),
            pair: A::PAIR_COMMAND,
        }
    }

    /// Message `key` with the app's variables.
    pub fn in_app(&self, key: &str) -> String {
        t_in(
            self.lang,
            key,
            &[
                ("app", self.app.clone().into()),
                ("setup", self.setup.clone().into()),
                ("channel", self.channel.into()),
                ("pair", self.pair.into()),
            ],
        )
    }

    /// Message `key`, which takes no variables.
    pub fn plain(&self, key: &str) -> String {
        t_in(self.lang, key, &[])
    }
}
