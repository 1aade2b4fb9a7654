//! A question as a Feishu/Lark interactive card (card JSON 2.0, `update_multi` so it can be
//! updated): what the agent wrote in `plain_text` (shown as written, never as Markdown), the
//! controls of the sub-question being answered — a button per option for a single choice (the
//! recommended one `primary` with ⭐, a risky one `danger` with ⚠️), a form for a multi-select
//! (a multi-select menu, which Feishu allows only in a form) and for the person's own words,
//! then Skip, whose note is a form of its own — and the outcome, without controls, once it
//! closes. In the daemon's language; within a card's 30 KB.

use super::Feishu;
use crate::channels::chat::ChatViews;
use crate::channels::walk::shown::{self, Emphasis};
use crate::channels::walk::{Awaiting, Callback, Tap, Walk};
use hark_core::model::{Question, Status};
use hark_text::plain::fit_chars;
use hark_text::question::{asked, ending, headline};
use hark_text::{Lang, t_in};
use serde_json::{Value, json};

/// What parts of a card may hold, in characters, so the largest question stays within the
/// 30 KB Feishu takes: the title, the question, the options' descriptions, an answered step, a
/// button.
const TITLE_CHARS: usize = 100;
const QUESTION_CHARS: usize = 1500;
const DESCRIPTIONS_CHARS: usize = 1500;
const LINE_CHARS: usize = 200;
const BUTTON_CHARS: usize = 60;
/// The most a text message carries (Feishu takes 150 KB).
const TEXT_CHARS: usize = 4000;
/// The form's fields, as `form_value` names them.
pub const TICKED: &str = "ticked";
pub const WORDS: &str = "words";
pub const NOTE: &str = "note";
/// What a form's submit button says it submits (`form` in its value).
pub const SEND_FORM: &str = "send";
pub const NOTE_FORM: &str = "note";

/// A message to send: its `msg_type` and its content.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub kind: &'static str,
    pub content: Value,
}

fn plain(text: &str) -> Value {
    json!({"tag": "plain_text", "content": text})
}

fn div(text: &str, limit: usize) -> Value {
    json!({"tag": "div", "text": plain(&fit_chars(text, limit))})
}

/// A card as a message.
fn card(title: &str, template: &str, elements: Vec<Value>) -> Said {
    let content = json!({
        "schema": "2.0",
        "config": {"update_multi": true},
        "header": {"title": plain(&fit_chars(title, TITLE_CHARS)), "template": template},
        "body": {"elements": elements},
    });
    Said {
        kind: "interactive",
        content,
    }
}

/// Who asked, under the title.
fn source(question: &Question) -> Vec<Value> {
    question
        .source_label()
        .map(|source| div(&source, LINE_CHARS))
        .into_iter()
        .collect()
}

/// A button that names its tap; `form` makes it the submit button of a form.
fn button(name: &str, text: &str, kind: &str, callback: Callback, form: Option<&str>) -> Value {
    let mut value = json!({"h": callback.encode()});
    let mut button = json!({
        "tag": "button",
        "name": name,
        "text": plain(&fit_chars(text, BUTTON_CHARS)),
        "type": kind,
    });
    if let Some(form) = form {
        value["form"] = json!(form);
        button["form_action_type"] = json!("submit");
    }
    button["behaviors"] = json!([{"type": "callback", "value": value}]);
    button
}

fn input(name: &str, placeholder: &str) -> Value {
    json!({
        "tag": "input",
        "name": name,
        "required": false,
        "max_length": 1000,
        "placeholder": plain(&fit_chars(placeholder, BUTTON_CHARS)),
    })
}

/// The controls of the walk's step: the options, the form, Skip; or, after Skip, the note's
/// form and Back. Every name is unique in the card, as forms require.
fn controls(lang: Lang, question: &Question, walk: &Walk) -> Vec<Value> {
    let Some(sub) = question.questions.get(walk.step) else {
        return Vec::new();
    };
    let at = |tap| Callback {
        id: question.id,
        step: walk.step,
        tap,
    };
    let word = |key: &str| t_in(lang, key, &[]);
    if walk.awaiting == Some(Awaiting::SkipNote) {
        let back = format!("↩ {}", word("chat-back"));
        return vec![
            json!({"tag": "form", "name": format!("n{}", walk.step), "elements": [
                input(NOTE, &word("chat-skip-label")),
                button("skip_note", &word("chat-skip"), "danger", at(Tap::Skip), Some(NOTE_FORM)),
            ]}),
            button("back", &back, "default", at(Tap::Back), None),
        ];
    }
    let mut elements = Vec::new();
    if !sub.multi_select {
        for (index, option) in sub.options.iter().enumerate() {
            let kind = match Emphasis::of(option) {
                Emphasis::Danger => "danger",
                Emphasis::Recommended => "primary",
                Emphasis::Plain => "default",
            };
            let (name, label) = (format!("pick_{index}"), shown::marked(option, BUTTON_CHARS));
            elements.push(button(&name, &label, kind, at(Tap::Pick(index)), None));
        }
    }
    let mut form = Vec::new();
    if sub.multi_select {
        let options: Vec<Value> = sub
            .options
            .iter()
            .enumerate()
            .map(|(index, option)| json!({"text": plain(&shown::marked(option, BUTTON_CHARS)), "value": index.to_string()}))
            .collect();
        form.push(json!({
            "tag": "multi_select_static",
            "name": TICKED,
            "required": false,
            "placeholder": plain(&fit_chars(&word("chat-pick"), BUTTON_CHARS)),
            "options": options,
        }));
    }
    if sub.allow_free_text {
        let key = if sub.options.is_empty() {
            "chat-answer-label"
        } else {
            "chat-other"
        };
        form.push(input(WORDS, &word(key)));
    }
    if !form.is_empty() {
        let send = format!("➡️ {}", word("chat-send"));
        let send = button("send", &send, "primary", at(Tap::Send), Some(SEND_FORM));
        form.push(send);
        elements.push(json!({"tag": "form", "name": format!("f{}", walk.step), "elements": form}));
    }
    let skip = word("chat-skip");
    elements.push(button("skip", &skip, "default", at(Tap::Skip), None));
    elements
}

impl ChatViews for Feishu {
    type View = Said;

    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> Said {
        let mut elements = source(question);
        for (name, answer) in shown::answered(lang, question, walk) {
            elements.push(div(&format!("✓ {name}: {answer}"), LINE_CHARS));
        }
        if let Some(sub) = question.questions.get(walk.step) {
            let label = hark_text::question::step_label(lang, question, walk.step);
            if !label.is_empty() {
                elements.push(div(&label, LINE_CHARS));
            }
            elements.push(div(sub.question.trim(), QUESTION_CHARS));
            if let Some(descriptions) = shown::descriptions(sub) {
                elements.push(div(&descriptions, DESCRIPTIONS_CHARS));
            }
            elements.extend(controls(lang, question, walk));
        }
        card(&headline(question), "blue", elements)
    }

    fn closed(&self, lang: Lang, question: &Question) -> Said {
        let mut elements = source(question);
        elements.push(div(&asked(question), QUESTION_CHARS * 2));
        let (mark, outcome) = ending(lang, question, str::to_string);
        let template = if question.status == Status::Answered {
            "green"
        } else {
            "grey"
        };
        elements.push(div(&format!("{mark} {outcome}"), QUESTION_CHARS));
        let title = format!("{mark} {}", headline(question));
        card(&title, template, elements)
    }

    fn said(&self, text: &str) -> Said {
        Said {
            kind: "text",
            content: json!({"text": fit_chars(text, TEXT_CHARS)}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionId, QuestionOption, SubQuestion};

    fn question(subs: Vec<SubQuestion>) -> Question {
        let mut question: Question = serde_json::from_value(json!({
            "id": QuestionId::new_random(), "questions": [], "status": "pending",
            "createdAt": "2026-12-02T10:00:00Z", "timeoutAction": "timeout"
        }))
        .unwrap();
        question.questions = subs;
        question.title = Some("Release".into());
        question
    }

    fn choice(labels: usize, multi: bool) -> SubQuestion {
        SubQuestion {
            options: (0..labels)
                .map(|n| QuestionOption {
                    recommended: n == 0,
                    danger: n == 1,
                    ..QuestionOption::new(format!("Option {n} **not bold**"))
                })
                .collect(),
            multi_select: multi,
            allow_free_text: true,
            ..SubQuestion::text("Deploy **now**?")
        }
    }

    fn elements(card: &Value) -> Vec<Value> {
        card["body"]["elements"].as_array().unwrap().clone()
    }

    fn value_of(button: &Value) -> &Value {
        &button["behaviors"][0]["value"]
    }

    #[test]
    fn a_single_choice_is_one_button_per_option_marked_as_the_agent_said() {
        let q = question(vec![choice(3, false)]);
        let card = Feishu::default()
            .pending(Lang::En, &q, &Walk::default())
            .content;
        assert_eq!(card["schema"], "2.0");
        assert_eq!(card["config"]["update_multi"], true);
        let buttons: Vec<Value> = elements(&card)
            .into_iter()
            .filter(|e| e["tag"] == "button" && e["name"].as_str().unwrap().starts_with("pick_"))
            .collect();
        assert_eq!(buttons.len(), 3);
        assert_eq!(buttons[0]["type"], "primary");
        assert!(
            buttons[0]["text"]["content"]
                .as_str()
                .unwrap()
                .ends_with('⭐')
        );
        assert_eq!(buttons[1]["type"], "danger");
        assert!(
            buttons[1]["text"]["content"]
                .as_str()
                .unwrap()
                .starts_with("⚠️")
        );
        let tap = Callback::decode(value_of(&buttons[2])["h"].as_str().unwrap()).unwrap();
        assert_eq!(tap.tap, Tap::Pick(2));
        // The agent's words are plain text, never Markdown.
        assert!(
            elements(&card)
                .iter()
                .filter(|e| e["tag"] == "div")
                .all(|e| e["text"]["tag"] == "plain_text")
        );
        assert!(!card.to_string().contains("\"markdown\""));
        // Its own words go in a form with a submit button; Skip stands apart.
        let form = elements(&card)
            .into_iter()
            .find(|e| e["tag"] == "form")
            .unwrap();
        let fields = form["elements"].as_array().unwrap();
        assert_eq!(fields[0]["tag"], "input");
        assert_eq!(fields[0]["name"], WORDS);
        assert_eq!(fields[1]["form_action_type"], "submit");
        assert_eq!(value_of(&fields[1])["form"], SEND_FORM);
        let last = elements(&card).last().cloned().unwrap();
        assert_eq!(last["name"], "skip");
        assert_eq!(
            Callback::decode(value_of(&last)["h"].as_str().unwrap())
                .unwrap()
                .tap,
            Tap::Skip
        );
    }

    #[test]
    fn a_multi_select_is_a_menu_in_a_form_with_send() {
        let q = question(vec![choice(4, true)]);
        let card = Feishu::default()
            .pending(Lang::En, &q, &Walk::default())
            .content;
        assert!(
            !elements(&card)
                .iter()
                .any(|e| e["tag"] == "button" && e["name"] == "pick_0")
        );
        let form = elements(&card)
            .into_iter()
            .find(|e| e["tag"] == "form")
            .unwrap();
        let fields = form["elements"].as_array().unwrap();
        assert_eq!(fields[0]["tag"], "multi_select_static");
        assert_eq!(fields[0]["name"], TICKED);
        assert_eq!(fields[0]["options"].as_array().unwrap().len(), 4);
        assert_eq!(fields[0]["options"][3]["value"], "3");
        assert_eq!(fields[1]["name"], WORDS);
        assert_eq!(fields[2]["form_action_type"], "submit");
        // Names are unique in the card, as Feishu requires of forms.
        let names: Vec<&str> = fields.iter().filter_map(|f| f["name"].as_str()).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique);
    }

    #[test]
    fn skip_shows_the_note_form_and_back() {
        let q = question(vec![choice(2, false)]);
        let walk = Walk {
            awaiting: Some(Awaiting::SkipNote),
            ..Walk::default()
        };
        let card = Feishu::default().pending(Lang::Ja, &q, &walk).content;
        let all = elements(&card);
        let form = all.iter().find(|e| e["tag"] == "form").unwrap();
        assert_eq!(form["elements"][0]["name"], NOTE);
        assert_eq!(value_of(&form["elements"][1])["form"], NOTE_FORM);
        assert!(!all.iter().any(|e| e["name"] == "pick_0"));
        assert_eq!(all.last().unwrap()["name"], "back");
    }

    #[test]
    fn a_closed_question_has_no_controls() {
        let mut q = question(vec![choice(2, false)]);
        q.status = Status::Declined;
        q.note = Some("not today".into());
        let card = Feishu::default().closed(Lang::En, &q).content;
        let text = card.to_string();
        assert!(!text.contains("\"button\"") && !text.contains("\"form\""));
        assert!(text.contains("not today"));
        assert_eq!(card["header"]["template"], "grey");
    }

    #[test]
    fn the_largest_question_fits_a_card_in_every_language() {
        use hark_core::model::limits;
        let wide = |chars: usize| "界".repeat(chars);
        let sub = SubQuestion {
            options: (0..limits::MAX_OPTIONS)
                .map(|n| QuestionOption {
                    description: Some(wide(limits::MAX_DESCRIPTION_CHARS)),
                    ..QuestionOption::new(format!("{n}{}", wide(limits::MAX_LABEL_CHARS - 3)))
                })
                .collect(),
            header: Some(wide(limits::MAX_HEADER_CHARS)),
            allow_free_text: true,
            ..SubQuestion::text(wide(limits::MAX_QUESTION_CHARS))
        };
        let mut q = question(vec![
            sub.clone(),
            sub.clone(),
            sub.clone(),
            SubQuestion {
                multi_select: true,
                ..sub
            },
        ]);
        q.title = Some(wide(limits::MAX_TITLE_CHARS));
        for lang in Lang::ALL {
            for step in 0..4 {
                let walk = Walk {
                    step,
                    answers: (0..step)
                        .map(|_| hark_core::model::SubQuestionAnswer {
                            selected: vec![wide(limits::MAX_LABEL_CHARS)],
                            free_text: Some(wide(1000)),
                            images: Vec::new(),
                        })
                        .collect(),
                    ..Walk::default()
                };
                let size = Feishu::default()
                    .pending(lang, &q, &walk)
                    .content
                    .to_string()
                    .len();
                assert!(size <= 30_000, "{lang:?} step {step}: {size} bytes");
            }
            q.status = Status::Answered;
            assert!(Feishu::default().closed(lang, &q).content.to_string().len() <= 30_000);
            q.status = Status::Pending;
        }
    }
}
