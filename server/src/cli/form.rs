//! A form asked in Hark (SPEC §19): MCP's elicitation schema, as another MCP server sends it
//! through Claude Code's `Elicitation` hook (`hook/elicitation.rs`) or an ACP agent through
//! `elicitation/create` (`acp`), read with the MCP SDK's own types
//! (`rmcp::model::ElicitationSchema`): each field one sub-question in the schema's order (an
//! enum its options, a multi-select enum ticked options within its bounds, a boolean Yes / No, a
//! string, number or integer the person's own words), its title as the header and its
//! description as the question, a default marked recommended, and a field the schema does not
//! require offered "Leave empty". Past four fields the form is asked four at a time. An answer
//! that does not fit its field (a number that is not one, a date that is not a date, out of
//! range, too few ticked) is asked again, with what was wrong. The content is typed as the
//! schema says: a number is a number, a boolean a boolean. A field with more choices than a
//! question holds, or of a kind this release does not know, leaves the form to the asker's own
//! dialog.

use hark_core::model::limits::{MAX_OPTIONS, MAX_SUB_QUESTIONS};
use hark_core::model::{
    AskRequest, QuestionOption, Source, Status, SubQuestion, SubQuestionAnswer, WaitResult,
};
use hark_text::plain::fit_chars;
use hark_text::{Lang, t_in};
use rmcp::model::{
    ElicitationSchema, EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition,
    SingleSelectEnumSchema, StringFormat,
};
use serde_json::{Map, Value};

/// What a field takes.
enum Takes {
    /// One of these values, each with its label.
    One(Vec<(String, Value)>),
    /// Any of these values, at least and at most so many.
    Many {
        values: Vec<(String, Value)>,
        min: Option<u64>,
        max: Option<u64>,
    },
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
            Takes::Many {
                values: labelled(&many.items.enum_),
                min: many.min_items,
                max: many.max_items,
            },
            many.default
                .clone()
                .map(|picked| picked.into_iter().map(Value::String).collect()),
        ),
        PrimitiveSchemaDefinition::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(many))) => {
            let values = (many.items.any_of.iter())
                .map(|choice| (choice.title.clone(), Value::String(choice.const_.clone())))
                .collect();
            (
                owned(many.title.as_ref()),
                owned(many.description.as_ref()),
                Takes::Many {
                    values,
                    min: many.min_items,
                    max: many.max_items,
                },
                many.default
                    .clone()
                    .map(|picked| picked.into_iter().map(Value::String).collect()),
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

/// A value as the person reads it (a whole number without `.0`).
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.as_f64().map_or_else(|| number.to_string(), written),
        other => other.to_string(),
    }
}

/// What the person typed, cut short for a message that quotes it.
fn quoted(typed: &str) -> String {
    fit_chars(typed, 80)
}

/// A number as typed: a decimal point, or one decimal comma (`0,25`); a comma that may group
/// thousands (`1,000`) is not guessed at, and the person is asked again.
fn number_typed(typed: &str) -> Option<f64> {
    let written = match typed.split_once(',') {
        None => typed.to_string(),
        Some((whole, fraction))
            if !typed.contains('.')
                && !fraction.contains(',')
                && fraction.len() != 3
                && fraction.bytes().all(|byte| byte.is_ascii_digit()) =>
        {
            format!("{whole}.{fraction}")
        }
        Some(_) => return None,
    };
    written
        .parse::<f64>()
        .ok()
        .filter(|number| number.is_finite())
}

impl Field {
    /// The choices this field offers: its values (or Yes and No), its default, and "Leave
    /// empty" when the form does not need it.
    fn choices(&self, lang: Lang) -> Vec<(String, Option<Value>)> {
        let mut choices: Vec<(String, Option<Value>)> = match &self.takes {
            Takes::One(values) | Takes::Many { values, .. } => (values.iter())
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
        let by_default = |value: &Option<Value>| match (value, &self.default) {
            (Some(value), Some(Value::Array(picked))) => picked.contains(value),
            (Some(_), default) => value == default,
            (None, _) => false,
        };
        let options = (self.choices(lang).into_iter())
            .map(|(label, value)| QuestionOption {
                recommended: by_default(&value),
                ..QuestionOption::new(fit_chars(&label, 200))
            })
            .collect();
        SubQuestion {
            header: Some(fit_chars(&self.title, 200)),
            options,
            multi_select: matches!(self.takes, Takes::Many { .. }),
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
        if let Takes::Many { min, max, .. } = self.takes {
            // "Leave empty" leaves the field out, whatever else is ticked.
            if chosen.iter().any(Option::is_none) {
                return Ok(None);
            }
            let values: Vec<Value> = chosen.into_iter().flatten().collect();
            let count = values.len() as u64;
            if let Some(min) = min.filter(|min| count < *min) {
                return Err(t_in(lang, "hook-too-few", &[("min", min.into())]));
            }
            if let Some(max) = max.filter(|max| count > *max) {
                return Err(t_in(lang, "hook-too-many", &[("max", max.into())]));
            }
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
                let Some(number) = number_typed(typed) else {
                    return Err(t_in(
                        lang,
                        "hook-not-number",
                        &[("typed", quoted(typed).into())],
                    ));
                };
                in_range(lang, number, *min, *max)?;
                Ok(serde_json::Number::from_f64(number).map(Value::Number))
            }
            Takes::Integer { min, max } => {
                let Ok(integer) = typed.parse::<i64>() else {
                    return Err(t_in(
                        lang,
                        "hook-not-integer",
                        &[("typed", quoted(typed).into())],
                    ));
                };
                let (min, max) = (min.map(|min| min as f64), max.map(|max| max as f64));
                in_range(lang, integer as f64, min, max)?;
                Ok(Some(Value::from(integer)))
            }
            // Fields of options take no words.
            Takes::One(_) | Takes::Many { .. } | Takes::YesNo => {
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

/// A form to ask: who asks, what for, and its schema (MCP's `requestedSchema`).
pub struct Form<'a> {
    pub from: &'a str,
    pub message: &'a str,
    pub schema: &'a Value,
}

/// How the person filled a form in.
pub enum Filled {
    Accepted(Map<String, Value>),
    Declined,
}

/// Where a form's questions are asked: each question created, and its end awaited (`None` when
/// it did not end in Hark).
pub trait Asker: Sync {
    fn ask(&self, request: AskRequest) -> impl Future<Output = Option<WaitResult>> + Send;
}

/// Asks `form` in Hark through `asker`; `None` when it cannot be asked here or was not
/// answered, so the asker's own dialog takes it.
pub async fn fill(
    lang: Lang,
    form: Form<'_>,
    source: Source,
    asker: &impl Asker,
) -> Option<Filled> {
    let schema: ElicitationSchema = match serde_json::from_value(form.schema.clone()) {
        Ok(schema) => schema,
        Err(error) => {
            eprintln!("hark: the form's schema is not MCP's elicitation schema: {error}");
            return None;
        }
    };
    let fields = fields(&schema);
    if fields.len() != schema.properties.len() || fields.is_empty() {
        return None;
    }
    // A field with more choices than a question holds stays in the asker's own dialog.
    if (fields.iter()).any(|field| field.choices(lang).len() > MAX_OPTIONS) {
        return None;
    }
    let title = t_in(
        lang,
        "hook-elicitation-title",
        &[
            ("server", form.from.into()),
            ("message", form.message.into()),
        ],
    );
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
                source: Some(source.clone()),
                ..AskRequest::default()
            };
            let result = asker.ask(request).await?;
            match result.status {
                Status::Answered => {}
                Status::Declined => return Some(Filled::Declined),
                // Timed out or withdrawn: the asker's own dialog takes it.
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
    Some(Filled::Accepted(content))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields_of(schema: Value) -> Vec<Field> {
        fields(&serde_json::from_value(schema).unwrap())
    }

    fn picked(labels: &[&str], typed: Option<&str>) -> SubQuestionAnswer {
        SubQuestionAnswer {
            selected: labels.iter().map(|label| label.to_string()).collect(),
            free_text: typed.map(str::to_string),
            images: Vec::new(),
        }
    }

    #[test]
    fn numbers_are_read_as_written_and_a_thousands_comma_is_not_guessed() {
        assert_eq!(number_typed("0,25"), Some(0.25));
        assert_eq!(number_typed("2.5"), Some(2.5));
        assert_eq!(number_typed("1,000"), None);
        assert_eq!(number_typed("1,000.5"), None);
        assert_eq!(number_typed("1,2,3"), None);
        let [canary] = &fields_of(json!({"type": "object", "properties": {
            "canary": {"type": "number", "default": 10.0}}}))[..]
        else {
            panic!("one field");
        };
        let question = canary.sub_question(Lang::En, None);
        // The default reads 10, not 10.0; a long wrong answer is quoted short.
        assert_eq!(question.options[0].label, "10");
        assert!(question.options[0].recommended);
        let long = "x".repeat(5_000);
        let problem = canary
            .value(Lang::En, &picked(&[], Some(&long)))
            .unwrap_err();
        assert!(problem.chars().count() < 200, "{problem}");
    }

    #[test]
    fn a_multi_select_keeps_its_bounds_its_defaults_and_leave_empty() {
        let [tags] = &fields_of(json!({"type": "object", "properties": {
            "tags": {"type": "array", "minItems": 1, "maxItems": 2, "default": ["b"],
                     "items": {"type": "string", "enum": ["a", "b", "c"]}}}}))[..]
        else {
            panic!("one field");
        };
        let question = tags.sub_question(Lang::En, None);
        let recommended: Vec<bool> = question.options.iter().map(|o| o.recommended).collect();
        assert_eq!(recommended, [false, true, false, false]);
        assert_eq!(question.options[3].label, "Leave empty");
        assert_eq!(
            tags.value(Lang::En, &picked(&["a"], None)),
            Ok(Some(json!(["a"])))
        );
        assert!(
            tags.value(Lang::En, &picked(&[], None))
                .unwrap_err()
                .contains("at least 1")
        );
        let three = picked(&["a", "b", "c"], None);
        assert!(
            tags.value(Lang::En, &three)
                .unwrap_err()
                .contains("at most 2")
        );
        // Left empty, the field is left out (not an empty list).
        assert_eq!(
            tags.value(Lang::En, &picked(&["Leave empty"], None)),
            Ok(None)
        );
    }

    #[test]
    fn a_field_with_more_choices_than_a_question_holds_is_left_to_the_asker() {
        let values: Vec<String> = (0..MAX_OPTIONS).map(|n| format!("v{n}")).collect();
        let [optional] = &fields_of(json!({"type": "object", "properties": {
            "pick": {"type": "string", "enum": values}}}))[..]
        else {
            panic!("one field");
        };
        // 26 values and "Leave empty": one too many for a question.
        assert_eq!(optional.choices(Lang::En).len(), MAX_OPTIONS + 1);
    }

    /// An asker that must not be asked.
    struct NeverAsked;

    impl Asker for NeverAsked {
        async fn ask(&self, _: AskRequest) -> Option<WaitResult> {
            panic!("this form must not be asked in Hark")
        }
    }

    #[tokio::test]
    async fn such_a_form_is_not_asked_in_hark() {
        let values: Vec<String> = (0..MAX_OPTIONS).map(|n| format!("v{n}")).collect();
        let schema = json!({"type": "object", "properties": {
            "pick": {"type": "string", "enum": values}}});
        let form = Form {
            from: "deploy",
            message: "Which one?",
            schema: &schema,
        };
        let source = Source {
            client: None,
            cwd: None,
            pid: None,
        };
        assert!(fill(Lang::En, form, source, &NeverAsked).await.is_none());
    }
}
