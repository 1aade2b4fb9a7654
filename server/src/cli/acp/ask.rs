//! A permission request of an ACP agent as a Hark question: "Allow <tool call>?" over what the
//! call would do (its raw input shown literally, as every agent's permission prompt is), with
//! the agent's own choices by name (the rejections marked danger), and what it is about, so a
//! rule the person kept answers it at once and the agent's "always" choices keep one (SPEC
//! §19). Asking stops as soon as the editor answered first: the question is withdrawn.

use super::wire::{PermissionOption, ToolCall};
use crate::cli::hook::permission::{SUMMARY_CHARS, subject, summary};
use crate::client::Messages;
use crate::client::asking::{self, Ended};
use crate::client::connection::Connection;
use hark_core::model::rule::{MAX_PATTERN_CHARS, PermissionAsk};
use hark_core::model::{AskRequest, QuestionOption, Source, Status, SubQuestion, WaitResult};
use hark_text::plain::fit_chars;
use hark_text::{Lang, t_in};
use tokio_util::sync::CancellationToken;

/// The note a question withdrawn because the editor answered first carries.
const ANSWERED_IN_THE_EDITOR: &str = "answered in the editor";

/// A permission question, and the agent's option behind each of its labels.
pub struct Permission {
    pub request: AskRequest,
    labels: Vec<(String, String)>,
}

impl Permission {
    /// The agent's option id of the label the person picked.
    pub fn option_of(&self, label: &str) -> Option<&str> {
        (self.labels.iter())
            .find(|(shown, _)| shown == label)
            .map(|(_, option)| option.as_str())
    }
}

/// The question for `agent`'s tool `call` with `options`, in `lang`; `source` says who asks.
pub fn permission(
    lang: Lang,
    agent: &str,
    call: &ToolCall,
    options: &[PermissionOption],
    source: Source,
) -> Permission {
    let tool = (call.title.as_deref())
        .or(call.kind.as_deref())
        .unwrap_or("a tool");
    let mut asked = t_in(lang, "hook-permission", &[("tool", tool.into())]);
    if let Some(input) = &call.raw_input {
        let shown = hark_text::markdown::literal_block(lang, &summary(input), SUMMARY_CHARS);
        asked = format!("{asked}\n\n{shown}");
    }
    let mut labels: Vec<(String, String)> = Vec::new();
    for option in options {
        let mut label = fit_chars(option.name.trim(), 190);
        if label.is_empty() {
            label = option.option_id.clone();
        }
        // Labels must be unique: a name the agent repeats is numbered.
        let mut shown = label.clone();
        let mut count = 1;
        while labels.iter().any(|(taken, _)| *taken == shown) {
            count += 1;
            shown = format!("{label} ({count})");
        }
        labels.push((shown, option.option_id.clone()));
    }
    let question_options = (labels.iter().zip(options))
        .map(|((label, _), option)| QuestionOption {
            danger: option.kind.starts_with("reject"),
            ..QuestionOption::new(label.clone())
        })
        .collect();
    let first = |kind: &str| options.iter().position(|option| option.kind == kind);
    let subject = (call.raw_input.as_ref())
        .map(subject)
        .or_else(|| call.title.clone())
        .filter(|subject| subject.chars().count() <= MAX_PATTERN_CHARS);
    let permission = match (first("allow_once"), first("reject_once"), subject) {
        (Some(allow), Some(deny), Some(subject)) => Some(PermissionAsk {
            agent: agent.to_string(),
            tool: call.kind.clone().unwrap_or_else(|| tool.to_string()),
            subject,
            allow,
            deny,
            always_allow: first("allow_always"),
            always_deny: first("reject_always"),
        }),
        _ => None,
    };
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(fit_chars(tool, 200)),
            options: question_options,
            allow_free_text: false,
            ..SubQuestion::text(asked)
        }],
        source: Some(source),
        permission,
        ..AskRequest::default()
    };
    Permission { request, labels }
}

/// A form's questions asked in Hark until the editor answers the form first.
pub struct InHark<'a> {
    pub connection: &'a Connection,
    pub elsewhere: CancellationToken,
}

impl crate::cli::form::Asker for InHark<'_> {
    fn ask(&self, request: AskRequest) -> impl Future<Output = Option<WaitResult>> + Send {
        waited(self.connection, request, self.elsewhere.clone())
    }
}

/// The label picked for a question asked with `waited`.
pub async fn picked(
    connection: &Connection,
    request: AskRequest,
    elsewhere: CancellationToken,
) -> Option<String> {
    let result = waited(connection, request, elsewhere).await?;
    if result.status != Status::Answered {
        return None;
    }
    result
        .answers?
        .into_iter()
        .next()?
        .selected
        .into_iter()
        .next()
}

/// Asks `request` in Hark until it ends there, or `elsewhere` says the editor answered (the
/// question is then withdrawn). `None` when it did not end in Hark (or failed, said on
/// stderr): the editor's own answer then stands.
pub async fn waited(
    connection: &Connection,
    request: AskRequest,
    elsewhere: CancellationToken,
) -> Option<WaitResult> {
    let (request, _) = asking::with_id(request);
    let request = match asking::submit(connection, request).await {
        Ok(request) => request,
        Err(error) => {
            eprintln!("hark acp: {error}");
            return None;
        }
    };
    let id = request.id?;
    let waited = tokio::select! {
        waited = asking::wait(connection, &request, None, Messages::Leave) => waited,
        () = elsewhere.cancelled() => {
            let _ = connection.client().withdraw(id, ANSWERED_IN_THE_EDITOR).await;
            return None;
        }
    };
    match waited {
        Ok(Ended::Closed(result)) => Some(result),
        Ok(Ended::StillPending) => None,
        Err(error) => {
            eprintln!("hark acp: {error}");
            None
        }
    }
}
