//! Answers' images (SPEC §13) in the store: decoding what was sent and checking that the bytes
//! are the type they claim, keeping the bytes beside the question (in memory until the log has
//! them; without a log, within a budget), and reading them back.

use super::{State, Store};
pub use crate::log::StoredImage;
use crate::model::{
    ErrorBody, QuestionId, SubQuestionAnswer, image_type_of, limits, validate_images,
};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// Without a log, the most image bytes kept in memory; the oldest answers' images go first
/// (and are then no longer served).
const MEMORY_IMAGE_BYTES: usize = 256 * 1024 * 1024;

impl Store {
    /// A question's images with their bytes, in the order of its answers: from memory until
    /// the log holds them, then from the log.
    pub async fn images(&self, id: QuestionId) -> Vec<StoredImage> {
        self.images_at(id, None).await
    }

    /// One image of a question's answers: `place` among the images of answer `answer`.
    pub async fn image(&self, id: QuestionId, answer: usize, place: usize) -> Option<StoredImage> {
        self.images_at(id, Some((answer, place))).await.pop()
    }

    async fn images_at(&self, id: QuestionId, only: Option<(usize, usize)>) -> Vec<StoredImage> {
        let wanted = |image: &StoredImage| only.is_none_or(|at| at == (image.answer, image.place));
        if let Some(entry) = self.state().entries.get(&id)
            && !entry.images.is_empty()
        {
            return entry
                .images
                .iter()
                .filter(|image| wanted(image))
                .cloned()
                .collect();
        }
        match &self.shared.log {
            Some(log) if log.holds(id) => log.images(id, only).await,
            _ => Vec::new(),
        }
    }

    /// Puts the bytes (base64) back into `answers`' images, for whoever takes the images
    /// along: the agent's result, `hark ask --json`, the JSON export.
    pub async fn fill_image_data(&self, id: QuestionId, answers: &mut [SubQuestionAnswer]) {
        if answers.iter().all(|answer| answer.images.is_empty()) {
            return;
        }
        let stored = self.images(id).await;
        // Up to 80 MB of base64: not on the runtime's workers.
        let encoded = tokio::task::spawn_blocking(move || {
            stored
                .iter()
                .map(|image| (image.answer, image.place, base64(image)))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        for (answer, place, data) in encoded {
            if let Some(image) = answers
                .get_mut(answer)
                .and_then(|given| given.images.get_mut(place))
            {
                image.data = Some(data);
            }
        }
    }
}

/// Without a log: after `newest` closed, drops the images of the oldest closed questions until
/// the images kept fit `MEMORY_IMAGE_BYTES`.
pub(super) fn keep_within_budget(state: &mut State, newest: QuestionId) {
    let weight = |state: &State, id: &QuestionId| {
        state.entries.get(id).map_or(0, |entry| {
            entry
                .images
                .iter()
                .map(|image| image.bytes.len())
                .sum::<usize>()
        })
    };
    // A close without images adds none, and every close before it left the images kept within
    // the budget (one question's images, at most 80 MB, always fit it): nothing to drop, and no
    // walk over the whole history on every close.
    if weight(state, &newest) == 0 {
        return;
    }
    let mut total: usize = state
        .closed_order
        .iter()
        .chain(std::iter::once(&newest))
        .map(|id| weight(state, id))
        .sum();
    let order: Vec<QuestionId> = state.closed_order.iter().copied().collect();
    for id in order {
        if total <= MEMORY_IMAGE_BYTES {
            break;
        }
        total -= weight(state, &id);
        if let Some(entry) = state.entries.get_mut(&id) {
            entry.images = Vec::new();
        }
    }
}

/// The bytes as the API sends them.
fn base64(image: &StoredImage) -> String {
    STANDARD.encode(&image.bytes)
}

/// Decodes every image in `answers`: the answers come back with `size` set and `data` gone
/// (each dropped as soon as it is decoded), and the bytes beside them. CPU-bound (up to 16
/// images of 5 MB): call it off the runtime's workers.
///
/// # Errors
/// Naming the image's field: too many, a type not accepted, no data, data that is not base64,
/// too large, or bytes that are not the type claimed.
pub fn take(
    mut answers: Vec<SubQuestionAnswer>,
) -> Result<(Vec<SubQuestionAnswer>, Vec<StoredImage>), ErrorBody> {
    let mut stored = Vec::new();
    for (index, answer) in answers.iter_mut().enumerate() {
        validate_images(index, &answer.images)?;
        for (place, image) in answer.images.iter_mut().enumerate() {
            let data = image.data.take();
            let bytes = decode(index, place, &image.media_type, data.as_deref())?;
            drop(data);
            image.size = bytes.len() as u64;
            stored.push(StoredImage {
                answer: index,
                place,
                media_type: image.media_type.clone(),
                bytes: bytes.into(),
            });
        }
    }
    Ok((answers, stored))
}

fn decode(
    index: usize,
    place: usize,
    media_type: &str,
    data: Option<&str>,
) -> Result<Vec<u8>, ErrorBody> {
    let field = format!("answers[{index}].images[{place}].data");
    let data = data.map(str::trim).unwrap_or_default();
    if data.is_empty() {
        return Err(ErrorBody::field(
            &field,
            format!("{field} is missing: send the image's bytes in base64"),
        ));
    }
    let limit_mb = limits::MAX_IMAGE_BYTES / (1024 * 1024);
    let too_large = |size: usize| {
        ErrorBody::field(
            &field,
            format!(
                "{field} is an image of {:.1} MB; the limit is {limit_mb} MB",
                size as f64 / (1024.0 * 1024.0)
            ),
        )
    };
    // Refused before decoding: the length alone tells.
    let at_least = (data.len() / 4 * 3).saturating_sub(2);
    if at_least > limits::MAX_IMAGE_BYTES {
        return Err(too_large(at_least));
    }
    let bytes = STANDARD.decode(data).map_err(|_| {
        ErrorBody::field(
            &field,
            format!("{field} is not base64 (standard alphabet, without a \"data:\" prefix)"),
        )
    })?;
    if bytes.len() > limits::MAX_IMAGE_BYTES {
        return Err(too_large(bytes.len()));
    }
    let found = image_type_of(&bytes);
    if found != Some(media_type) {
        let what = match found {
            Some(found) => format!("its bytes are {found}"),
            None => "its bytes are not a PNG, JPEG, WebP or GIF image".to_string(),
        };
        return Err(ErrorBody::field(
            &field,
            format!("{field} does not hold the {media_type} it claims: {what}"),
        ));
    }
    super::image_shape::check(&bytes, media_type)
        .map_err(|problem| ErrorBody::field(&field, format!("{field} {problem}")))?;
    Ok(bytes)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::model::AnswerImage;

    /// The smallest PNG: a 1×1 transparent pixel.
    pub(in crate::store) const PNG: &[u8] = &[
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];

    fn with_image(media_type: &str, data: Option<String>) -> Vec<SubQuestionAnswer> {
        vec![SubQuestionAnswer {
            free_text: Some("see".into()),
            images: vec![AnswerImage {
                media_type: media_type.into(),
                data,
                size: 0,
            }],
            ..SubQuestionAnswer::default()
        }]
    }

    fn refusal(answers: &[SubQuestionAnswer]) -> ErrorBody {
        take(answers.to_vec()).expect_err("refused")
    }

    #[test]
    fn an_image_is_split_from_its_answer() {
        let (answers, stored) = take(with_image("image/png", Some(STANDARD.encode(PNG)))).unwrap();
        assert_eq!(answers[0].images[0].data, None);
        assert_eq!(answers[0].images[0].size, PNG.len() as u64);
        assert_eq!(stored.len(), 1);
        assert_eq!(&*stored[0].bytes, PNG);
        assert_eq!(base64(&stored[0]), STANDARD.encode(PNG));
    }

    #[test]
    fn every_refusal_names_the_field() {
        let wrong_type = refusal(&with_image("image/jpeg", Some(STANDARD.encode(PNG))));
        assert_eq!(
            wrong_type.field.as_deref(),
            Some("answers[0].images[0].data")
        );
        assert!(
            wrong_type.error.contains("its bytes are image/png"),
            "{}",
            wrong_type.error
        );

        let text = refusal(&with_image(
            "image/png",
            Some(STANDARD.encode("hello, world")),
        ));
        assert!(
            text.error.contains("not a PNG, JPEG, WebP or GIF"),
            "{}",
            text.error
        );

        let svg = refusal(&with_image(
            "image/svg+xml",
            Some(STANDARD.encode("<svg/>")),
        ));
        assert_eq!(svg.field.as_deref(), Some("answers[0].images[0].mediaType"));

        let missing = refusal(&with_image("image/png", None));
        assert!(missing.error.contains("is missing"), "{}", missing.error);

        let data_url = format!("data:image/png;base64,{}", STANDARD.encode(PNG));
        let not_base64 = refusal(&with_image("image/png", Some(data_url)));
        assert!(
            not_base64.error.contains("not base64"),
            "{}",
            not_base64.error
        );

        let mut huge = PNG.to_vec();
        huge.resize(limits::MAX_IMAGE_BYTES + 1, 0);
        let too_large = refusal(&with_image("image/png", Some(STANDARD.encode(&huge))));
        assert!(
            too_large.error.contains("the limit is 5 MB"),
            "{}",
            too_large.error
        );

        let mut five = with_image("image/png", Some(STANDARD.encode(PNG)));
        let image = five[0].images[0].clone();
        five[0].images = vec![image; 5];
        let too_many = refusal(&five);
        assert_eq!(too_many.field.as_deref(), Some("answers[0].images"));
    }
}
