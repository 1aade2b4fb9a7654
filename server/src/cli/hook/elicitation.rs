//! Claude Code's `Elicitation` hook (SPEC §19): the form another MCP server asks for with
//! `elicitation/create` (a deploy server asking which environment, a database asking to
//! confirm), asked in Hark, so it reaches the page, the phone and every chat app.
//!
//! The shapes are Claude Code's hooks reference (code.claude.com/docs/en/hooks, "Elicitation"):
//! the input's `mcp_server_name`, `message`, `mode` (`form`; `url`, a sign-in in a browser, is
//! left to Claude Code's own dialog) and `requested_schema`; the output's `hookSpecificOutput`
//! with `hookEventName: "Elicitation"`, `action` (`accept`, `decline`) and, to accept, `content`.
//! The schema is MCP's elicitation schema, read with the MCP SDK's own types
//! (`rmcp::model::ElicitationSchema`): each field one sub-question in the schema's order (an
//! enum its options, a multi-select enum ticked options, a boolean Yes / No, a string, number or
//! integer the person's own words), its title as the header and its description as the
//! question, a default marked recommended, and a field the schema does not require offered
//! "Leave empty". Past four fields the form is asked four at a time. An answer that does not fit
//! its field (a number that is not one, a date that is not a date, out of range) is asked
//! again, with what was wrong, until the wait runs out. The content goes back typed as the
//! schema says: a number is a number, a boolean a boolean. Skip declines; no answer in time
//! prints nothing, so Claude Code shows its own dialog.

use super::claude::ClaudeInput;
use super::{Hook, person_lang};
use hark_core::model::limits::MAX_SUB_QUESTIONS;
use hark_core::model::{AskRequest, QuestionOption, Status, SubQuestion, SubQuestionAnswer};
use hark_text::plain::fit_chars;
use hark_text::{Lang, t_in};
use rmcp::model::{
    ElicitationSchema, EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition,
    SingleSelectEnumSchema, StringFormat,
};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

/// What a field takes.
enum Takes {
    /// One of these values, each with its label.
    One(Vec<(String, Value)>),
    /// Any of these values.
    Many(Vec<(String, Value)>),
    YesNo,
    Words {
        min: Option<u32>,
        max: Option<u32>,
        format: Option<StringFormat>,
    },
    Number {
        min: Option<f64>,
        max: Option<f64>,
    },
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
}

/// One field of the form.
struct Field {
    name: String,
    title: String,
    description: Option<String>,
    required: bool,
    takes: Takes,
    default: Option<Value>,
}

fn owned(text: Option<&std::borrow::Cow<'static, str>>) -> Option<String> {
    text.map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
}

fn labelled(values: &[String]) -> Vec<(String, Value)> {
    let each = |value: &String| (value.clone(), Value::String(value.clone()));
    values.iter().map(each).collect()
}

/// The form's fields, in the schema's order.
fn fields(schema: &ElicitationSchema) -> Vec<Field> {
    let required = schema.required.clone().unwrap_or_default();
    let order = schema
        .property_order
        .clone()
        .unwrap_or_else(|| schema.properties.keys().cloned().collect());
    order
        .into_iter()
        .filter_map(|name| {
            let definition = schema.properties.get(&name)?;
            let (title, description, takes, default) = read(definition)?;
            Some(Field {
                title: title.unwrap_or_else(|| name.clone()),
                required: required.contains(&name),
                name,
                description,
                takes,
                default,
            })
        })
        .collect()
}

type Read = (Option<String>, Option<String>, Takes, Option<Value>);

/// A field's title, description, what it takes and its default.
fn read(definition: &PrimitiveSchemaDefinition) -> Option<Read> {
    Some(match definition {
        PrimitiveSchemaDefinition::Enum(EnumSchema::Single(SingleSelectEnumSchema::Untitled(
            one,
        ))) => (
            owned(one.title.as_ref()),
            owned(one.description.as_ref()),
            Takes::One(labelled(&one.enum_)),
            one.default.clone().map(Value::String),
        ),
        PrimitiveSchemaDefinition::Enum(EnumSchema::Single(SingleSelectEnumSchema::Titled(
            one,
        ))) => {
            let values = (one.one_of.iter())
                .map(|choice| (choice.title.clone(), Value::String(choice.const_.clone())))
                .collect();
            (
                owned(one.title.as_ref()),
                owned(one.description.as_ref()),
                Takes::One(values),
                one.default.clone().map(Value::String),
            )
        }
        PrimitiveSchemaDefinition::Enum(EnumSchema::Legacy(one)) => {
            let names = one.enum_names.clone().unwrap_or_default();
            let values = (one.enum_.iter().enumerate())
                .map(|(index, value)| {
                    let label = names.get(index).unwrap_or(value).clone();
                    (label, Value::String(value.clone()))
                })
                .collect();
            (
                owned(one.title.as_ref()),
                owned(one.description.as_ref()),
                Takes::One(values),
                one.default.clone().map(Value::String),
            )
        }
        PrimitiveSchemaDefinition::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Untitled(
            many,
        ))) => (
            owned(many.title.as_ref()),
            owned(many.description.as_ref()),
            Takes::Many(labelled(&many.items.enum_)),
            None,
        ),
        PrimitiveSchemaDefinition::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(many))) => {
            let values = (many.items.any_of.iter())
                .map(|choice| (choice.title.clone(), Value::String(choice.const_.clone())))
                .collect();
            (
                owned(many.title.as_ref()),
                owned(many.description.as_ref()),
                Takes::Many(values),
                None,
            )
        }
        PrimitiveSchemaDefinition::String(words) => (
            owned(words.title.as_ref()),
            owned(words.description.as_ref()),
            Takes::Words {
                min: words.min_length,
                max: words.max_length,
                format: words.format,
            },
            words.default.clone().map(Value::String),
        ),
        PrimitiveSchemaDefinition::Number(number) => (
            owned(number.title.as_ref()),
            owned(number.description.as_ref()),
            Takes::Number {
                min: number.minimum,
                max: number.maximum,
            },
            number
                .default
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
        ),
        PrimitiveSchemaDefinition::Integer(integer) => (
            owned(integer.title.as_ref()),
            owned(integer.description.as_ref()),
            Takes::Integer {
                min: integer.minimum,
                max: integer.maximum,
            },
            integer.default.map(Value::from),
        ),
        PrimitiveSchemaDefinition::Boolean(yes_no) => (
            owned(yes_no.title.as_ref()),
            owned(yes_no.description.as_ref()),
            Takes::YesNo,
            yes_no.default.map(Value::Bool),
        ),
        // A kind of field a later schema adds: the form is left to Claude Code's dialog.
        _ => return None,
    })
}

/// A value as the person reads it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

impl Field {
    /// The choices this field offers: its values (or Yes and No), its default, and "Leave
    /// empty" when the form does not need it.
    fn choices(&self, lang: Lang) -> Vec<(String, Option<Value>)> {
        let mut choices: Vec<(String, Option<Value>)> = match &self.takes {
            Takes::One(values) | Takes::Many(values) => (values.iter())
                .map(|(label, value)| (label.clone(), Some(value.clone())))
                .collect(),
            Takes::YesNo => vec![
                (t_in(lang, "hook-yes", &[]), Some(Value::Bool(true))),
                (t_in(lang, "hook-no", &[]), Some(Value::Bool(false))),
            ],
            Takes::Words { .. } | Takes::Number { .. } | Takes::Integer { .. } => {
                (self.default.iter())
                    .map(|value| (shown(value), Some(value.clone())))
                    .collect()
            }
        };
        if !self.required {
            choices.push((t_in(lang, "hook-leave-empty", &[]), None));
        }
        choices
    }

    /// The field as a sub-question; `problem` says why its last answer was not taken.
    fn sub_question(&self, lang: Lang, problem: Option<&str>) -> SubQuestion {
        let asked = self
            .description
            .clone()
            .unwrap_or_else(|| self.title.clone());
        let asked = match problem {
            Some(problem) => format!("⚠️ {problem}\n\n{asked}"),
            None => asked,
        };
        let options = (self.choices(lang).into_iter())
            .map(|(label, value)| QuestionOption {
                recommended: value.is_some() && value == self.default,
                ..QuestionOption::new(fit_chars(&label, 200))
            })
            .collect();
        SubQuestion {
            header: Some(fit_chars(&self.title, 200)),
            options,
            multi_select: matches!(self.takes, Takes::Many(_)),
            allow_free_text: matches!(
                self.takes,
                Takes::Words { .. } | Takes::Number { .. } | Takes::Integer { .. }
            ),
            ..SubQuestion::text(asked)
        }
    }

    /// The field's value in `answer`: `None` when the person left it empty; the problem, in
    /// the person's words, when it does not fit.
    fn value(&self, lang: Lang, answer: &SubQuestionAnswer) -> Result<Option<Value>, String> {
        let choices = self.choices(lang);
        let chosen: Vec<Option<Value>> = (answer.selected.iter())
            .filter_map(|picked| {
                choices
                    .iter()
                    .find(|(label, _)| fit_chars(label, 200) == *picked)
            })
            .map(|(_, value)| value.clone())
            .collect();
        if let Takes::Many(_) = self.takes {
            let values: Vec<Value> = chosen.into_iter().flatten().collect();
            return Ok(Some(Value::Array(values)));
        }
        let typed = answer
            .free_text
            .as_deref()
            .map(str::trim)
            .filter(|typed| !typed.is_empty());
        let Some(typed) = typed else {
            // A choice: its value, or nothing for "Leave empty".
            return Ok(chosen.into_iter().next().flatten());
        };
        match &self.takes {
            Takes::Words { min, max, format } => {
                let length = typed.chars().count();
                if let Some(min) = min.filter(|min| length < *min as usize) {
                    return Err(t_in(lang, "hook-too-short", &[("min", min.into())]));
                }
                if let Some(max) = max.filter(|max| length > *max as usize) {
                    return Err(t_in(lang, "hook-too-long", &[("max", max.into())]));
                }
                if let Some(format) = format.filter(|format| !fits(typed, *format)) {
                    let format = match format {
                        StringFormat::Email => "email",
                        StringFormat::Uri => "uri",
                        StringFormat::Date => "date",
                        StringFormat::DateTime => "date-time",
                        _ => "other",
                    };
                    return Err(t_in(lang, "hook-not-format", &[("format", format.into())]));
                }
                Ok(Some(Value::String(typed.to_string())))
            }
            Takes::Number { min, max } => {
                let number = typed
                    .replace(',', ".")
                    .parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite());
                let Some(number) = number else {
                    return Err(t_in(lang, "hook-not-number", &[("typed", typed.into())]));
                };
                in_range(lang, number, *min, *max)?;
                Ok(serde_json::Number::from_f64(number).map(Value::Number))
            }
            Takes::Integer { min, max } => {
                let Ok(integer) = typed.parse::<i64>() else {
                    return Err(t_in(lang, "hook-not-integer", &[("typed", typed.into())]));
                };
                let (min, max) = (min.map(|min| min as f64), max.map(|max| max as f64));
                in_range(lang, integer as f64, min, max)?;
                Ok(Some(Value::from(integer)))
            }
            // Fields of options take no words.
            Takes::One(_) | Takes::Many(_) | Takes::YesNo => {
                Ok(chosen.into_iter().next().flatten())
            }
        }
    }
}

/// Whether `number` is within the field's bounds; what is wrong, in the person's words.
fn in_range(lang: Lang, number: f64, min: Option<f64>, max: Option<f64>) -> Result<(), String> {
    if let Some(min) = min.filter(|min| number < *min) {
        return Err(t_in(
            lang,
            "hook-too-small",
            &[("min", written(min).into())],
        ));
    }
    if let Some(max) = max.filter(|max| number > *max) {
        return Err(t_in(
            lang,
            "hook-too-large",
            &[("max", written(max).into())],
        ));
    }
    Ok(())
}

/// A bound as the person reads it: `10`, not `10.0`.
fn written(number: f64) -> String {
    serde_json::Number::from_f64(number).map_or_else(
        || number.to_string(),
        |json| match json.as_f64() {
            Some(whole) if whole.fract() == 0.0 && whole.abs() < 1e15 => {
                format!("{}", whole as i64)
            }
            _ => json.to_string(),
        },
    )
}

/// Whether `typed` is written as `format` says.
fn fits(typed: &str, format: StringFormat) -> bool {
    match format {
        StringFormat::Email => typed.split_once('@').is_some_and(|(name, host)| {
            !name.is_empty() && host.contains('.') && !typed.contains(char::is_whitespace)
        }),
        StringFormat::Uri => reqwest::Url::parse(typed).is_ok(),
        StringFormat::Date => chrono::NaiveDate::parse_from_str(typed, "%Y-%m-%d").is_ok(),
        StringFormat::DateTime => chrono::DateTime::parse_from_rfc3339(typed).is_ok(),
        _ => true,
    }
}

/// The hook's answer: `action`, and the content when it accepts.
fn answer(action: &str, content: Option<Map<String, Value>>) -> Value {
    let mut output = json!({"hookEventName": "Elicitation", "action": action});
    if let Some(content) = content {
        output["content"] = Value::Object(content);
    }
    json!({ "hookSpecificOutput": output })
}

/// Asks the form in Hark; the hook's output, or `None` to leave it to Claude Code's dialog.
pub async fn ask(hook: &Hook<'_>, input: &ClaudeInput) -> Option<Value> {
    if input.mode.as_deref().is_some_and(|mode| mode != "form") {
        return None;
    }
    let schema: ElicitationSchema = match serde_json::from_value(input.requested_schema.clone()?) {
        Ok(schema) => schema,
        Err(error) => {
            eprintln!("hark hook: the form's requested_schema is not MCP's: {error}");
            return None;
        }
    };
    let fields = fields(&schema);
    if fields.len() != schema.properties.len() || fields.is_empty() {
        return None;
    }
    let lang = person_lang(hook).await;
    let server = input.mcp_server_name.clone().unwrap_or_default();
    let message = input.message.clone().unwrap_or_default();
    let title = t_in(
        lang,
        "hook-elicitation-title",
        &[("server", server.into()), ("message", message.into())],
    );
    let deadline = Instant::now() + hook.wait;
    let pages: Vec<&[Field]> = fields.chunks(MAX_SUB_QUESTIONS).collect();
    let mut content = Map::new();
    for (page, fields) in pages.iter().enumerate() {
        let title = match pages.len() {
            1 => title.clone(),
            all => format!("{title} ({}/{all})", page + 1),
        };
        let mut asking: Vec<(&Field, Option<String>)> =
            fields.iter().map(|field| (field, None)).collect();
        while !asking.is_empty() {
            let request = AskRequest {
                title: Some(title.clone()),
                questions: (asking.iter())
                    .map(|(field, problem)| field.sub_question(lang, problem.as_deref()))
                    .collect(),
                source: Some(hook.source()),
                ..AskRequest::default()
            };
            let result = hook.ask_until(request, deadline).await?;
            match result.status {
                Status::Answered => {}
                Status::Declined => return Some(answer("decline", None)),
                // Timed out or withdrawn: Claude Code asks in its own dialog.
                _ => return None,
            }
            let answers = result.answers.unwrap_or_default();
            let mut again = Vec::new();
            for ((field, _), given) in asking.iter().zip(&answers) {
                match field.value(lang, given) {
                    Ok(Some(value)) => {
                        content.insert(field.name.clone(), value);
                    }
                    Ok(None) => {}
                    Err(problem) => again.push((*field, Some(problem))),
                }
            }
            asking = again;
        }
    }
    Some(answer("accept", Some(content)))
}
