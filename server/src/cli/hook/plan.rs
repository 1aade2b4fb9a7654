//! Claude Code's plan approval (SPEC §19): its `PreToolUse` of `ExitPlanMode` asked in Hark, the
//! plan shown as Markdown with "Approve" and "Keep planning"; the person's own words, or a skip's
//! note, go back as what to change.
//!
//! The shapes are Claude Code's hooks reference (code.claude.com/docs/en/hooks, "ExitPlanMode"
//! and "PreToolUse decision control"): Claude Code puts the plan in the tool's input as `plan`
//! (Markdown, read from its plan file) with `planFilePath`; a tool that needs the person is let
//! through with `permissionDecision: "allow"` and the input echoed in `updatedInput` ("allow"
//! alone is not enough), and held back with `"deny"`, whose `permissionDecisionReason` Claude
//! reads, so it goes on planning with the person's words. No answer in time prints nothing:
//! Claude Code asks in its own dialog.

use super::claude::ClaudeInput;
use super::{Hook, person_lang};
use hark_core::model::limits::MAX_QUESTION_CHARS;
use hark_core::model::{AskRequest, QuestionOption, Status, SubQuestion};
use hark_text::plain::cut_chars;
use hark_text::t_in;
use serde_json::{Value, json};

/// Room the question keeps for its first line around the plan.
const ASK_CHARS: usize = 500;

fn decision(allowed: bool, reason: &str, input: Option<&Value>) -> Value {
    let mut output = json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": if allowed { "allow" } else { "deny" },
        "permissionDecisionReason": reason,
    });
    if let Some(input) = input {
        output["updatedInput"] = input.clone();
    }
    json!({ "hookSpecificOutput": output })
}

/// Asks whether to carry out the plan; the hook's output, or `None` for Claude Code's dialog.
pub async fn ask(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
    let input = &input.tool_input;
    let plan = input
        .get("plan")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let lang = person_lang(hook).await;
    let (approve, keep) = (
        t_in(lang, "hook-plan-approve", &[]),
        t_in(lang, "hook-plan-keep", &[]),
    );
    let agent = hook.agent.product();
    let asked = format!(
        "{}\n\n{}",
        t_in(lang, "hook-plan-ask", &[("agent", agent.into())]),
        cut_chars(plan.trim(), MAX_QUESTION_CHARS - ASK_CHARS)
    );
    let request = AskRequest {
        questions: vec![SubQuestion {
            header: Some(t_in(lang, "hook-plan-header", &[])),
            options: vec![
                QuestionOption {
                    recommended: true,
                    ..QuestionOption::new(approve.clone())
                },
                QuestionOption::new(keep.clone()),
            ],
            allow_free_text: true,
            ..SubQuestion::text(asked)
        }],
        source: Some(hook.source()),
        ..AskRequest::default()
    };
    let result = hook.ask(request).await?;
    let answer = result.answers.iter().flatten().next();
    let chose = |label: &str| {
        answer.is_some_and(|answer| answer.selected.iter().any(|picked| picked == label))
    };
    let words = answer
        .and_then(|answer| answer.free_text.as_deref())
        .map(str::trim)
        .filter(|words| !words.is_empty());
    Some(match (result.status, words) {
        (Status::Answered, _) if chose(&approve) => {
            decision(true, "The person approved the plan in Hark.", Some(input))
        }
        (Status::Answered, Some(words)) => decision(
            false,
            &format!("The person wants changes to the plan before you start. Their words: {words}"),
            None,
        ),
        (Status::Answered, None) if chose(&keep) => decision(
            false,
            "The person wants to keep planning: do not start yet; ask what to change.",
            None,
        ),
        (Status::Declined, _) => {
            let reason = match result
                .note
                .as_deref()
                .map(str::trim)
                .filter(|note| !note.is_empty())
            {
                Some(note) => format!("The person did not approve the plan. Their note: {note}"),
                None => "The person did not approve the plan: keep planning.".to_string(),
            };
            decision(false, &reason, None)
        }
        // Timed out or withdrawn: Claude Code asks in its own dialog.
        _ => return None,
    })
}
