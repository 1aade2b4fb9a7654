//! How the page words a question wherever it appears (the inbox, a question's page, a
//! notification): its answers in a line, and its note, in the page's language.

use crate::i18n::t;
use hark_core::model::Question;

/// The answers in one line, in the page's language.
pub fn answer_summary(question: &Question) -> String {
    hark_text::question::answers_line(crate::i18n::current(), question)
}

/// A question's note as the person reads it: the daemon's own notes in their language, the
/// person's (or an agent's) words as written.
pub fn note_text(note: &str) -> String {
    use hark_core::model::DaemonNote;
    match DaemonNote::of(note) {
        Some(DaemonNote::AgentWentAway) => t("note-orphan"),
        Some(DaemonNote::NobodyAnsweredInTime) => t("note-late"),
        Some(DaemonNote::ChosenByTimeout) => t("note-chosen-by-timeout"),
        None => note.to_string(),
    }
}
