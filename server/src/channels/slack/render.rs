//! A question as a Slack message in Block Kit: what the agent wrote in `plain_text` blocks (so
//! it shows as written, never as markup), the buttons of the sub-question being answered (a
//! tap answers a single choice; checkboxes, or a multi-select menu past ten options, and Send
//! for a multi-select; Other… and Skip open a modal), recommended options marked ⭐ and in
//! Slack's primary style, risky ones ⚠️ in its danger style; and the outcome, without buttons,
//! once it closes. In the daemon's language; within Block Kit's limits.

use super::Slack;
use crate::channels::chat::ChatViews;
use crate::channels::walk::shown::{self, Emphasis, WindowFor};
use crate::channels::walk::{Awaiting, Callback, Tap, Walk};
use hark_core::model::Question;
use hark_text::plain::fit_chars;
use hark_text::question::{asked, ending};
use hark_text::{Lang, t_in};
use serde_json::{Value, json};

/// Block Kit's limits, in characters: a section's text, a header, a button's text, an option's
/// text, a context element.
const SECTION_CHARS: usize = 3000;
const HEADER_CHARS: usize = 150;
const BUTTON_CHARS: usize = 75;
const OPTION_CHARS: usize = 75;
/// The most buttons in one actions block, and options in checkboxes.
const BUTTONS_PER_ROW: usize = 25;
const MOST_CHECKBOXES: usize = 10;
/// What notifications show of a message, in characters.
const NOTIFICATION_CHARS: usize = 300;

/// A message as it should look: what notifications show, and its blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub text: String,
    pub blocks: Value,
}

/// `text` for a field Slack reads as mrkdwn (a message's `text`, which notifications show):
/// `&`, `<` and `>` escaped, as Slack's "Escaping text" asks, so an agent's words cannot ping
/// a channel (`<!channel>`, `<!here>`, `<@U…>`) or disguise a link (`<https://…|label>`).
pub fn escape(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

fn plain(text: &str) -> Value {
    json!({"type": "plain_text", "text": text, "emoji": true})
}

fn section(text: &str) -> Value {
    json!({"type": "section", "text": plain(&fit_chars(text, SECTION_CHARS))})
}

fn context(text: &str) -> Value {
    json!({"type": "context", "elements": [plain(&fit_chars(text, SECTION_CHARS))]})
}

/// The title (as a header) and who asked.
fn heading(question: &Question) -> Vec<Value> {
    let mut blocks = Vec::new();
    if let Some(title) = question.title.as_deref().filter(|t| !t.trim().is_empty()) {
        blocks
            .push(json!({"type": "header", "text": plain(&fit_chars(title.trim(), HEADER_CHARS))}));
    }
    if let Some(source) = question.source_label() {
        blocks.push(context(&source));
    }
    blocks
}

/// What notifications show: the question's name, else its first question.
fn notification(question: &Question) -> String {
    fit_chars(&hark_text::question::headline(question), NOTIFICATION_CHARS)
}

fn button(text: &str, action: &str, callback: Callback, style: Option<&str>) -> Value {
    let mut button = json!({
        "type": "button",
        "action_id": action,
        "text": plain(&fit_chars(text, BUTTON_CHARS)),
        "value": callback.encode(),
    });
    if let Some(style) = style {
        button["style"] = json!(style);
    }
    button
}

/// The actions blocks of the walk's step. Their block ids name the step and the ticks, so an
/// update never keeps a control's old state (Block Kit asks for new ids when blocks change).
fn controls(lang: Lang, question: &Question, walk: &Walk) -> Vec<Value> {
    let Some(sub) = question.questions.get(walk.step) else {
        return Vec::new();
    };
    let at = |tap| Callback {
        id: question.id,
        step: walk.step,
        tap,
    };
    let ticks: String = walk.ticked.iter().map(|tick| format!(".{tick}")).collect();
    let block_id = |part: &str| format!("h{}-{part}{ticks}", walk.step);
    let mut blocks = Vec::new();
    if sub.multi_select {
        let options: Vec<Value> = sub
            .options
            .iter()
            .enumerate()
            .map(|(index, option)| {
                json!({"text": plain(&shown::marked(option, OPTION_CHARS)), "value": index.to_string()})
            })
            .collect();
        let initial: Vec<Value> = walk
            .ticked
            .iter()
            .filter_map(|index| options.get(*index).cloned())
            .collect();
        let mut element = if options.len() <= MOST_CHECKBOXES {
            json!({"type": "checkboxes", "action_id": "tick", "options": options})
        } else {
            json!({"type": "multi_static_select", "action_id": "tick", "options": options,
                   "placeholder": plain(&fit_chars(&t_in(lang, "chat-pick", &[]), OPTION_CHARS))})
        };
        if !initial.is_empty() {
            element["initial_options"] = Value::Array(initial);
        }
        blocks.push(json!({"type": "actions", "block_id": block_id("t"), "elements": [element]}));
    } else {
        let buttons: Vec<Value> = sub
            .options
            .iter()
            .enumerate()
            .map(|(index, option)| {
                let style = match Emphasis::of(option) {
                    Emphasis::Danger => Some("danger"),
                    Emphasis::Recommended => Some("primary"),
                    Emphasis::Plain => None,
                };
                let label = shown::marked(option, BUTTON_CHARS);
                button(
                    &label,
                    &format!("pick-{index}"),
                    at(Tap::Pick(index)),
                    style,
                )
            })
            .collect();
        for (row, chunk) in buttons.chunks(BUTTONS_PER_ROW).enumerate() {
            blocks.push(json!({"type": "actions", "block_id": block_id(&format!("o{row}")), "elements": chunk}));
        }
    }
    let last: Vec<Value> = shown::keys(lang, sub)
        .into_iter()
        .map(|key| {
            let action = match key.tap {
                Tap::Send => "send",
                Tap::OwnWords => "own",
                _ => "skip",
            };
            let style = key.primary.then_some("primary");
            button(&key.label, action, at(key.tap), style)
        })
        .collect();
    blocks.push(json!({"type": "actions", "block_id": block_id("x"), "elements": last}));
    blocks
}

/// The modal's `callback_id`, telling Hark's modals from any other.
pub const MODAL: &str = "hark-reply";
/// Its input's block and action.
pub const MODAL_BLOCK: &str = "reply";
pub const MODAL_ACTION: &str = "text";
/// Slack's limit for a plain-text input.
const INPUT_CHARS: usize = 3000;
/// Slack's limit for a modal's title and buttons.
const MODAL_TITLE_CHARS: usize = 24;

/// The modal of "Other…" (own words, required) or "Skip" (a note, optional).
pub fn modal(lang: Lang, question: &Question, walk: &Walk, awaiting: Awaiting) -> Value {
    let (title, label, needed) = shown::window_words(lang, awaiting);
    let submit = match awaiting {
        Awaiting::OwnWords => "chat-send",
        Awaiting::SkipNote => "chat-skip",
    };
    let short = |words: &str| plain(&fit_chars(words, MODAL_TITLE_CHARS));
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
    json!({
        "type": "modal",
        "callback_id": MODAL,
        "private_metadata": window.encode(),
        "title": short(&title),
        "submit": short(&t_in(lang, submit, &[])),
        "close": short(&t_in(lang, "chat-cancel", &[])),
        "blocks": [
            section(&asked),
            {"type": "input", "block_id": MODAL_BLOCK, "optional": !needed,
             "label": plain(&fit_chars(&label, 2000)),
             "element": {"type": "plain_text_input", "action_id": MODAL_ACTION, "multiline": true,
                         "max_length": INPUT_CHARS}}
        ]
    })
}

impl ChatViews for Slack {
    type View = Shown;

    fn pending(&self, lang: Lang, question: &Question, walk: &Walk) -> Shown {
        let mut blocks = heading(question);
        for (name, answer) in shown::answered(lang, question, walk) {
            blocks.push(section(&format!("✓ {name}: {answer}")));
        }
        if let Some(sub) = question.questions.get(walk.step) {
            let label = hark_text::question::step_label(lang, question, walk.step);
            if !label.is_empty() {
                blocks.push(context(&label));
            }
            blocks.push(section(sub.question.trim()));
            if let Some(descriptions) = shown::descriptions(sub) {
                blocks.push(section(&descriptions));
            }
            blocks.extend(controls(lang, question, walk));
        }
        Shown {
            text: notification(question),
            blocks: Value::Array(blocks),
        }
    }

    fn closed(&self, lang: Lang, question: &Question) -> Shown {
        let mut blocks = heading(question);
        blocks.push(section(&asked(question)));
        let (mark, outcome) = ending(lang, question, str::to_string);
        blocks.push(section(&format!("{mark} {outcome}")));
        Shown {
            text: fit_chars(
                &format!("{mark} {}", notification(question)),
                NOTIFICATION_CHARS,
            ),
            blocks: Value::Array(blocks),
        }
    }

    fn said(&self, text: &str) -> Shown {
        Shown {
            text: fit_chars(text, NOTIFICATION_CHARS),
            blocks: json!([section(text)]),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn mentions_and_links_in_an_agents_words_stay_text() {
        assert_eq!(
            super::escape("<!channel> & <@U1> <https://evil.example|docs>"),
            "&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;https://evil.example|docs&gt;"
        );
    }

    use super::*;
    use hark_core::model::{QuestionId, QuestionOption, Status, SubQuestion};

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
                    ..QuestionOption::new(format!("Option {n} *not bold* <b>"))
                })
                .collect(),
            multi_select: multi,
            allow_free_text: true,
            ..SubQuestion::text("Deploy *now*?")
        }
    }

    fn actions(shown: &Shown) -> Vec<Value> {
        shown
            .blocks
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["type"] == "actions")
            .cloned()
            .collect()
    }

    #[test]
    fn a_single_choice_is_one_button_per_option_marked_as_the_agent_said() {
        let q = question(vec![choice(3, false)]);
        let shown = Slack::default().pending(Lang::En, &q, &Walk::default());
        let rows = actions(&shown);
        let options = rows[0]["elements"].as_array().unwrap();
        assert_eq!(options.len(), 3);
        assert_eq!(options[0]["style"], "primary");
        assert!(options[0]["text"]["text"].as_str().unwrap().ends_with('⭐'));
        assert_eq!(options[1]["style"], "danger");
        assert!(
            options[1]["text"]["text"]
                .as_str()
                .unwrap()
                .starts_with("⚠️")
        );
        let tap = Callback::decode(options[2]["value"].as_str().unwrap()).unwrap();
        assert_eq!(tap.tap, Tap::Pick(2));
        // The agent's words are plain text, never markup.
        let texts: Vec<&Value> = shown
            .blocks
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["type"] == "section")
            .collect();
        assert!(texts.iter().all(|b| b["text"]["type"] == "plain_text"));
        let last: Vec<&str> = rows[1]["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["text"]["text"].as_str().unwrap())
            .collect();
        assert_eq!(last, ["Other…", "Skip"]);
    }

    #[test]
    fn a_multi_select_is_checkboxes_or_a_menu_and_send() {
        let q = question(vec![choice(4, true)]);
        let mut walk = Walk::default();
        walk.ticked.insert(2);
        let shown = Slack::default().pending(Lang::En, &q, &walk);
        let rows = actions(&shown);
        assert_eq!(rows[0]["elements"][0]["type"], "checkboxes");
        assert_eq!(rows[0]["elements"][0]["initial_options"][0]["value"], "2");
        assert!(rows[0]["block_id"].as_str().unwrap().ends_with(".2"));
        assert_eq!(rows[1]["elements"][0]["action_id"], "send");
        let many = question(vec![choice(20, true)]);
        let rows = actions(&Slack::default().pending(Lang::En, &many, &Walk::default()));
        assert_eq!(rows[0]["elements"][0]["type"], "multi_static_select");
        assert_eq!(
            rows[0]["elements"][0]["options"].as_array().unwrap().len(),
            20
        );
    }

    #[test]
    fn everything_stays_within_block_kits_limits() {
        let mut sub = choice(26, false);
        sub.question = "Q".repeat(20_000);
        for option in &mut sub.options {
            option.label = "L".repeat(200);
            option.description = Some("D".repeat(10_000));
        }
        let mut q = question(vec![sub]);
        q.title = Some("T".repeat(20_000));
        for lang in Lang::ALL {
            let shown = Slack::default().pending(lang, &q, &Walk::default());
            for block in shown.blocks.as_array().unwrap() {
                if let Some(text) = block["text"]["text"].as_str() {
                    assert!(text.chars().count() <= SECTION_CHARS);
                }
                for element in block["elements"].as_array().into_iter().flatten() {
                    if let Some(text) = element["text"]["text"].as_str() {
                        assert!(text.chars().count() <= BUTTON_CHARS);
                    }
                    assert!(element["value"].as_str().unwrap_or_default().len() <= 2000);
                }
                if let Some(elements) = block["elements"].as_array() {
                    assert!(elements.len() <= BUTTONS_PER_ROW);
                }
            }
            assert!(shown.blocks.as_array().unwrap().len() <= 50);
        }
    }

    #[test]
    fn a_closed_question_shows_its_outcome_without_controls() {
        let mut q = question(vec![choice(2, false)]);
        q.status = Status::Declined;
        q.note = Some("not today".into());
        let shown = Slack::default().closed(Lang::En, &q);
        assert!(actions(&shown).is_empty());
        assert!(shown.blocks.to_string().contains("Skipped: not today"));
    }

    #[test]
    fn a_modal_names_its_question_and_step() {
        let q = question(vec![choice(2, false)]);
        let view = modal(Lang::En, &q, &Walk::default(), Awaiting::OwnWords);
        let metadata = view["private_metadata"].as_str().unwrap();
        let window = WindowFor {
            id: q.id,
            step: 0,
            awaiting: Awaiting::OwnWords,
        };
        assert_eq!(WindowFor::decode(metadata), Some(window));
        assert_eq!(view["blocks"][1]["optional"], false);
        let skip = modal(Lang::Ja, &q, &Walk::default(), Awaiting::SkipNote);
        assert_eq!(skip["blocks"][1]["optional"], true);
        for part in ["title", "submit", "close"] {
            assert!(skip[part]["text"].as_str().unwrap().chars().count() <= MODAL_TITLE_CHARS);
        }
    }
}
