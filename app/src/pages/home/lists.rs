//! The inbox's two lists as HTML (server only): what waits, grouped by the agent and project
//! that asked, and the history's cards. The server writes them into the page and serves them
//! again to the inbox island (`super::inbox_lists`, `super::older_history`), which swaps them
//! in as questions come and go. Written by templates (maud) and not by views: the lists hold
//! nothing to hydrate (plain links and the Tell boxes' plain forms), and as views they were the
//! largest part of the first view's WebAssembly.

use crate::components::age::age_markup;
use crate::components::status_chip::status_chip_markup;
use crate::components::tell_agent::tell_box_markup;
use crate::i18n::{t, t_args};
use crate::words::{answer_summary, note_text};
use chrono::{DateTime, Utc};
use hark_core::model::{AgentMessage, AgentRef, DaemonNote, Question};
use maud::{Markup, html};

/// What waits, grouped by source (groups and questions oldest first), each group with the Tell
/// box of its agent, showing the messages among `messages` left for it; ages at `now`.
pub fn waiting(pending: Vec<Question>, messages: &[AgentMessage], now: DateTime<Utc>) -> Markup {
    let groups = group_by_source(pending);
    html! {
        @if groups.is_empty() {
            p.empty { (t("home-empty-pending")) }
        }
        @for (label, members) in &groups {
            section.group {
                h2.group-title { (label.clone().unwrap_or_else(|| t("home-unknown-source"))) }
                ul.cards {
                    @for question in members { (pending_card(question, now)) }
                }
                @if let Some(agent) = members.first().and_then(|question| question.source.as_ref()).and_then(AgentRef::of) {
                    (tell_box_markup(&agent, "/", messages, now))
                }
            }
        }
    }
}

/// Pending questions grouped by source; groups and questions oldest first.
pub fn group_by_source(mut pending: Vec<Question>) -> Vec<(Option<String>, Vec<Question>)> {
    pending.sort_by_key(|question| question.created_at);
    let mut groups: Vec<(Option<String>, Vec<Question>)> = Vec::new();
    for question in pending {
        let label = question.source_label();
        match groups.iter_mut().find(|(known, _)| *known == label) {
            Some((_, members)) => members.push(question),
            None => groups.push((label, vec![question])),
        }
    }
    groups
}

/// A question waiting: its headline and first question, how many it asks, and its age.
fn pending_card(question: &Question, now: DateTime<Utc>) -> Markup {
    let count = question.questions.len();
    // A title alone rarely says what is asked: the first question follows it.
    let first_question = question
        .shown
        .as_ref()
        .and_then(|shown| shown.first_question.as_deref());
    html! {
        li.card.pending data-question-id=(question.id.to_string()) {
            a href={ "/q/" (question.id.to_string()) } {
                span.headline { (question.shown_headline()) }
                @if let Some(text) = first_question {
                    span.first-question data-testid="first-question" { (text) }
                }
                span.meta {
                    @if count > 1 {
                        (t_args("home-question-count", &[("count", count.into())]))
                    }
                    (age_markup(question.created_at, now))
                }
            }
        }
    }
}

/// The history's cards for `closed`, newest first.
pub fn history(closed: &[Question], now: DateTime<Utc>) -> Markup {
    html! {
        @for question in closed { (history_card(question, now)) }
    }
}

/// A closed question: its headline, status, answers, the daemon's note when it chose by
/// itself, and when it closed; with its status and the words a search looks in (lower case)
/// for the page's filter.
fn history_card(question: &Question, now: DateTime<Utc>) -> Markup {
    let chosen_by_timeout =
        question.note.as_deref().and_then(DaemonNote::of) == Some(DaemonNote::ChosenByTimeout);
    html! {
        li.card.closed data-question-id=(question.id.to_string())
            data-status=(question.status.as_str()) data-search=(search_text(question)) {
            a href={ "/q/" (question.id.to_string()) } {
                span.headline { (question.shown_headline()) }
                span.meta {
                    (status_chip_markup(question.status))
                    span.answer { (answer_summary(question)) }
                    @if chosen_by_timeout {
                        span.note { (note_text(DaemonNote::ChosenByTimeout.text())) }
                    }
                    @if let Some(closed) = question.closed_at {
                        (age_markup(closed, now))
                    }
                }
            }
        }
    }
}

/// What a search of the history looks in: the question's texts, its answers and its note, in
/// lower case.
fn search_text(question: &Question) -> String {
    let mut haystack = question.shown_headline().to_string();
    for sub in &question.questions {
        haystack.push(' ');
        haystack.push_str(&sub.question);
    }
    haystack.push(' ');
    haystack.push_str(&answer_summary(question));
    haystack.push(' ');
    haystack.push_str(question.note.as_deref().unwrap_or_default());
    haystack.to_lowercase()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use hark_core::model::{QuestionId, Source, Status, SubQuestion};

    /// A question pending from `client` in `cwd`, asked `minutes_ago`.
    pub fn asked(client: Option<&str>, cwd: Option<&str>, minutes_ago: i64) -> Question {
        Question {
            id: QuestionId::new_random(),
            questions: vec![SubQuestion::text("q")],
            title: None,
            source: Some(Source {
                client: client.map(str::to_string),
                cwd: cwd.map(str::to_string),
                pid: None,
            }),
            status: Status::Pending,
            answers: None,
            note: None,
            created_at: chrono::Utc::now() - chrono::Duration::minutes(minutes_ago),
            closed_at: None,
            expires_at: None,
            timeout_action: Default::default(),
            answered_via: None,
            permission: None,
            abandoned_at: None,
            shown: None,
        }
    }

    #[test]
    fn pending_questions_group_by_client_and_project_oldest_first() {
        let groups = group_by_source(vec![
            asked(Some("cursor 1"), Some("/w/api/"), 1),
            asked(Some("claude 2"), Some("/w/shop"), 5),
            asked(Some("cursor 1"), Some("/w/api"), 9),
            asked(None, None, 3),
        ]);
        let labels: Vec<_> = groups
            .iter()
            .map(|(label, members)| (label.clone(), members.len()))
            .collect();
        assert_eq!(
            labels,
            [
                (Some("cursor 1 · api".to_string()), 2),
                (Some("claude 2 · shop".to_string()), 1),
                (None, 1)
            ]
        );
        assert!(groups[0].1[0].created_at < groups[0].1[1].created_at);
    }

    #[test]
    fn the_lists_escape_what_agents_wrote() {
        let mut question = asked(Some("<b>cursor</b>"), Some("/w/api"), 1);
        question.title = Some("<script>alert(1)</script> & more".to_string());
        let html = waiting(vec![question.clone()], &[], chrono::Utc::now()).into_string();
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"),
            "{html}"
        );
        question.status = Status::Cancelled;
        question.closed_at = Some(chrono::Utc::now());
        let html = history(&[question], chrono::Utc::now()).into_string();
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains(r#"data-status="cancelled""#), "{html}");
        assert!(
            html.contains(r#"data-search="&lt;script&gt;alert(1)"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="chip status-cancelled">"#),
            "{html}"
        );
    }
}
