//! The question model's wire words: the daemon's notes and where an answer came from.

use super::{AnsweredVia, DaemonNote};
use crate::model::ChannelName;

#[test]
fn the_daemons_notes_keep_the_texts_clients_read() {
    // The wire's words: changing one changes what every client and old history reads.
    let texts = DaemonNote::ALL.map(DaemonNote::text);
    assert_eq!(
        texts,
        [
            "the asking agent went away",
            "the agent stopped waiting, and nobody answered in time",
            "chosen by timeout",
        ]
    );
    for note in DaemonNote::ALL {
        assert_eq!(DaemonNote::of(note.text()), Some(note));
    }
    assert_eq!(DaemonNote::of("not now"), None);
}

#[test]
fn a_channel_is_named_as_written_beside_the_page_the_client_and_a_push() {
    let channels =
        ChannelName::ALL.map(|channel| (AnsweredVia::Channel(channel), channel.as_str()));
    let beside = [
        (AnsweredVia::Page, "page"),
        (AnsweredVia::Client, "client"),
        (AnsweredVia::Push, "push"),
    ];
    for (via, written) in beside.into_iter().chain(channels) {
        assert_eq!(serde_json::to_value(via).unwrap(), written);
        assert_eq!(
            serde_json::from_value::<AnsweredVia>(written.into()).unwrap(),
            via
        );
    }
    assert!(serde_json::from_value::<AnsweredVia>("pigeon".into()).is_err());
}
