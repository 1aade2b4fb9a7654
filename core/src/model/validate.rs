//! The limits and answer rules of SPEC §2, checked the same way wherever a request enters.

use super::{AnswerImage, AskRequest, ErrorBody, NewMessage, SubQuestion, SubQuestionAnswer};
use std::collections::HashSet;

/// Every limit of SPEC §2 in one place.
pub mod limits {
    pub const MAX_SUB_QUESTIONS: usize = 4;
    pub const MAX_OPTIONS: usize = 26;
    pub const MAX_LABEL_CHARS: usize = 200;
    pub const MAX_HEADER_CHARS: usize = 200;
    pub const MAX_DESCRIPTION_CHARS: usize = 10_000;
    /// An option's preview (Markdown), in characters.
    pub const MAX_PREVIEW_CHARS: usize = 10_000;
    pub const MAX_QUESTION_CHARS: usize = 10_000;
    pub const MAX_TITLE_CHARS: usize = 20_000;
    pub const MAX_FREE_TEXT_CHARS: usize = 50_000;
    pub const MAX_NOTE_CHARS: usize = 50_000;
    pub const MAX_SOURCE_CHARS: usize = 4_096;
    /// A message for an agent (SPEC §18): a few sentences of steering, not a document.
    pub const MAX_MESSAGE_CHARS: usize = 4_000;
    /// Messages kept in memory (waiting and delivered); the oldest delivered ones leave first
    /// (the log keeps them), and no more than this many may wait.
    pub const MAX_MESSAGES: usize = 1_000;
    /// Messages waiting for one agent at most: another is refused, never another agent's
    /// dropped.
    pub const MAX_WAITING_PER_AGENT: usize = 100;
    /// Thirty days: long enough for any real wait, short enough to stay far from overflow.
    pub const MAX_TIMEOUT_SECS: u64 = 30 * 24 * 60 * 60;
    pub const MAX_BODY_BYTES: usize = 256 * 1024;
    pub const MAX_PENDING: usize = 1_000;
    /// Quick replies (config `presets`) at most, and each one's length in characters.
    pub const MAX_PRESETS: usize = 50;
    pub const MAX_PRESET_CHARS: usize = 500;
    /// Closed questions in `init` and in each page of the inbox's history.
    pub const HISTORY_PAGE: usize = 50;
    /// Images one sub-question's answer may carry (SPEC §13).
    pub const MAX_IMAGES_PER_ANSWER: usize = 4;
    /// One image's size, decoded.
    pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
    /// One image's pixels at most, in millions (a phone's largest ordinary photo is 12–48 MP;
    /// the page redraws bigger ones smaller before sending).
    pub const MAX_IMAGE_MEGAPIXELS: u64 = 40;
    /// The image types accepted, as their media types.
    pub const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];
    /// The answer route's body: every image at its largest in base64, and room for the rest.
    pub const MAX_ANSWER_BODY_BYTES: usize =
        MAX_SUB_QUESTIONS * MAX_IMAGES_PER_ANSWER * MAX_IMAGE_BYTES.div_ceil(3) * 4 + 1024 * 1024;
}

use limits::*;

fn check_len(field: &str, value: &str, max: usize) -> Result<(), ErrorBody> {
    let chars = value.chars().count();
    if chars > max {
        return Err(ErrorBody::field(
            field,
            format!("{field} is {chars} characters long; the limit is {max}"),
        ));
    }
    Ok(())
}

fn check_not_blank(field: &str, value: &str) -> Result<(), ErrorBody> {
    if value.trim().is_empty() {
        return Err(ErrorBody::field(
            field,
            format!("{field} must not be empty"),
        ));
    }
    Ok(())
}

/// Checks an ask request against every limit.
///
/// # Errors
/// The first breach, naming its field (`questions[1].options[0].label`).
pub fn validate_ask(request: &AskRequest) -> Result<(), ErrorBody> {
    let count = request.questions.len();
    if count == 0 || count > MAX_SUB_QUESTIONS {
        return Err(ErrorBody::field(
            "questions",
            format!("questions must hold 1 to {MAX_SUB_QUESTIONS} questions, not {count}"),
        ));
    }
    if let Some(title) = &request.title {
        check_len("title", title, MAX_TITLE_CHARS)?;
    }
    if let Some(secs) = request.timeout_secs
        && secs > MAX_TIMEOUT_SECS
    {
        return Err(ErrorBody::field(
            "timeoutSecs",
            format!("timeoutSecs is {secs}; the limit is {MAX_TIMEOUT_SECS} (30 days)"),
        ));
    }
    if let Some(source) = &request.source {
        if let Some(client) = &source.client {
            check_len("source.client", client, MAX_SOURCE_CHARS)?;
        }
        if let Some(cwd) = &source.cwd {
            check_len("source.cwd", cwd, MAX_SOURCE_CHARS)?;
        }
    }
    for (index, sub) in request.questions.iter().enumerate() {
        validate_sub_question(&format!("questions[{index}]"), sub)?;
    }
    if let Some(permission) = &request.permission {
        permission.validate(request.questions[0].options.len())?;
    }
    Ok(())
}

fn validate_sub_question(path: &str, sub: &SubQuestion) -> Result<(), ErrorBody> {
    let question_field = format!("{path}.question");
    check_not_blank(&question_field, &sub.question)?;
    check_len(&question_field, &sub.question, MAX_QUESTION_CHARS)?;
    if let Some(header) = &sub.header {
        check_len(&format!("{path}.header"), header, MAX_HEADER_CHARS)?;
    }
    if sub.options.len() > MAX_OPTIONS {
        return Err(ErrorBody::field(
            format!("{path}.options"),
            format!(
                "{path}.options holds {} options; the limit is {MAX_OPTIONS}",
                sub.options.len()
            ),
        ));
    }
    if sub.options.is_empty() && !sub.allow_free_text {
        return Err(ErrorBody::field(
            format!("{path}.options"),
            format!("{path} has no options and no free text, so it cannot be answered"),
        ));
    }
    let mut labels = HashSet::new();
    for (index, option) in sub.options.iter().enumerate() {
        let label_field = format!("{path}.options[{index}].label");
        check_not_blank(&label_field, &option.label)?;
        check_len(&label_field, &option.label, MAX_LABEL_CHARS)?;
        if !labels.insert(option.label.as_str()) {
            return Err(ErrorBody::field(
                label_field.clone(),
                format!("{label_field} repeats the label \"{}\"", option.label),
            ));
        }
        if let Some(description) = &option.description {
            check_len(
                &format!("{path}.options[{index}].description"),
                description,
                MAX_DESCRIPTION_CHARS,
            )?;
        }
        if let Some(preview) = &option.preview {
            check_len(
                &format!("{path}.options[{index}].preview"),
                preview,
                MAX_PREVIEW_CHARS,
            )?;
        }
    }
    Ok(())
}

/// Checks answers against the questions they answer and returns them normalised (blank free
/// text dropped; everything else kept verbatim).
///
/// # Errors
/// The first broken rule, naming its field (`answers[0].selected`).
pub fn validate_answers(
    questions: &[SubQuestion],
    answers: &[SubQuestionAnswer],
) -> Result<Vec<SubQuestionAnswer>, ErrorBody> {
    if answers.len() != questions.len() {
        return Err(ErrorBody::field(
            "answers",
            format!(
                "answers must hold exactly one answer per question: {} expected, {} given",
                questions.len(),
                answers.len()
            ),
        ));
    }
    questions
        .iter()
        .zip(answers)
        .enumerate()
        .map(|(index, (question, answer))| validate_answer(index, question, answer))
        .collect()
}

fn validate_answer(
    index: usize,
    question: &SubQuestion,
    answer: &SubQuestionAnswer,
) -> Result<SubQuestionAnswer, ErrorBody> {
    let selected_field = format!("answers[{index}].selected");
    let mut seen = HashSet::new();
    for label in &answer.selected {
        if !question.options.iter().any(|option| &option.label == label) {
            return Err(ErrorBody::field(
                selected_field,
                format!(
                    "answers[{index}].selected names \"{label}\", which is not an option of question {}",
                    index + 1
                ),
            ));
        }
        if !seen.insert(label) {
            return Err(ErrorBody::field(
                selected_field,
                format!("answers[{index}].selected names \"{label}\" twice"),
            ));
        }
    }
    if answer.selected.len() > 1 && !question.multi_select {
        return Err(ErrorBody::field(
            selected_field,
            format!(
                "answers[{index}].selected holds several labels, but question {} takes one",
                index + 1
            ),
        ));
    }
    let free_text = answer
        .free_text
        .clone()
        .filter(|text| !text.trim().is_empty());
    if let Some(text) = &free_text {
        let field = format!("answers[{index}].freeText");
        if !question.allow_free_text {
            return Err(ErrorBody::field(
                field,
                format!(
                    "answers[{index}].freeText is not allowed for question {}",
                    index + 1
                ),
            ));
        }
        check_len(&field, text, MAX_FREE_TEXT_CHARS)?;
    }
    if !answer.images.is_empty() && !question.allow_free_text {
        let field = format!("answers[{index}].images");
        return Err(ErrorBody::field(
            &field,
            format!(
                "{field}: question {} takes no words of the person's own, so no images either",
                index + 1
            ),
        ));
    }
    validate_images(index, &answer.images)?;
    if answer.selected.is_empty() && free_text.is_none() && answer.images.is_empty() {
        return Err(ErrorBody::field(
            format!("answers[{index}]"),
            format!("answers[{index}] needs a selected option, some free text or an image"),
        ));
    }
    Ok(SubQuestionAnswer {
        selected: answer.selected.clone(),
        free_text,
        images: answer.images.clone(),
    })
}

/// The type of an image from its first bytes (its magic number), among `IMAGE_TYPES`; `None`
/// for anything else. The daemon checks every image with it, the page every file it reads.
pub fn image_type_of(bytes: &[u8]) -> Option<&'static str> {
    use infer::image::{is_gif, is_jpeg, is_png, is_webp};
    if is_png(bytes) {
        Some("image/png")
    } else if is_jpeg(bytes) {
        Some("image/jpeg")
    } else if is_webp(bytes) {
        Some("image/webp")
    } else if is_gif(bytes) {
        Some("image/gif")
    } else {
        None
    }
}

/// Checks an answer's images as declared: how many, and of which types. The bytes themselves
/// are checked by the store, which decodes them.
///
/// # Errors
/// Naming `answers[i].images` or the image's `mediaType`.
pub fn validate_images(index: usize, images: &[AnswerImage]) -> Result<(), ErrorBody> {
    if images.len() > MAX_IMAGES_PER_ANSWER {
        return Err(ErrorBody::field(
            format!("answers[{index}].images"),
            format!(
                "answers[{index}].images holds {} images; the limit is {MAX_IMAGES_PER_ANSWER}",
                images.len()
            ),
        ));
    }
    for (place, image) in images.iter().enumerate() {
        if !IMAGE_TYPES.contains(&image.media_type.as_str()) {
            let field = format!("answers[{index}].images[{place}].mediaType");
            let shown: String = image.media_type.chars().take(64).collect();
            return Err(ErrorBody::field(
                &field,
                format!("{field} \"{shown}\" is not accepted; send PNG, JPEG, WebP or GIF"),
            ));
        }
    }
    Ok(())
}

/// Checks a decline note.
///
/// # Errors
/// When the note is over its limit.
pub fn validate_note(note: Option<&str>) -> Result<(), ErrorBody> {
    match note {
        Some(note) => check_len("note", note, MAX_NOTE_CHARS),
        None => Ok(()),
    }
}

/// Checks a message for an agent: someone to send it to, and words within the limit.
///
/// # Errors
/// Naming `to.client`, `to.cwd` or `text`.
pub fn validate_message(message: &NewMessage) -> Result<(), ErrorBody> {
    check_not_blank("to.client", &message.to.client)?;
    check_len("to.client", &message.to.client, MAX_SOURCE_CHARS)?;
    if let Some(cwd) = &message.to.cwd {
        check_len("to.cwd", cwd, MAX_SOURCE_CHARS)?;
    }
    check_not_blank("text", &message.text)?;
    check_len("text", message.text.trim(), MAX_MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_come_only_where_the_persons_own_words_do() {
        let image = AnswerImage {
            media_type: "image/png".into(),
            data: None,
            size: 70,
        };
        let with_image = SubQuestionAnswer {
            images: vec![image],
            ..SubQuestionAnswer::default()
        };
        let words = SubQuestion::text("Show me");
        assert!(
            validate_answers(
                std::slice::from_ref(&words),
                std::slice::from_ref(&with_image)
            )
            .is_ok()
        );
        let choice_only = SubQuestion {
            allow_free_text: false,
            ..choice(&["Yes", "No"])
        };
        let refused = validate_answers(&[choice_only], &[with_image]).unwrap_err();
        assert_eq!(refused.field.as_deref(), Some("answers[0].images"));
    }

    #[test]
    fn image_types_are_told_by_their_bytes() {
        assert_eq!(image_type_of(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(image_type_of(b"\xff\xd8\xff\xe0...."), Some("image/jpeg"));
        assert_eq!(image_type_of(b"GIF89a...."), Some("image/gif"));
        assert_eq!(image_type_of(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(image_type_of(b"<svg xmlns="), None);
    }
    use crate::model::QuestionOption;

    fn choice(labels: &[&str]) -> SubQuestion {
        SubQuestion {
            options: labels.iter().map(|l| QuestionOption::new(*l)).collect(),
            ..SubQuestion::text("Pick one")
        }
    }

    fn ask(questions: Vec<SubQuestion>) -> AskRequest {
        AskRequest {
            questions,
            ..AskRequest::default()
        }
    }

    fn field_of(result: Result<(), ErrorBody>) -> String {
        result
            .expect_err("should be rejected")
            .field
            .unwrap_or_default()
    }

    #[test]
    fn accepts_one_to_four_questions() {
        for n in 1..=4 {
            assert!(validate_ask(&ask(vec![choice(&["A"]); n])).is_ok());
        }
        assert_eq!(field_of(validate_ask(&ask(vec![]))), "questions");
        assert_eq!(
            field_of(validate_ask(&ask(vec![choice(&["A"]); 5]))),
            "questions"
        );
    }

    #[test]
    fn rejects_blank_and_long_question_text() {
        assert_eq!(
            field_of(validate_ask(&ask(vec![SubQuestion::text("  ")]))),
            "questions[0].question"
        );
        let long = "q".repeat(MAX_QUESTION_CHARS + 1);
        assert_eq!(
            field_of(validate_ask(&ask(vec![
                choice(&["A"]),
                SubQuestion::text(long)
            ]))),
            "questions[1].question"
        );
        let at_limit = "é".repeat(MAX_QUESTION_CHARS);
        assert!(validate_ask(&ask(vec![SubQuestion::text(at_limit)])).is_ok());
    }

    #[test]
    fn rejects_too_many_options() {
        let labels: Vec<String> = (0..=MAX_OPTIONS).map(|i| format!("o{i}")).collect();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        assert_eq!(
            field_of(validate_ask(&ask(vec![choice(&refs)]))),
            "questions[0].options"
        );
        assert!(validate_ask(&ask(vec![choice(&refs[..MAX_OPTIONS])])).is_ok());
    }

    #[test]
    fn rejects_empty_long_and_duplicate_labels() {
        assert_eq!(
            field_of(validate_ask(&ask(vec![choice(&["A", ""])]))),
            "questions[0].options[1].label"
        );
        let long = "l".repeat(MAX_LABEL_CHARS + 1);
        assert_eq!(
            field_of(validate_ask(&ask(vec![choice(&[long.as_str()])]))),
            "questions[0].options[0].label"
        );
        assert_eq!(
            field_of(validate_ask(&ask(vec![
                choice(&["A"]),
                choice(&["A", "B", "A"])
            ]))),
            "questions[1].options[2].label"
        );
    }

    #[test]
    fn rejects_long_title_header_description_and_timeout() {
        let mut request = ask(vec![choice(&["A"])]);
        request.title = Some("t".repeat(MAX_TITLE_CHARS + 1));
        assert_eq!(field_of(validate_ask(&request)), "title");

        let mut request = ask(vec![choice(&["A"])]);
        request.questions[0].header = Some("h".repeat(MAX_HEADER_CHARS + 1));
        assert_eq!(field_of(validate_ask(&request)), "questions[0].header");

        let mut request = ask(vec![choice(&["A"])]);
        request.questions[0].options[0].description = Some("d".repeat(MAX_DESCRIPTION_CHARS + 1));
        assert_eq!(
            field_of(validate_ask(&request)),
            "questions[0].options[0].description"
        );

        let mut request = ask(vec![choice(&["A"])]);
        request.questions[0].options[0].preview = Some("p".repeat(MAX_PREVIEW_CHARS + 1));
        assert_eq!(
            field_of(validate_ask(&request)),
            "questions[0].options[0].preview"
        );
        request.questions[0].options[0].preview = Some("p".repeat(MAX_PREVIEW_CHARS));
        assert!(validate_ask(&request).is_ok());

        let mut request = ask(vec![choice(&["A"])]);
        request.timeout_secs = Some(MAX_TIMEOUT_SECS + 1);
        assert_eq!(field_of(validate_ask(&request)), "timeoutSecs");
    }

    #[test]
    fn rejects_unanswerable_question() {
        let mut sub = SubQuestion::text("Nothing to pick");
        sub.allow_free_text = false;
        assert_eq!(
            field_of(validate_ask(&ask(vec![sub]))),
            "questions[0].options"
        );
    }

    fn answer(selected: &[&str], free_text: Option<&str>) -> SubQuestionAnswer {
        SubQuestionAnswer {
            selected: selected.iter().map(|s| s.to_string()).collect(),
            free_text: free_text.map(str::to_string),
            images: Vec::new(),
        }
    }

    fn answer_field(questions: &[SubQuestion], answers: &[SubQuestionAnswer]) -> String {
        validate_answers(questions, answers)
            .expect_err("should be rejected")
            .field
            .unwrap_or_default()
    }

    #[test]
    fn needs_exactly_one_answer_per_question() {
        let questions = vec![choice(&["A", "B"]), choice(&["C"])];
        assert_eq!(answer_field(&questions, &[answer(&["A"], None)]), "answers");
        let three = vec![
            answer(&["A"], None),
            answer(&["C"], None),
            answer(&["C"], None),
        ];
        assert_eq!(answer_field(&questions, &three), "answers");
        assert!(validate_answers(&questions, &three[..2]).is_ok());
    }

    #[test]
    fn selected_labels_must_belong_to_the_question() {
        let questions = vec![choice(&["A", "B"]), choice(&["C"])];
        assert_eq!(
            answer_field(&questions, &[answer(&["A"], None), answer(&["A"], None)]),
            "answers[1].selected"
        );
    }

    #[test]
    fn single_select_takes_one_label_and_multi_takes_many() {
        let mut questions = vec![choice(&["A", "B"])];
        assert_eq!(
            answer_field(&questions, &[answer(&["A", "B"], None)]),
            "answers[0].selected"
        );
        questions[0].multi_select = true;
        assert!(validate_answers(&questions, &[answer(&["A", "B"], None)]).is_ok());
        assert_eq!(
            answer_field(&questions, &[answer(&["A", "A"], None)]),
            "answers[0].selected"
        );
    }

    #[test]
    fn free_text_only_where_allowed_and_within_limit() {
        let mut questions = vec![choice(&["A"])];
        assert!(validate_answers(&questions, &[answer(&[], Some("mine"))]).is_ok());
        let long = "x".repeat(MAX_FREE_TEXT_CHARS + 1);
        assert_eq!(
            answer_field(&questions, &[answer(&[], Some(&long))]),
            "answers[0].freeText"
        );
        questions[0].allow_free_text = false;
        assert_eq!(
            answer_field(&questions, &[answer(&[], Some("mine"))]),
            "answers[0].freeText"
        );
    }

    #[test]
    fn each_answer_needs_a_label_or_text_and_keeps_text_verbatim() {
        let questions = vec![choice(&["A"])];
        assert_eq!(
            answer_field(&questions, &[answer(&[], Some("   "))]),
            "answers[0]"
        );
        assert_eq!(answer_field(&questions, &[answer(&[], None)]), "answers[0]");
        let text = " 👋 tabs\tand\u{1}control ";
        let normalised = validate_answers(&questions, &[answer(&["A"], Some(text))]).unwrap();
        assert_eq!(normalised[0].free_text.as_deref(), Some(text));
        let blank_dropped = validate_answers(&questions, &[answer(&["A"], Some(" "))]).unwrap();
        assert_eq!(blank_dropped[0].free_text, None);
    }

    #[test]
    fn note_has_a_limit() {
        assert!(validate_note(Some("fine")).is_ok());
        let long = "n".repeat(MAX_NOTE_CHARS + 1);
        assert_eq!(
            validate_note(Some(&long)).unwrap_err().field.as_deref(),
            Some("note")
        );
    }
}
