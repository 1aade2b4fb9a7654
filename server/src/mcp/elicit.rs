//! MCP elicitation raced with the page (SPEC §12). When the client declares form elicitation
//! and the config says `elicitation: "race"`, `ask_user` also asks in the client's own dialog,
//! as a flat form built from the questions: a single choice is an enum with titled values, a
//! multi-select an array of them, free text a string. The page, phone and channels stay live;
//! the first answer wins. `mcp::server` runs the race; this module builds the form and reads its
//! reply.

use hark_core::model::{AskRequest, SubQuestion, SubQuestionAnswer};
use rmcp::model::{ClientCapabilities, ElicitRequestParams, ElicitationSchema};
use serde_json::{Map, Value, json};

/// Whether a client with `capabilities` can show a form: it declared elicitation, for forms
/// or (as clients before URL mode did) without naming a mode.
pub fn client_has_forms(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .elicitation
        .as_ref()
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// The form's field for question `index`.
fn key(index: usize) -> String {
    format!("q{}", index + 1)
}

/// An option's title in the client's list: its label, and what it means.
fn option_title(option: &hark_core::model::QuestionOption) -> String {
    let mut title = option.label.clone();
    if option.recommended {
        title.push_str(" (recommended)");
    }
    if let Some(description) = option
        .description
        .as_deref()
        .filter(|text| !text.is_empty())
    {
        title.push_str(" — ");
        title.push_str(description);
    }
    title
}

fn field(sub: &SubQuestion) -> Value {
    let title = sub.header.clone().unwrap_or_else(|| sub.question.clone());
    let values: Vec<Value> = sub
        .options
        .iter()
        .map(|option| json!({"const": option.label, "title": option_title(option)}))
        .collect();
    if sub.options.is_empty() {
        json!({"type": "string", "title": title, "description": sub.question})
    } else if sub.multi_select {
        json!({"type": "array", "title": title, "description": sub.question,
               "items": {"anyOf": values}})
    } else {
        json!({"type": "string", "title": title, "description": sub.question, "oneOf": values})
    }
}

/// The form for `request`: a sentence and the flat schema, or `None` when the schema cannot
/// hold the questions (the page alone asks them then).
pub fn form(request: &AskRequest) -> Option<ElicitRequestParams> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (index, sub) in request.questions.iter().enumerate() {
        properties.insert(key(index), field(sub));
        // A free-text question may be left empty, as on the page it may not: the page checks.
        required.push(Value::String(key(index)));
    }
    let schema = json!({"type": "object", "properties": properties, "required": required});
    let requested_schema: ElicitationSchema = serde_json::from_value(schema)
        .inspect_err(|error| tracing::debug!(%error, "these questions do not fit a form"))
        .ok()?;
    let message = request
        .title
        .clone()
        .filter(|title| !title.trim().is_empty())
        .unwrap_or_else(|| "Your agent asks (you can also answer in Hark's page):".to_string());
    Some(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    })
}

/// The answers in a form's reply, one per question in order. A value that is not one of a
/// question's options is taken as its free text; the daemon checks the rest.
pub fn answers(request: &AskRequest, content: &Value) -> Vec<SubQuestionAnswer> {
    request
        .questions
        .iter()
        .enumerate()
        .map(|(index, sub)| {
            let is_option = |text: &str| sub.options.iter().any(|option| option.label == text);
            let mut answer = SubQuestionAnswer {
                selected: Vec::new(),
                free_text: None,
                images: Vec::new(),
            };
            match content.get(key(index)) {
                Some(Value::String(text)) if is_option(text) => answer.selected.push(text.clone()),
                Some(Value::String(text)) if !text.trim().is_empty() => {
                    answer.free_text = Some(text.clone());
                }
                Some(Value::Array(items)) => {
                    answer.selected = items
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect();
                }
                _ => {}
            }
            answer
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::QuestionOption;

    fn request() -> AskRequest {
        AskRequest {
            questions: vec![
                SubQuestion {
                    header: Some("Deploy".into()),
                    options: vec![
                        QuestionOption {
                            recommended: true,
                            ..QuestionOption::new("Yes")
                        },
                        QuestionOption::new("No"),
                    ],
                    ..SubQuestion::text("Deploy now?")
                },
                SubQuestion {
                    multi_select: true,
                    options: vec![QuestionOption::new("Docs"), QuestionOption::new("Tests")],
                    ..SubQuestion::text("Which checks?")
                },
                SubQuestion::text("Release name?"),
            ],
            ..AskRequest::default()
        }
    }

    #[test]
    fn the_questions_become_a_flat_form() {
        let Some(ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        }) = form(&request())
        else {
            panic!("a form");
        };
        let schema = serde_json::to_value(&requested_schema).unwrap();
        assert_eq!(schema["properties"]["q1"]["oneOf"][0]["const"], "Yes");
        assert_eq!(
            schema["properties"]["q1"]["oneOf"][0]["title"],
            "Yes (recommended)"
        );
        assert_eq!(schema["properties"]["q1"]["title"], "Deploy");
        assert_eq!(schema["properties"]["q2"]["type"], "array");
        assert_eq!(
            schema["properties"]["q2"]["items"]["anyOf"][1]["const"],
            "Tests"
        );
        assert_eq!(schema["properties"]["q3"]["type"], "string");
    }

    #[test]
    fn a_reply_becomes_the_answers() {
        let answers = answers(
            &request(),
            &json!({"q1": "Yes", "q2": ["Docs", "Tests"], "q3": "Aurora"}),
        );
        assert_eq!(answers[0].selected, ["Yes"]);
        assert_eq!(answers[1].selected, ["Docs", "Tests"]);
        assert_eq!(answers[2].free_text.as_deref(), Some("Aurora"));
    }
}
