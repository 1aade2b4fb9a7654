//! A question as a Discord message: its text in Discord's Markdown with everything the agent wrote
//! escaped (and no mentions allowed), and the components of the sub-question being answered: a
//! button per option for a single choice (a select menu past twenty), a select menu with `Send`
//! for a multi-select (`max_values`), `Other…` and `Skip`, which open a modal; recommended options
//! ⭐ in the primary style, risky ones ⚠️ in the danger style. Once it closes, its outcome and no
//! components. In the daemon's language, within Discord's limits.

use super::Discord;
use crate::channels::chat::ChatViews;
use crate::channels::walk::marked::Style;
use crate::channels::walk::shown::{self, Emphasis, WindowFor};
use crate::channels::walk::{Awaiting, Callback, Tap, Walk};
use hark_core::model::{Question, QuestionId};
use hark_text::plain::fit_chars;
use hark_text::{Lang, t_in};
use serde_json::{Value, json};

/// Discord's limits, in characters: a message, a button's label, a select option's label and
/// description, a modal's title and a text input's label.
const CONTENT_CHARS: usize = 2000;
const LABEL_CHARS: usize = 80;
const OPTION_CHARS: usize = 100;
const MODAL_TITLE_CHARS: usize = 45;
/// Buttons in a row, options in a select menu, and single-choice options shown as buttons.
const BUTTONS_PER_ROW: usize = 5;
const OPTIONS_PER_SELECT: usize = 25;
const MOST_BUTTONS: usize = 20;
/// Discord's Markdown, its parts measured in characters (what the agent asked, at most, keeps
/// the whole under 2000).
const MARKDOWN: Style = Style {
    escape,
    bold: ["**", "**"],
    italic: ["*", "*"],
    fit: fit_chars,
    question: 900,
    label: 60,
    description: 60,
    outcome: 300,
    before_outcome: Some(CONTENT_CHARS - 700),
};

/// A message as it should look.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown(pub Value);

/// `text` shown as written: Discord's Markdown characters escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\*_~`|>#-[]()<@".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

fn message(content: String, components: Vec<Value>) -> Shown {
    Shown(json!({
        "content": fit_chars(&content, CONTENT_CHARS),
        "components": components,
        "allowed_mentions": {"parse": []},
    }))
}

fn button(label: &str, custom_id: String, style: u8) -> Value {
    json!({"type": 2, "style": style, "label": fit_chars(label, LABEL_CHARS), "custom_id": custom_id})
}

/// A select menu's id: the question, the step, and the first option it holds.
pub fn select_id(id: QuestionId, step: usize, offset: usize) -> String {
    format!("hs:{}:{step}:{offset}", id.0.simple())
}

/// The question, step and first option of a select menu's id.
pub fn read_select_id(custom_id: &str) -> Option<(QuestionId, usize, usize)> {
    let ["hs", id, step, offset] = custom_id.split(':').collect::<Vec<_>>()[..] else {
        return None;
    };
    let id = QuestionId(uuid::Uuid::try_parse(id).ok()?);
    Some((id, step.parse().ok()?, offset.parse().ok()?))
}

fn components(lang: Lang, question: &Question, walk: &Walk) -> Vec<Value> {
    let Some(sub) = question.questions.get(walk.step) else {
        return Vec::new();
    };
    let at = |tap| {
        Callback {
            id: question.id,
            step: walk.step,
            tap,
        }
        .encode()
    };
    let mut rows = Vec::new();
    let menus = sub.multi_select || sub.options.len() > MOST_BUTTONS;
    if menus {
        for (chunk, options) in sub.options.chunks(OPTIONS_PER_SELECT).enumerate() {
            let offset = chunk * OPTIONS_PER_SELECT;
            let choices: Vec<Value> = options
                .iter()
                .enumerate()
                .map(|(index, option)| {
                    let mut choice = json!({
                        "label": shown::marked(option, OPTION_CHARS),
                        "value": (offset + index).to_string(),
                    });
                    if let Some(description) = &option.description {
                        choice["description"] = json!(fit_chars(description, OPTION_CHARS));
                    }
                    if walk.ticked.contains(&(offset + index)) {
                        choice["default"] = json!(true);
                    }
                    choice
                })
                .collect();
            let (min, max) = if sub.multi_select {
                (0, choices.len())
            } else {
                (1, 1)
            };
            rows.push(json!({"type": 1, "components": [{
                "type": 3, "custom_id": select_id(question.id, walk.step, offset),
                "placeholder": fit_chars(&t_in(lang, "chat-pick", &[]), 150),
                "min_values": min, "max_values": max, "options": choices,
            }]}));
        }
    } else {
        let buttons: Vec<Value> = sub
            .options
            .iter()
            .enumerate()
            .map(|(index, option)| {
                let style = match Emphasis::of(option) {
                    Emphasis::Danger => 4,
                    Emphasis::Recommended => 1,
                    Emphasis::Plain => 2,
                };
                let label = shown::marked(option, LABEL_CHARS);
                button(&label, at(Tap::Pick(index)), style)
            })
            .collect();
        for row in buttons.chunks(BUTTONS_PER_ROW) {
            rows.push(json!({"type": 1, "components": row}));
        }
    }
    let last: Vec<Value> = shown::keys(lang, sub)
        .into_iter()
        .map(|key| button(&key.label, at(key.tap), if key.primary { 1 } else { 2 }))
        .collect();
    rows.push(json!({"type": 1, "components": last}));
    rows
}

/// The text input's id in Hark's modals.
pub const MODAL_INPUT: &str = "text";

/// The interaction response that opens the modal of "Other…" or "Skip".
pub fn modal(lang: Lang, question: &Question, walk: &Walk, awaiting: Awaiting) -> Value {
    let (title, label, required) = shown::window_words(lang, awaiting);
    let window = WindowFor {
        id: question.id,
        step: walk.step,
        awaiting,
    };
    let asked = question
        .questions
        .get(walk.step)
        .map(|sub| sub.question.trim().to_string())
        .unwrap_or_default();
    json!({"type": 9, "data": {
        "custom_id": window.encode(),
        "title": fit_chars(&title, MODAL_TITLE_CHARS),
        "components": [{"type": 1, "components": [{
            "type": 4, "custom_id": MODAL_INPUT, "style": 2,
            "label": fit_chars(&label, MODAL_TITLE_CHARS),
            "placeholder": fit_chars(&asked, 100),
            "required": required, "max_length": 4000,
        }]}],
    }})
}

impl ChatViews for Discord {
    type View = Shown;

    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> Shown {
        let text = MARKDOWN.pending(lang, question, walk, true);
        message(text, components(lang, question, walk))
    }

    fn closed(&self, lang: Lang, question: &Question) -> Shown {
        message(MARKDOWN.closed(lang, question), Vec::new())
    }

    fn said(&self, text: &str) -> Shown {
        message(escape(text), Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::{QuestionOption, SubQuestion};

    fn question(subs: Vec<SubQuestion>) -> Question {
        let mut question: Question = serde_json::from_value(json!({
            "id": QuestionId::new_random(), "questions": [], "status": "pending",
            "createdAt": "2026-12-02T10:00:00Z", "timeoutAction": "timeout"
        }))
        .unwrap();
        question.questions = subs;
        question
    }

    fn choice(labels: usize, multi: bool) -> SubQuestion {
        SubQuestion {
            options: (0..labels)
                .map(|n| QuestionOption {
                    recommended: n == 0,
                    danger: n == 1,
                    ..QuestionOption::new(format!("Option {n} **@everyone**"))
                })
                .collect(),
            multi_select: multi,
            allow_free_text: true,
            ..SubQuestion::text("Deploy *now*?")
        }
    }

    #[test]
    fn buttons_for_a_few_options_menus_for_many_and_for_multi_select() {
        let q = question(vec![choice(3, false)]);
        let Shown(shown) = Discord::default().pending(Lang::En, &q, &Walk::default());
        let rows = shown["components"].as_array().unwrap();
        assert_eq!(rows[0]["components"].as_array().unwrap().len(), 3);
        assert_eq!(rows[0]["components"][0]["style"], 1);
        assert_eq!(rows[0]["components"][1]["style"], 4);
        assert!(
            shown["content"]
                .as_str()
                .unwrap()
                .contains("Deploy \\*now\\*?")
        );
        assert_eq!(shown["allowed_mentions"]["parse"], json!([]));
        let many = question(vec![choice(26, false)]);
        let Shown(shown) = Discord::default().pending(Lang::En, &many, &Walk::default());
        let rows = shown["components"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "two menus and the last row");
        assert_eq!(
            rows[1]["components"][0]["options"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        let multi = question(vec![choice(4, true)]);
        let mut walk = Walk::default();
        walk.ticked.insert(2);
        let Shown(shown) = Discord::default().pending(Lang::Ru, &multi, &walk);
        let menu = &shown["components"][0]["components"][0];
        assert_eq!(menu["max_values"], 4);
        assert_eq!(menu["options"][2]["default"], true);
        assert_eq!(
            read_select_id(menu["custom_id"].as_str().unwrap()),
            Some((multi.id, 0, 0))
        );
    }

    #[test]
    fn everything_stays_within_discords_limits() {
        let mut sub = choice(26, false);
        sub.question = "Q".repeat(20_000);
        for option in &mut sub.options {
            option.label = "L".repeat(200);
            option.description = Some("D".repeat(10_000));
        }
        let mut q = question(vec![sub.clone(), sub]);
        q.title = Some("T".repeat(20_000));
        for lang in Lang::ALL {
            let Shown(shown) = Discord::default().pending(lang, &q, &Walk::default());
            assert!(shown["content"].as_str().unwrap().chars().count() <= CONTENT_CHARS);
            let rows = shown["components"].as_array().unwrap();
            assert!(rows.len() <= 5);
            for row in rows {
                let parts = row["components"].as_array().unwrap();
                assert!(parts.len() <= BUTTONS_PER_ROW);
                for part in parts {
                    if let Some(label) = part["label"].as_str() {
                        assert!(label.chars().count() <= LABEL_CHARS);
                    }
                    assert!(part["custom_id"].as_str().unwrap().len() <= 100);
                    for option in part["options"].as_array().into_iter().flatten() {
                        assert!(option["label"].as_str().unwrap().chars().count() <= OPTION_CHARS);
                        assert!(
                            option["description"].as_str().unwrap().chars().count() <= OPTION_CHARS
                        );
                    }
                }
            }
            let modal = modal(lang, &q, &Walk::default(), Awaiting::SkipNote);
            assert!(modal["data"]["title"].as_str().unwrap().chars().count() <= MODAL_TITLE_CHARS);
        }
    }

    #[test]
    fn a_select_menus_id_carries_its_question_step_and_first_option() {
        let id = QuestionId::new_random();
        assert_eq!(read_select_id(&select_id(id, 1, 25)), Some((id, 1, 25)));
        assert_eq!(read_select_id("hs:nope"), None);
    }
}
