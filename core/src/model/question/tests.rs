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
    assert!(AnsweredVia::Push.possible());
    for channel in ChannelName::ALL {
        assert_eq!(AnsweredVia::Channel(channel).possible(), channel.answers());
    }
}

#[cfg(feature = "schema")]
#[test]
fn the_tool_schema_states_the_limits_validation_holds() {
    use crate::model::{AskRequest, limits};
    let schema = serde_json::to_value(schemars::schema_for!(AskRequest)).unwrap();
    let ask = &schema["properties"];
    assert_eq!(ask["questions"]["maxItems"], limits::MAX_SUB_QUESTIONS);
    assert_eq!(ask["title"]["maxLength"], limits::MAX_TITLE_CHARS);
    assert_eq!(ask["timeoutSecs"]["maximum"], limits::MAX_TIMEOUT_SECS);
    let definitions = &schema["$defs"];
    let sub = &definitions["SubQuestion"]["properties"];
    assert_eq!(sub["question"]["maxLength"], limits::MAX_QUESTION_CHARS);
    assert_eq!(sub["header"]["maxLength"], limits::MAX_HEADER_CHARS);
    assert_eq!(sub["options"]["maxItems"], limits::MAX_OPTIONS);
    let option = &definitions["QuestionOption"]["properties"];
    assert_eq!(option["label"]["maxLength"], limits::MAX_LABEL_CHARS);
    assert_eq!(
        option["description"]["maxLength"],
        limits::MAX_DESCRIPTION_CHARS
    );
    assert_eq!(option["preview"]["maxLength"], limits::MAX_PREVIEW_CHARS);
}
